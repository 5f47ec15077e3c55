import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors';
import { idempotent } from '../../core/idempotency';
import { keysetPageText } from '../shared/keyset-page';
import { checkFingerprint } from '../shared/layout-fingerprint';
import { pgArray } from '../../core/sql';
import { numberIn, text } from '../../core/validate';
import type { LoaderFactory } from '../../graphql/loaders';
import { layoutCountsStatement, PROFILE_COLUMNS } from './analytics.sql';
import { layoutFingerprint } from './fingerprint';
import type { DocumentLayoutInput } from './learning.inputs';
import { LayoutProfile } from './learning.type';


export interface ProfileRow {
  id: string;
  layout_fingerprint: string;
  seen_count: number;
  last_seen_at: Date;
  stats: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** Profiles with exampleCount / correctionRate, computed from the corrections of their layouts in one statement. */
export async function profilesFromRows(em: EntityManager, orgId: string, rows: ProfileRow[]): Promise<LayoutProfile[]> {
  if (rows.length === 0) return [];
  const q = layoutCountsStatement(orgId, rows.map((r) => r.layout_fingerprint));
  const counts = await em.execute<{ fp: string; examples: number; corrected_docs: number }[]>(q.sql, q.params);
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
      stats: r.stats ?? {},
      createdAt: new Date(r.created_at),
      updatedAt: new Date(r.updated_at),
    });
  });
}

/** Profiles by fingerprint for one request (one statement for the rows, one for their counts). */
export const profilesByFingerprint: LoaderFactory<DataLoader<string, LayoutProfile | null>> = (em, orgId) =>
  new DataLoader(async (fps) => {
    const rows = await em.execute<ProfileRow[]>(`SELECT ${PROFILE_COLUMNS} FROM layout_profiles p WHERE p.org_id = ? AND p.layout_fingerprint = ANY(?::text[])`, [orgId, pgArray([...fps])]);
    const profiles = new Map((await profilesFromRows(em, orgId, rows)).map((p) => [p.layoutFingerprint, p]));
    return fps.map((fp) => profiles.get(fp) ?? null);
  });

function checkLayout(input: DocumentLayoutInput): void {
  text('input.documentId', input.documentId, 200, { required: true });
  if (!Number.isInteger(input.pageCount) || input.pageCount < 0) throw badInput('input.pageCount', 'pageCount must be an integer >= 0');
  if (!Number.isInteger(input.tableCount) || input.tableCount < 0) throw badInput('input.tableCount', 'tableCount must be an integer >= 0');
  if (input.pageDimensions.length > 10_000) throw badInput('input.pageDimensions', 'at most 10,000 pages');
  input.pageDimensions.forEach((d, i) => {
    if (d.length !== 2 || !d.every((x) => Number.isFinite(x) && x > 0)) throw badInput(`input.pageDimensions.${i}`, 'each page dimension must be a pair of positive numbers [width, height]');
  });
  numberIn('input.textCoverageRatio', input.textCoverageRatio, 0, 1);
  numberIn('input.extractionConfidence', input.extractionConfidence, 0, 1);
}

/**
 * Stores the document's fingerprint and counts it in its layout profile (upserted atomically:
 * concurrent first sightings make one profile). A document already recorded is not counted again.
 */
export async function recordDocumentLayout(em: EntityManager, orgId: string, input: DocumentLayoutInput): Promise<{ fingerprint: string; isNew: boolean }> {
  checkLayout(input);
  const fingerprint = layoutFingerprint(input);
  const { idempotencyKey, ...rest } = input;
  return idempotent(em, { orgId, key: idempotencyKey, operation: 'recordDocumentLayout', input: rest }, async (tx) => {
    const [doc] = await tx.execute<{ inserted: boolean }[]>(
      `INSERT INTO documents (id, org_id, created_at, updated_at, document_id, layout_fingerprint, page_count, page_dimensions, table_count, text_coverage_ratio, extraction_confidence)
       VALUES (gen_random_uuid(), ?, now(), now(), ?, ?, ?, ?::jsonb, ?, ?, ?)
       ON CONFLICT (org_id, document_id) DO UPDATE SET updated_at = now(),
         extraction_confidence = coalesce(EXCLUDED.extraction_confidence, documents.extraction_confidence)
       RETURNING (xmax = 0) AS inserted`,
      [orgId, input.documentId, fingerprint, input.pageCount, JSON.stringify(input.pageDimensions), input.tableCount, input.textCoverageRatio, input.extractionConfidence ?? null],
    );
    const inc = doc.inserted ? 1 : 0;
    const conf = input.extractionConfidence ?? null;
    const first = { avgPageCount: input.pageCount, avgTableCount: input.tableCount, avgTextCoverageRatio: input.textCoverageRatio, avgExtractionConfidence: conf, confidenceSamples: conf === null ? 0 : 1 };
    // running averages: avg + (x - avg) / n, with the confidence averaged over the documents that had one
    const [p] = await tx.execute<{ is_new: boolean }[]>(
      `INSERT INTO layout_profiles AS p (id, org_id, layout_fingerprint, seen_count, last_seen_at, stats, created_at, updated_at)
       VALUES (gen_random_uuid(), ?, ?, 1, now(), ?::jsonb, now(), now())
       ON CONFLICT (org_id, layout_fingerprint) DO UPDATE SET
         seen_count = p.seen_count + ?::int, last_seen_at = now(), updated_at = now(),
         stats = CASE WHEN ?::int = 0 THEN p.stats ELSE jsonb_build_object(
           'avgPageCount', coalesce((p.stats->>'avgPageCount')::float8, 0) + (?::float8 - coalesce((p.stats->>'avgPageCount')::float8, 0)) / (p.seen_count + 1),
           'avgTableCount', coalesce((p.stats->>'avgTableCount')::float8, 0) + (?::float8 - coalesce((p.stats->>'avgTableCount')::float8, 0)) / (p.seen_count + 1),
           'avgTextCoverageRatio', coalesce((p.stats->>'avgTextCoverageRatio')::float8, 0) + (?::float8 - coalesce((p.stats->>'avgTextCoverageRatio')::float8, 0)) / (p.seen_count + 1),
           'confidenceSamples', coalesce((p.stats->>'confidenceSamples')::int, 0) + CASE WHEN ?::float8 IS NULL THEN 0 ELSE 1 END,
           'avgExtractionConfidence', CASE WHEN ?::float8 IS NULL THEN p.stats->'avgExtractionConfidence' ELSE to_jsonb(
             coalesce((p.stats->>'avgExtractionConfidence')::float8, 0) + (?::float8 - coalesce((p.stats->>'avgExtractionConfidence')::float8, 0)) / (coalesce((p.stats->>'confidenceSamples')::int, 0) + 1)) END) END
       RETURNING (xmax = 0) AS is_new`,
      [orgId, fingerprint, JSON.stringify(first), inc, inc, input.pageCount, input.tableCount, input.textCoverageRatio, conf, conf, conf],
    );
    return { fingerprint, isNew: p.is_new };
  });
}

/** Layout profiles, most recently seen first, by keyset (last_seen_at, id). */
export async function listProfiles(em: EntityManager, orgId: string, first?: number | null, after?: string | null) {
  return keysetPageText<ProfileRow, LayoutProfile>(em, {
    columns: PROFILE_COLUMNS, table: 'layout_profiles', alias: 'p', sortColumn: 'last_seen_at', where: ['p.org_id = ?'], params: [orgId], first, after,
    toNodes: (rows) => profilesFromRows(em, orgId, rows),
  });
}
