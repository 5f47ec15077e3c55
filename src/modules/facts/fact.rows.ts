import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw, type Selectable } from 'kysely';
import type { FactsTable } from '../../db/tables';
import { rows, sql, type Unqualified } from '../../db/typed-sql';
import type { Fact as FactEntity } from './fact.entity';
import { Fact } from './fact.type';
import { decodeFloat8Array } from './vectors/float8-binary';

/** The columns of `facts` but the embedding (alias `f`), for reads that take it in binary form. */
export const FACT_COLUMNS_BUT_EMBEDDING = [
  'f.id',
  'f.org_id',
  'f.created_at',
  'f.bank_id',
  'f.text',
  'f.kind',
  'f.external_id',
  'f.scope',
  'f.key',
  'f.value',
  'f.status',
  'f.confidence',
  'f.support_count',
  'f.usefulness',
  'f.signal_count',
  'f.last_signal_at',
  'f.last_used_at',
  'f.updated_at',
  'f.superseded_by',
  'f.valid_from',
  'f.valid_to',
] as const;

/** The columns of `facts` every read selects (alias `f`); the row type follows from them. */
export const FACT_COLUMNS = [...FACT_COLUMNS_BUT_EMBEDDING, 'f.embedding'] as const;

export type FactRow = Pick<Selectable<FactsTable>, Unqualified<(typeof FACT_COLUMNS)[number]>>;

const date = (v: Date | string | null): Date | null => (v === null ? null : v instanceof Date ? v : new Date(v));

/** A raw `facts` row as the GraphQL type (usefulness decayed to `now`). */
export function factFromRow(r: FactRow, now: Date = new Date()): Fact {
  const entity = {
    id: r.id,
    orgId: r.org_id,
    createdAt: date(r.created_at)!,
    bankId: r.bank_id,
    text: r.text,
    kind: r.kind,
    externalId: r.external_id,
    scope: r.scope,
    key: r.key,
    value: r.value,
    status: r.status,
    confidence: Number(r.confidence),
    supportCount: Number(r.support_count),
    embedding: r.embedding ? r.embedding.map(Number) : null,
    usefulness: Number(r.usefulness),
    signalCount: Number(r.signal_count),
    lastSignalAt: date(r.last_signal_at),
    lastUsedAt: date(r.last_used_at),
    updatedAt: date(r.updated_at)!,
    supersededBy: r.superseded_by,
    validFrom: date(r.valid_from),
    validTo: date(r.valid_to),
  } as FactEntity;
  return Fact.from(entity, now);
}

/** The facts of these ids in the given order (one statement); missing ids are skipped. */
export async function loadFactsInOrder(em: EntityManager, orgId: string, ids: string[]): Promise<Fact[]> {
  if (ids.length === 0) return [];
  const anyId = raw<string>`any(${ids}::uuid[])`;
  // the vectors in binary form: the text form of 500 vectors of 512 dimensions costs the driver's
  // array parser about 200 MB of short-lived strings, the binary form a buffer per vector
  const query = sql
    .selectFrom('facts as f')
    .select([...FACT_COLUMNS_BUT_EMBEDDING, raw<Buffer | null>`array_send(f.embedding)`.as('embedding_bin')])
    .where('f.org_id', '=', orgId)
    .where('f.id', '=', anyId);
  const found = await rows(em, query);
  const now = new Date();
  const byId = new Map(
    found.map(({ embedding_bin, ...r }) => [
      r.id,
      factFromRow({ ...r, embedding: embedding_bin === null ? null : Array.from(decodeFloat8Array(embedding_bin)) }, now),
    ]),
  );
  return ids.map((id) => byId.get(id)).filter((f): f is Fact => f !== undefined);
}
