import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { keysetPageText } from '../shared/keyset-page';
import { badInput, conflict } from '../../core/errors';
import { idempotent } from '../../core/idempotency';
import { pgArray } from '../../core/sql';
import { limit, text } from '../../core/validate';
import { checkDimensions, factEmbedding } from './embedding-dimension';
import { FACT_COLUMNS, type FactRow, factFromRow } from './fact.rows';
import type { Fact } from './fact.type';
import type { FactFilter, FactInput } from './facts.inputs';

export const MAX_FACT_TEXT_BYTES = 8 * 1024;
export const MAX_UPSERT = 500;
const SHORT = 200;
const LONG = 2000;

/** One fact of the organization, or null (another org's id behaves like a missing one). */
export async function getFact(em: EntityManager, orgId: string, id: string): Promise<Fact | null> {
  const rows = await em.execute<FactRow[]>(`SELECT ${FACT_COLUMNS} FROM facts f WHERE f.org_id = ? AND f.id = ?`, [orgId, id]);
  return rows.length ? factFromRow(rows[0]) : null;
}

/** A keyset page of facts, newest first (`created_at desc, id desc`). */
export async function listFacts(em: EntityManager, orgId: string, filter: FactFilter | null | undefined, first: number | null | undefined, after: string | null | undefined) {
  const where: string[] = ['f.org_id = ?'];
  const params: unknown[] = [orgId];
  const eq = (column: string, field: string, value: string | null | undefined) => {
    if (value === null || value === undefined) return;
    text(`filter.${field}`, value, LONG);
    where.push(`f.${column} = ?`);
    params.push(value);
  };
  eq('bank_id', 'bankId', filter?.bankId);
  eq('kind', 'kind', filter?.kind);
  eq('external_id', 'externalId', filter?.externalId);
  eq('scope', 'scope', filter?.scope);
  if (filter?.statuses?.length) {
    where.push('f.status = ANY(?::text[])');
    params.push(pgArray(filter.statuses));
  }
  const now = new Date();
  return keysetPageText<FactRow, Fact>(em, { columns: FACT_COLUMNS, table: 'facts', alias: 'f', sortColumn: 'created_at', where, params, first, after, toNodes: (rows) => rows.map((r) => factFromRow(r, now)) });
}

interface UpsertRow {
  id: string;
  bank_id: string;
  text: string;
  kind: string | null;
  external_id: string | null;
  embedding?: number[];
  scope: string | null;
  key: string | null;
  value: string | null;
}

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
    };
  });
}

/**
 * Creates facts, or updates the fact with the same `externalId` (a stub created from an episode
 * gets its text). Fields left out of an update keep their value. One set-based statement.
 * Returns the ids in input order.
 */
export async function upsertFacts(em: EntityManager, orgId: string, inputs: FactInput[], idempotencyKey?: string | null): Promise<string[]> {
  const rows = validateUpsert(inputs);
  if (rows.length === 0) return [];
  return idempotent(em, { orgId, key: idempotencyKey, operation: 'upsertFacts', input: inputs }, async (tx) => {
    await checkDimensions(
      tx,
      orgId,
      rows.flatMap((r, i) => (r.embedding ? [{ field: `inputs.${i}.embedding`, length: r.embedding.length }] : [])),
    );
    let written: { id: string; external_id: string | null }[];
    try {
      written = await tx.execute(
        `INSERT INTO facts (id, org_id, created_at, updated_at, bank_id, text, kind, external_id, embedding, scope, key, value)
         SELECT x.id, ?, now(), now(), x.bank_id, x.text, x.kind, x.external_id,
           CASE WHEN jsonb_typeof(x.embedding) = 'array'
             THEN ARRAY(SELECT e::float8 FROM jsonb_array_elements_text(x.embedding) WITH ORDINALITY AS a(e, n) ORDER BY n) END,
           x.scope, x.key, x.value
         FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, bank_id text, text text, kind text, external_id text, embedding jsonb, scope text, key text, value text)
         ON CONFLICT (org_id, external_id) DO UPDATE SET
           bank_id = EXCLUDED.bank_id, text = EXCLUDED.text, kind = coalesce(EXCLUDED.kind, facts.kind),
           embedding = coalesce(EXCLUDED.embedding, facts.embedding), scope = coalesce(EXCLUDED.scope, facts.scope),
           key = coalesce(EXCLUDED.key, facts.key), value = coalesce(EXCLUDED.value, facts.value), updated_at = now()
         RETURNING id, external_id`,
        [orgId, JSON.stringify(rows)],
      );
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict('a mapping with this scope and key already exists in bank mappings', 'inputs');
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
  const rows = await em.execute<(FactRow & { rejected: number })[]>(
    `SELECT ${FACT_COLUMNS}, x.rejected FROM (
       SELECT ef.fact_id, count(*)::int AS rejected
       FROM episode_facts ef JOIN episodes e ON e.org_id = ef.org_id AND e.id = ef.episode_id
       WHERE ef.org_id = ? AND e.org_id = ? AND e.accepted = false
       GROUP BY ef.fact_id) x
     JOIN facts f ON f.org_id = ? AND f.id = x.fact_id
     ORDER BY x.rejected DESC, f.created_at DESC, f.id DESC LIMIT ?`,
    [orgId, orgId, orgId, n],
  );
  const now = new Date();
  return rows.map((r) => ({ fact: factFromRow(r, now), rejectedEpisodeCount: Number(r.rejected) }));
}

