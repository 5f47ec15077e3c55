import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray } from '../../core/sql';
import type { Fact as FactEntity } from './fact.entity';
import { Fact } from './fact.type';

/** The columns of `facts` but the embedding (alias `f`), for reads that take it in binary form. */
export const FACT_COLUMNS_BUT_EMBEDDING = `f.id, f.org_id, f.created_at, f.bank_id, f.text, f.kind, f.external_id, f.scope, f.key, f.value,
  f.status, f.confidence, f.support_count, f.usefulness, f.signal_count, f.last_signal_at, f.last_used_at, f.updated_at`;

/** The columns of `facts` every raw query selects (alias `f`). */
export const FACT_COLUMNS = `${FACT_COLUMNS_BUT_EMBEDDING}, f.embedding`;

export interface FactRow {
  id: string;
  org_id: string;
  created_at: Date;
  bank_id: string;
  text: string;
  kind: string | null;
  external_id: string | null;
  scope: string | null;
  key: string | null;
  value: string | null;
  status: string;
  confidence: number;
  support_count: number;
  embedding: number[] | null;
  usefulness: number;
  signal_count: number;
  last_signal_at: Date | null;
  last_used_at: Date | null;
  updated_at: Date;
}

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
  } as FactEntity;
  return Fact.from(entity, now);
}

/** The facts of these ids in the given order (one statement); missing ids are skipped. */
export async function loadFactsInOrder(em: EntityManager, orgId: string, ids: string[]): Promise<Fact[]> {
  if (ids.length === 0) return [];
  const rows = await em.execute<FactRow[]>(`SELECT ${FACT_COLUMNS} FROM facts f WHERE f.org_id = ? AND f.id = ANY(?::uuid[])`, [orgId, pgArray(ids)]);
  const now = new Date();
  const byId = new Map(rows.map((r) => [r.id, factFromRow(r, now)]));
  return ids.map((id) => byId.get(id)).filter((f): f is Fact => f !== undefined);
}
