import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw, type Selectable } from 'kysely';
import type { FactsTable } from '../../db/tables';
import { CLIENT_MODEL_ID, type Embedder, vectorsFor } from '../embeddings';
import { keysetPage } from '../shared';
import { badInput, conflict } from '../../core/errors';
import { idempotent } from '../../core/idempotency';
import { boundRows, firstRow, type Row, rows as runRows, sql } from '../../db/typed-sql';
import { limit, text } from '../../core/validate';
import { checkDimensions, factEmbedding } from './embedding-dimension';
import { FACT_COLUMNS, type FactRow, factFromRow } from './fact.rows';
import type { Fact } from './fact.type';
import { type FactFilter, type FactInput, FactOrder } from './facts.inputs';
import { mostUsefulPage, pageTime, requireBank, searchConditions } from './fact-search';
import { float8ArrayOfJson, jsonRecords } from './json-records';
import { liveIn } from './as-of.sql';

const MAX_FACT_TEXT_BYTES = 8 * 1024;
const MAX_UPSERT = 500;
const SHORT = 200;
const LONG = 2000;

/** One fact of the organization, or null (another org's id behaves like a missing one). */
export async function getFact(em: EntityManager, orgId: string, id: string): Promise<Fact | null> {
  const row = await firstRow(em, sql.selectFrom('facts as f').select(FACT_COLUMNS).where('f.org_id', '=', orgId).where('f.id', '=', id));
  return row ? factFromRow(row) : null;
}

/** A keyset page of facts, newest first (`created_at desc, id desc`) or most useful first (see fact-search.ts). */
export async function listFacts(
  em: EntityManager,
  orgId: string,
  filter: FactFilter | null | undefined,
  first: number | null | undefined,
  after: string | null | undefined,
  orderBy: FactOrder = FactOrder.NEWEST,
) {
  const mostUseful = orderBy === FactOrder.MOST_USEFUL;
  const at = pageTime(after, mostUseful);
  const checked = (field: string, value: string | null | undefined) =>
    value === null || value === undefined ? null : text(`filter.${field}`, value, LONG);
  const bankId = checked('bankId', filter?.bankId);
  const kind = checked('kind', filter?.kind);
  const externalId = checked('externalId', filter?.externalId);
  const scope = checked('scope', filter?.scope);
  const statuses = filter?.statuses?.length ? filter.statuses : null;
  const query = sql
    .selectFrom('facts as f')
    .select(FACT_COLUMNS)
    .where('f.org_id', '=', orgId)
    .where(liveIn('f', { includeSuperseded: filter?.includeSuperseded ?? false, asOf: null }))
    .$if(bankId !== null, (q) => q.where('f.bank_id', '=', bankId!))
    .$if(kind !== null, (q) => q.where('f.kind', '=', kind!))
    .$if(externalId !== null, (q) => q.where('f.external_id', '=', externalId!))
    .$if(scope !== null, (q) => q.where('f.scope', '=', scope!))
    .$if(statuses !== null, (q) => q.where('f.status', '=', raw<string>`any(${statuses}::text[])`))
    .$call((q) => searchConditions(filter, at).reduce((w, c) => w.where(c), q));
  const now = new Date();
  const toNodes = (rows: FactRow[]): Fact[] => rows.map((r) => factFromRow(r, now));
  const page = mostUseful
    ? await mostUsefulPage(em, query, first, after, at, toNodes)
    : await keysetPage(em, query, { alias: 'f', sortColumn: 'created_at', first, after, toNodes });
  await requireBank(em, orgId, filter, bankId, page.edges.length === 0, after);
  return page;
}

interface UpsertRow {
  id: string;
  bank_id: string;
  text: string;
  kind: string | null;
  external_id: string | null;
  embedding?: number[];
  embedding_model?: string;
  scope: string | null;
  key: string | null;
  value: string | null;
  valid_from: string | null;
  valid_to: string | null;
}

const instant = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

function validateUpsert(inputs: FactInput[]): UpsertRow[] {
  if (inputs.length > MAX_UPSERT) throw badInput('inputs', `at most ${MAX_UPSERT} facts per call`);
  const seen = new Map<string, number>();
  return inputs.map((f, i) => {
    const p = `inputs.${i}`;
    text(`${p}.bankId`, f.bankId, SHORT, { required: true });
    text(`${p}.text`, f.text, MAX_FACT_TEXT_BYTES, { required: true });
    if (Buffer.byteLength(f.text, 'utf8') > MAX_FACT_TEXT_BYTES) throw badInput(`${p}.text`, `${p}.text must be at most 8 KB`);
    text(`${p}.kind`, f.kind, SHORT);
    text(`${p}.externalId`, f.externalId, SHORT, { required: false });
    if (f.externalId !== null && f.externalId !== undefined) {
      if (f.externalId.trim() === '') throw badInput(`${p}.externalId`, `${p}.externalId must not be empty`);
      if (seen.has(f.externalId)) throw badInput(`${p}.externalId`, `${p}.externalId repeats inputs.${seen.get(f.externalId)}.externalId`);
      seen.set(f.externalId, i);
    }
    factEmbedding(`${p}.embedding`, f.embedding);
    for (const k of ['scope', 'key', 'value'] as const) text(`${p}.${k}`, f[k], LONG);
    if (f.validFrom && f.validTo && f.validTo <= f.validFrom) throw badInput(`${p}.validTo`, `${p}.validTo must be after ${p}.validFrom`);
    return {
      id: randomUUID(),
      bank_id: f.bankId,
      text: f.text,
      kind: f.kind ?? null,
      external_id: f.externalId ?? null,
      ...(f.embedding ? { embedding: f.embedding } : {}),
      scope: f.scope ?? null,
      key: f.key ?? null,
      value: f.value ?? null,
      valid_from: instant(f.validFrom),
      valid_to: instant(f.validTo),
    };
  });
}

/** The rows of the upsert as a table (alias `x`), the embedding still JSON. */
type UpsertRecord = Pick<
  Selectable<FactsTable>,
  'id' | 'bank_id' | 'text' | 'kind' | 'external_id' | 'scope' | 'key' | 'value' | 'embedding_model' | 'valid_from' | 'valid_to'
> & {
  embedding: unknown;
};

/**
 * Inserts the rows; a row whose external id exists updates that fact (left-out fields keep their
 * value). `keyId` is the writing API key, kept as `updated_by` (the fact's history names it).
 */
function upsertStatement(orgId: string, keyId: string | null, rows: UpsertRow[]) {
  const columns =
    'id uuid, bank_id text, text text, kind text, external_id text, embedding jsonb, embedding_model text, scope text, key text, value text, valid_from timestamptz, valid_to timestamptz';
  const x = jsonRecords<UpsertRecord, 'x'>(rows, 'x', columns);
  const now = raw<string>`now()`;
  return sql
    .insertInto('facts')
    .columns([
      'id',
      'org_id',
      'created_at',
      'updated_at',
      'bank_id',
      'text',
      'kind',
      'external_id',
      'embedding',
      'embedding_model',
      'scope',
      'key',
      'value',
      'valid_from',
      'valid_to',
      'updated_by',
    ])
    .expression(
      sql
        .selectFrom(x)
        .select([
          'x.id',
          raw<string>`${orgId}::uuid`.as('org_id'),
          now.as('created_at'),
          now.as('updated_at'),
          'x.bank_id',
          'x.text',
          'x.kind',
          'x.external_id',
          float8ArrayOfJson(raw.ref('x.embedding')).as('embedding'),
          'x.embedding_model',
          'x.scope',
          'x.key',
          'x.value',
          'x.valid_from',
          'x.valid_to',
          raw<string | null>`${keyId}::uuid`.as('updated_by'),
        ]),
    )
    .onConflict((oc) =>
      oc.columns(['org_id', 'external_id']).doUpdateSet((eb) => ({
        bank_id: eb.ref('excluded.bank_id'),
        text: eb.ref('excluded.text'),
        kind: eb.fn.coalesce('excluded.kind', 'facts.kind'),
        embedding: eb.fn.coalesce('excluded.embedding', 'facts.embedding'),
        // a new vector brings its model, and a vector re-embedding was preparing for the old text is dropped
        embedding_model: raw<
          string | null
        >`case when excluded.embedding is null then facts.embedding_model else excluded.embedding_model end`,
        embedding_next: raw<number[] | null>`case when excluded.embedding is null then facts.embedding_next end`,
        scope: eb.fn.coalesce('excluded.scope', 'facts.scope'),
        key: eb.fn.coalesce('excluded.key', 'facts.key'),
        value: eb.fn.coalesce('excluded.value', 'facts.value'),
        valid_from: eb.fn.coalesce('excluded.valid_from', 'facts.valid_from'),
        valid_to: eb.fn.coalesce('excluded.valid_to', 'facts.valid_to'),
        updated_by: eb.ref('excluded.updated_by'),
        updated_at: now,
      })),
    )
    .returning(['id', 'external_id']);
}

/**
 * Creates facts, or updates the fact with the same `externalId` (a stub created from an episode
 * gets its text). Fields left out of an update keep their value. One set-based statement.
 * Returns the ids in input order.
 */
export async function upsertFacts(
  em: EntityManager,
  embedder: Embedder,
  orgId: string,
  inputs: FactInput[],
  idempotencyKey?: string | null,
  keyId: string | null = null,
): Promise<string[]> {
  const rows = validateUpsert(inputs);
  if (rows.length === 0) return [];
  // the server's vectors are made before the transaction opens (no connection waits on the model),
  // and a failure refuses the whole write
  const vectors = await vectorsFor(
    embedder,
    orgId,
    rows.map((r) => ({ text: r.text, given: r.embedding })),
    'document',
  );
  rows.forEach((r, i) => {
    if (vectors[i].embedding) Object.assign(r, { embedding: vectors[i].embedding, embedding_model: vectors[i].model });
  });
  return idempotent(em, { orgId, key: idempotencyKey, operation: 'upsertFacts', input: inputs }, async (tx) => {
    const embedded = rows.flatMap((r, i) => (r.embedding ? [i] : []));
    const misfits = await checkDimensions(
      tx,
      orgId,
      embedded.map((i) => ({
        field: `inputs.${i}.embedding`,
        length: rows[i].embedding!.length,
        serverMade: vectors[i].model !== CLIENT_MODEL_ID,
      })),
    );
    // a server vector that does not fit the organization's space is left out: the fact is stored as under provider 'none'
    for (const k of misfits) Object.assign(rows[embedded[k]], { embedding: undefined, embedding_model: undefined });
    let written: Row<ReturnType<typeof upsertStatement>>[];
    try {
      // bound, not quoted into the text: the rows' JSON (vectors included) is megabytes for 500 facts
      written = await boundRows(tx, upsertStatement(orgId, keyId, rows));
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict('a mapping with this scope and key already exists in bank mappings', 'inputs');
      if ((e as { code?: string })?.code === '23514') throw badInput('inputs', 'a fact validTo must be after its validFrom');
      throw e;
    }
    const byExternal = new Map(written.filter((w) => w.external_id !== null).map((w) => [w.external_id, w.id]));
    return rows.map((r) => (r.external_id !== null ? byExternal.get(r.external_id)! : r.id));
  });
}

function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; name?: string };
  return err?.code === '23505' || err?.name === 'UniqueConstraintViolationException';
}

/** Facts ranked by how many rejected episodes (accepted = false) used them: the facts most often behind rejected work. */
export async function failedFacts(em: EntityManager, orgId: string, topN: number | null | undefined) {
  const n = limit(topN, 10, 100, 'topN');
  const rejected = sql
    .selectFrom('episode_facts as ef')
    .innerJoin('episodes as e', (j) => j.onRef('e.org_id', '=', 'ef.org_id').onRef('e.id', '=', 'ef.episode_id'))
    .select(['ef.fact_id', raw<number>`count(*)::int`.as('rejected')])
    .where('ef.org_id', '=', orgId)
    .where('e.org_id', '=', orgId)
    .where('e.accepted', '=', false)
    .groupBy('ef.fact_id');
  const rows = await runRows(
    em,
    sql
      .selectFrom(rejected.as('x'))
      .innerJoin('facts as f', (j) => j.on('f.org_id', '=', orgId).onRef('f.id', '=', 'x.fact_id'))
      .select([...FACT_COLUMNS, 'x.rejected'])
      .orderBy('x.rejected', 'desc')
      .orderBy('f.created_at', 'desc')
      .orderBy('f.id', 'desc')
      .limit(n),
  );
  const now = new Date();
  return rows.map((r) => ({ fact: factFromRow(r, now), rejectedEpisodeCount: Number(r.rejected) }));
}
