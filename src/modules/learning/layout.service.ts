import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors';
import { idempotent } from '../../core/idempotency';
import { type RawBuilder, sql as raw } from 'kysely';
import { rows as runRows, sql } from '../../db/typed-sql';
import { keysetPage } from '../shared';
import { numberIn, text } from '../../core/validate';
import type { LoaderFactory } from '../../graphql/loaders';
import { layoutCountsStatement, PROFILE_COLUMNS, type ProfileRow } from './analytics.sql';
import { layoutFingerprint } from './fingerprint';
import type { DocumentLayoutInput } from './learning.inputs';
import { LayoutProfile } from './learning.type';

export type { ProfileRow };

/** Profiles with exampleCount / correctionRate, computed from the corrections of their layouts in one statement. */
export async function profilesFromRows(em: EntityManager, orgId: string, rows: ProfileRow[]): Promise<LayoutProfile[]> {
  if (rows.length === 0) return [];
  const counts = await runRows(
    em,
    layoutCountsStatement(
      orgId,
      rows.map((r) => r.layout_fingerprint),
    ),
  );
  const byFp = new Map(counts.map((c) => [c.fp, c]));
  return rows.map((r) => {
    const c = byFp.get(r.layout_fingerprint);
    const seen = Number(r.seen_count);
    return Object.assign(new LayoutProfile(), {
      id: r.id,
      layoutFingerprint: r.layout_fingerprint,
      seenCount: seen,
      exampleCount: c?.examples ?? 0,
      correctionRate: seen > 0 ? Math.min(1, (c?.corrected_docs ?? 0) / seen) : 0,
      lastSeenAt: new Date(r.last_seen_at),
      stats: (r.stats ?? {}) as Record<string, unknown>,
      createdAt: new Date(r.created_at),
      updatedAt: new Date(r.updated_at),
    });
  });
}

/** Profiles by fingerprint for one request (one statement for the rows, one for their counts). */
export const profilesByFingerprint: LoaderFactory<DataLoader<string, LayoutProfile | null>> = (em, orgId) =>
  new DataLoader(async (fps) => {
    const query = sql
      .selectFrom('layout_profiles as p')
      .select(PROFILE_COLUMNS)
      .where('p.org_id', '=', orgId)
      .where('p.layout_fingerprint', '=', raw<string>`any(${[...fps]}::text[])`);
    const rows = await runRows(em, query);
    const profiles = new Map((await profilesFromRows(em, orgId, rows)).map((p) => [p.layoutFingerprint, p]));
    return fps.map((fp) => profiles.get(fp) ?? null);
  });

function checkLayout(input: DocumentLayoutInput): void {
  text('input.documentId', input.documentId, 200, { required: true });
  if (!Number.isInteger(input.pageCount) || input.pageCount < 0) throw badInput('input.pageCount', 'pageCount must be an integer >= 0');
  if (!Number.isInteger(input.tableCount) || input.tableCount < 0) throw badInput('input.tableCount', 'tableCount must be an integer >= 0');
  if (input.pageDimensions.length > 10_000) throw badInput('input.pageDimensions', 'at most 10,000 pages');
  input.pageDimensions.forEach((d, i) => {
    if (d.length !== 2 || !d.every((x) => Number.isFinite(x) && x > 0))
      throw badInput(`input.pageDimensions.${i}`, 'each page dimension must be a pair of positive numbers [width, height]');
  });
  numberIn('input.textCoverageRatio', input.textCoverageRatio, 0, 1);
  numberIn('input.extractionConfidence', input.extractionConfidence, 0, 1);
}

/** The running average of `stats.<name>` over `n` documents when one more brings `x`: avg + (x - avg) / n. */
const runningAvg = (name: string, x: unknown, n: RawBuilder<number>) => {
  const avg = raw`coalesce((layout_profiles.stats->>${raw.lit(name)})::float8, 0)`;
  return raw`${avg} + (${x}::float8 - ${avg}) / ${n}`;
};

/** A profile's stats with one more document, the confidence averaged over the documents that had one. */
function nextStats(input: DocumentLayoutInput, conf: number | null) {
  const seen = raw<number>`(layout_profiles.seen_count + 1)`;
  const samples = raw<number>`coalesce((layout_profiles.stats->>'confidenceSamples')::int, 0)`;
  return raw`jsonb_build_object(
    'avgPageCount', ${runningAvg('avgPageCount', input.pageCount, seen)},
    'avgTableCount', ${runningAvg('avgTableCount', input.tableCount, seen)},
    'avgTextCoverageRatio', ${runningAvg('avgTextCoverageRatio', input.textCoverageRatio, seen)},
    'confidenceSamples', ${samples} + CASE WHEN ${conf}::float8 IS NULL THEN 0 ELSE 1 END,
    'avgExtractionConfidence', CASE WHEN ${conf}::float8 IS NULL THEN layout_profiles.stats->'avgExtractionConfidence' ELSE to_jsonb(
      ${runningAvg('avgExtractionConfidence', conf, raw<number>`(${samples} + 1)`)}) END)`;
}

/**
 * Stores the document's fingerprint and counts it in its layout profile (upserted atomically:
 * concurrent first sightings make one profile). A document already recorded is not counted again.
 */
export async function recordDocumentLayout(
  em: EntityManager,
  orgId: string,
  input: DocumentLayoutInput,
): Promise<{ fingerprint: string; isNew: boolean }> {
  checkLayout(input);
  const fingerprint = layoutFingerprint(input);
  const { idempotencyKey, ...rest } = input;
  return idempotent(em, { orgId, key: idempotencyKey, operation: 'recordDocumentLayout', input: rest }, async (tx) => {
    const document = sql
      .insertInto('documents')
      .values({
        id: raw<string>`gen_random_uuid()`,
        org_id: orgId,
        created_at: raw<string>`now()`,
        updated_at: raw<string>`now()`,
        document_id: input.documentId,
        layout_fingerprint: fingerprint,
        page_count: input.pageCount,
        page_dimensions: raw<string>`${JSON.stringify(input.pageDimensions)}::jsonb`,
        table_count: input.tableCount,
        text_coverage_ratio: input.textCoverageRatio,
        extraction_confidence: input.extractionConfidence ?? null,
      })
      .onConflict((oc) =>
        oc.columns(['org_id', 'document_id']).doUpdateSet({
          updated_at: raw<string>`now()`,
          extraction_confidence: raw<number | null>`coalesce(EXCLUDED.extraction_confidence, documents.extraction_confidence)`,
        }),
      )
      .returning(raw<boolean>`(xmax = 0)`.as('inserted'));
    const [doc] = await runRows(tx, document);
    const inc = doc.inserted ? 1 : 0;
    const conf = input.extractionConfidence ?? null;
    const first = {
      avgPageCount: input.pageCount,
      avgTableCount: input.tableCount,
      avgTextCoverageRatio: input.textCoverageRatio,
      avgExtractionConfidence: conf,
      confidenceSamples: conf === null ? 0 : 1,
    };
    const profile = sql
      .insertInto('layout_profiles')
      .values({
        id: raw<string>`gen_random_uuid()`,
        org_id: orgId,
        layout_fingerprint: fingerprint,
        seen_count: 1,
        last_seen_at: raw<string>`now()`,
        stats: raw<string>`${JSON.stringify(first)}::jsonb`,
        created_at: raw<string>`now()`,
        updated_at: raw<string>`now()`,
      })
      .onConflict((oc) =>
        oc.columns(['org_id', 'layout_fingerprint']).doUpdateSet({
          seen_count: raw<number>`layout_profiles.seen_count + ${inc}::int`,
          last_seen_at: raw<string>`now()`,
          updated_at: raw<string>`now()`,
          stats: raw<string>`CASE WHEN ${inc}::int = 0 THEN layout_profiles.stats ELSE ${nextStats(input, conf)} END`,
        }),
      )
      .returning(raw<boolean>`(xmax = 0)`.as('is_new'));
    const [p] = await runRows(tx, profile);
    return { fingerprint, isNew: p.is_new };
  });
}

/** Layout profiles, most recently seen first, by keyset (last_seen_at, id). */
export async function listProfiles(em: EntityManager, orgId: string, first?: number | null, after?: string | null) {
  const query = sql.selectFrom('layout_profiles as p').select(PROFILE_COLUMNS).where('p.org_id', '=', orgId);
  const toNodes = (rows: ProfileRow[]) => profilesFromRows(em, orgId, rows);
  return keysetPage(em, query, { alias: 'p', sortColumn: 'last_seen_at', first, after, toNodes });
}
