import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw, type RawBuilder } from 'kysely';

/**
 * Which facts recall and `facts` see, and as of when. A fact is live at an instant when nothing
 * supersedes it and the instant is within its validity (`validFrom` inclusive, `validTo`
 * exclusive, either open when null). By default the instant is now; `includeSuperseded` sees every
 * fact; `asOf` sees the facts as they were at a past instant (see `factSource`).
 */
export interface FactView {
  includeSuperseded: boolean;
  asOf: Date | null;
}

const instant = (v: FactView) => (v.asOf ? raw`${v.asOf.toISOString()}::timestamptz` : raw`now()`);

/** Whether the row `alias` is live at the view's instant (always true with `includeSuperseded`). */
export function liveIn(alias: string, v: FactView): RawBuilder<boolean> {
  if (v.includeSuperseded) return raw<boolean>`true`;
  const [sup, from, to] = ['superseded_by', 'valid_from', 'valid_to'].map((c) => raw.ref(`${alias}.${c}`));
  const at = instant(v);
  return raw<boolean>`(${sup} IS NULL AND (${from} IS NULL OR ${from} <= ${at}) AND (${to} IS NULL OR ${to} > ${at}))`;
}

/** The columns of the facts table a recall statement reads from its source. */
const COLUMNS = [
  'id',
  'org_id',
  'created_at',
  'bank_id',
  'text',
  'kind',
  'external_id',
  'scope',
  'key',
  'value',
  'status',
  'confidence',
  'support_count',
  'usefulness',
  'signal_count',
  'last_signal_at',
  'last_used_at',
  'updated_at',
  'superseded_by',
  'valid_from',
  'valid_to',
  'embedding',
  'embedding_norm_sq',
  'embedding_model',
  'text_tsv',
  'seq',
] as const;

/** What a version row holds itself; the rest (usefulness, ids, order) stays the fact's. */
const VERSIONED = new Set([
  'bank_id',
  'text',
  'kind',
  'value',
  'status',
  'superseded_by',
  'valid_from',
  'valid_to',
  'embedding',
  'embedding_norm_sq',
  'embedding_model',
  'text_tsv',
  'seq',
]);

/**
 * The relation recall reads facts from: the `facts` table, or as of a past instant T the facts
 * created by T, each as the version current at T (the row itself when its current version began by
 * T, else the one of `fact_versions` that spans T; a version begins after its fact was created),
 * with the fact's own usefulness. Each half reads one table (the fact's other columns come through
 * scalar subqueries), so PostgreSQL flattens the union and takes conditions on it (organization,
 * bank, stems, `seq`, an id) into both halves and their indexes, ordered reads included.
 */
export function factSource(orgId: string, v: FactView): RawBuilder<unknown> {
  if (!v.asOf) return raw`facts`;
  const [current, past] = halves(orgId, v);
  return raw`(SELECT * FROM ${current} n UNION ALL SELECT * FROM ${past} p)`;
}

/** The two halves of `factSource` as of a past instant, each a relation with the columns of COLUMNS. */
function halves(orgId: string, v: FactView): [RawBuilder<unknown>, RawBuilder<unknown>] {
  const at = instant(v);
  const fromVersion = COLUMNS.map((c) =>
    c === 'id'
      ? 'v.fact_id AS id'
      : VERSIONED.has(c) || c === 'org_id'
        ? `v.${c}`
        : `(SELECT c.${c} FROM facts c WHERE c.org_id = v.org_id AND c.id = v.fact_id) AS ${c}`,
  ).join(', ');
  return [
    raw`(SELECT ${raw.raw(COLUMNS.map((c) => `n.${c}`).join(', '))} FROM facts n
          WHERE n.org_id = ${orgId}::uuid AND n.created_at <= ${at} AND coalesce(n.version_at, n.created_at) <= ${at})`,
    raw`(SELECT ${raw.raw(fromVersion)} FROM fact_versions v
          WHERE v.org_id = ${orgId}::uuid AND v.version_from <= ${at} AND v.created_at > ${at})`,
  ];
}

/**
 * `JOIN <source> f` on the fact of id `idRef`: a plain join on `facts`, and as of a past instant a
 * lateral read of that one id (its condition reaches both halves of the union and their indexes,
 * where a join would hash the whole bank).
 */
export function joinFact(orgId: string, v: FactView, idRef: string): RawBuilder<unknown> {
  const id = raw.ref(idRef);
  if (!v.asOf) return raw`JOIN facts f ON f.org_id = ${orgId}::uuid AND f.id = ${id}`;
  return raw`CROSS JOIN LATERAL (SELECT * FROM ${factSource(orgId, v)} s WHERE s.id = ${id} LIMIT 1) f`;
}

/**
 * `SELECT <columns> FROM <source> f WHERE <where> ORDER BY <order> LIMIT <n>` (the columns and order
 * named without alias); as of a past instant the order and limit are applied within each half as
 * well, so each reads only `n` rows in index order.
 */
export function orderedFacts(
  orgId: string,
  v: FactView,
  columns: string,
  where: RawBuilder<boolean>,
  order: string,
  n: number,
): RawBuilder<unknown> {
  const tail = raw.raw(`ORDER BY ${order} LIMIT ${n}`);
  const cols = raw.raw(
    columns
      .split(',')
      .map((c) => `f.${c.trim()}`)
      .join(', '),
  );
  if (!v.asOf) return raw`SELECT ${cols} FROM facts f WHERE ${where} ${tail}`;
  const [current, past] = halves(orgId, v);
  return raw`SELECT * FROM ((SELECT ${cols} FROM ${current} f WHERE ${where} ${tail})
      UNION ALL (SELECT ${cols} FROM ${past} f WHERE ${where} ${tail})) f ${tail}`;
}

/**
 * Runs `read` in a transaction without PostgreSQL's JIT compilation. The as-of statement's estimated
 * cost crosses `jit_above_cost` (the union's halves are costed apart) while it runs in tens of
 * milliseconds: compiling it took about a second, measured.
 */
export async function withoutJit<T>(em: EntityManager, read: (tx: EntityManager) => Promise<T>): Promise<T> {
  return em.transactional(async (tx) => {
    await tx.execute('SET LOCAL jit = off');
    return read(tx);
  });
}
