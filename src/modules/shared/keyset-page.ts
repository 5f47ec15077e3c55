import type { EntityManager } from '@mikro-orm/postgresql';
import { decodeCursor, encodeCursor, pageSize } from '../../core/cursor';
import { timeSortKey } from '../../core/keyset';

export interface KeysetQuery<R, N> {
  /** columns to select, qualified by `alias` */
  columns: string;
  table: string;
  alias: string;
  /** the timestamp column pages are ordered by (newest first, then id) */
  sortColumn: string;
  /** conditions (already scoped by org_id) and their bindings */
  where: string[];
  params: unknown[];
  first?: number | null;
  after?: string | null;
  toNodes: (rows: R[]) => N[] | Promise<N[]>;
}

/**
 * One page of a Relay connection by keyset (never OFFSET): `first + 1` rows newest first, the extra
 * one only telling that another page follows. Cursors carry the sort time with microseconds.
 */
export async function keysetPage<R extends { id: string }, N>(em: EntityManager, q: KeysetQuery<R, N>) {
  const n = pageSize(q.first);
  const where = [...q.where];
  const params = [...q.params];
  const sort = `${q.alias}.${q.sortColumn}`;
  if (q.after !== null && q.after !== undefined) {
    const c = decodeCursor(q.after);
    where.push(`(${sort}, ${q.alias}.id) < (?::timestamptz, ?::uuid)`);
    params.push(c.sortValue, c.id);
  }
  const rows = await em.execute<(R & { sort_key: string })[]>(
    `SELECT ${q.columns}, ${timeSortKey(sort)} AS sort_key FROM ${q.table} ${q.alias}
      WHERE ${where.join(' AND ')} ORDER BY ${sort} DESC, ${q.alias}.id DESC LIMIT ?`,
    [...params, n + 1],
  );
  const page = rows.slice(0, n);
  const nodes = await q.toNodes(page);
  const edges = page.map((r, i) => ({ cursor: encodeCursor({ sortValue: r.sort_key, id: r.id }), node: nodes[i] }));
  return { edges, pageInfo: { hasNextPage: rows.length > n, endCursor: edges.length ? edges[edges.length - 1].cursor : null } };
}
