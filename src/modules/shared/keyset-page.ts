import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { decodeCursor, encodeCursor, pageSize } from '../../core/cursor';
import { timeSortKeyOf } from '../../core/keyset';
import { readRows } from '../../db/typed-sql';

export interface KeysetOptions<R, N> {
  /** the table alias of the statement (`e` for `episodes as e`) */
  alias: string;
  /** the timestamp column pages are ordered by (newest first, then id) */
  sortColumn: string;
  first?: number | null;
  after?: string | null;
  toNodes: (rows: R[]) => N[] | Promise<N[]>;
}

/**
 * One page of a Relay connection by keyset (never OFFSET): `first + 1` rows newest first, the extra
 * one only telling that another page follows. Cursors carry the sort time with microseconds.
 * `query` selects the page's columns with its conditions (already scoped by org_id).
 */
export async function keysetPage<DB, TB extends keyof DB, R extends { id: string }, N>(
  em: EntityManager,
  query: SelectQueryBuilder<DB, TB, R>,
  o: KeysetOptions<R, N>,
) {
  const n = pageSize(o.first);
  const cursor = o.after !== null && o.after !== undefined ? decodeCursor(o.after) : null;
  // the row type of a statement generic in its table is R plus the sort key, which the compiler cannot simplify
  const rows = (await readRows(em, keysetStatement(query, o.alias, o.sortColumn, cursor, n + 1))) as unknown as (R & {
    sort_key: string;
  })[];
  return keysetEdges(rows, n, o.toNodes);
}

/**
 * A page's statement: `query` (its columns and conditions) with the sort key its cursors carry, the
 * rows after `cursor` (none: from the newest), newest first, at most `limit`. The cursor and the
 * limit are bound values (a prepared statement may hand its stand-ins), or the limit a literal
 * written in the text (`sql.lit`).
 */
export function keysetStatement<DB, TB extends keyof DB, R>(
  query: SelectQueryBuilder<DB, TB, R>,
  alias: string,
  sortColumn: string,
  cursor: { sortValue: unknown; id: unknown } | null,
  limit: number | RawBuilder<number>,
) {
  const sort = raw.ref(`${alias}.${sortColumn}`);
  const id = raw.ref(`${alias}.id`);
  let q = query.select(timeSortKeyOf(sort).as('sort_key'));
  if (cursor) q = q.where(raw<boolean>`(${sort}, ${id}) < (${cursor.sortValue}::timestamptz, ${cursor.id}::uuid)`);
  return q.orderBy(sort, 'desc').orderBy(id, 'desc').limit(limit);
}

/**
 * The connection of a keyset page from its rows: up to `first + 1` rows newest first, each with the
 * sort key (`sort_key`) its cursor carries; the extra row only tells that another page follows.
 */
export async function keysetEdges<R extends { id: string; sort_key: string }, N>(
  rows: R[],
  first: number,
  toNodes: (rows: R[]) => N[] | Promise<N[]>,
) {
  const page = rows.slice(0, first);
  const nodes = await toNodes(page);
  const edges = page.map((r, i) => ({ cursor: encodeCursor({ sortValue: r.sort_key, id: r.id }), node: nodes[i] }));
  return { edges, pageInfo: { hasNextPage: rows.length > first, endCursor: edges.length ? edges[edges.length - 1].cursor : null } };
}
