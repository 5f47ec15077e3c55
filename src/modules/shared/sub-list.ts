import { type RawBuilder, sql } from 'kysely';
import type { ComplexityEstimator } from 'graphql-query-complexity';
import { badInput } from '../../core/errors';
import { LIMITS, listCost } from '../../core/limits';

/** An episode's context sub-list costs what it can return: its `limit` (default 100) times its selection. */
export const subListCost: ComplexityEstimator = listCost(LIMITS.subListDefault);

export const SUB_LIST_LIMIT_DESCRIPTION = `Keep only the newest this many (1..${LIMITS.subListMax.toLocaleString('en-US')}); the newest ${LIMITS.subListDefault} when omitted.`;

/** The `limit` of an episode sub-list: the newest that many (default 100, at most 1,000). */
export function subListLimit(limit: number | null | undefined): number {
  if (limit === null || limit === undefined) return LIMITS.subListDefault;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIMITS.subListMax) throw badInput('limit', `limit must be 1..${LIMITS.subListMax}`);
  return limit;
}

/** `ROW_NUMBER` filter keeping the newest `limit` rows per episode. */
export const newestPerEpisode = (orderDesc: string, limit: number): { select: string; where: string } => ({
  select: `, row_number() OVER (PARTITION BY episode_id ORDER BY ${orderDesc}) AS rn`,
  where: `WHERE rn <= ${limit}`,
});

/**
 * The rank of a row among its episode's rows, newest first by `orderDesc` (an ORDER BY list written in
 * code, never from a request), for a built statement: keep the rows ranked at most the limit.
 */
export const rankInEpisode = (orderDesc: string): RawBuilder<number> =>
  sql<number>`row_number() OVER (PARTITION BY episode_id ORDER BY ${sql.raw(orderDesc)})`;

/**
 * The episodes of a batch bound by `episodeBatch` as rows `p(id)`, for a read of each episode's
 * newest rows (`JOIN LATERAL (... ORDER BY ... LIMIT)`): each episode's rows are read through its
 * index up to the limit, where a rank over every row of the episodes would read, sort and rank
 * them all.
 */
export const episodeRows = (episodes: unknown, one: boolean) =>
  (one ? sql<{ id: string }>`(SELECT ${episodes}::uuid AS id)` : sql<{ id: string }>`(SELECT unnest(${episodes}::uuid[]) AS id)`).as('p');

/**
 * The episodes of one loader batch as a statement binds them: the id itself when the batch holds one
 * (`episode(id)`, a list of one parent), else the array of ids. PostgreSQL estimates an array
 * parameter of unknown length at ten elements, so for a batch of one it judges a generic plan
 * costlier than planning again and re-plans the statement on every run (about three times the
 * database time of the plan it keeps for a single bound id). `one` goes in the statement's shape.
 */
export function episodeBatch(ids: readonly string[]): { one: boolean; episodes: string | readonly string[] } {
  return ids.length === 1 ? { one: true, episodes: ids[0] } : { one: false, episodes: ids };
}

/** The condition on an episode id column for a batch bound by `episodeBatch`: `= $id` or `= any($ids)`. */
export const ofEpisodes = (episodes: unknown, one: boolean): RawBuilder<string> =>
  one ? sql<string>`${episodes}::uuid` : sql<string>`any(${episodes}::uuid[])`;

/** Groups rows by episode id in the order of `ids` (DataLoader contract), empty lists by default. */
export function groupByEpisode<R extends { episode_id: string }, T>(ids: readonly string[], rows: R[], map: (r: R) => T): T[][] {
  const groups = new Map<string, T[]>(ids.map((id) => [id, []]));
  for (const r of rows) groups.get(r.episode_id)?.push(map(r));
  return ids.map((id) => groups.get(id)!);
}

/**
 * The columns of a key made by `columnsOf`, qualified by the alias `x` of a list's lateral read: an
 * outer select that names each column (not `x.*`) lets the statement batch carry the rows as
 * arrays of values.
 */
export const lateralColumns = <C extends string>(key: string) => key.split(',').map((c) => `x.${c}`) as `x.${C}`[];
