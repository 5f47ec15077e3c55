import { encodeCursor } from '../../core/cursor';

/**
 * Builds a page from `first + 1` rows fetched newest first: the extra row only says that another
 * page follows. `sortValue` gives each row's keyset position.
 */
export function toPage<R extends { id: string }, N>(rows: R[], first: number, sortValue: (r: R) => Date | number, map: (r: R) => N) {
  const page = rows.slice(0, first);
  const edges = page.map((r) => {
    const v = sortValue(r);
    return { cursor: encodeCursor({ sortValue: v instanceof Date ? v.toISOString() : v, id: r.id }), node: map(r) };
  });
  return { edges, pageInfo: { hasNextPage: rows.length > first, endCursor: edges.length ? edges[edges.length - 1].cursor : null } };
}
