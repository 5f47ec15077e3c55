import type { ComplexityEstimator } from 'graphql-query-complexity';
import { badInput } from '../../core/errors';
import { LIMITS } from '../../core/limits';

/** An episode's context sub-list costs a fixed 10 x its selection (SPEC 5), whatever its `limit`. */
export const subListCost: ComplexityEstimator = ({ childComplexity }) => LIMITS.episodeSubList * Math.max(1, childComplexity);

/** The optional `limit` of an episode sub-list: keeps the newest that many (<= 1,000). */
export function subListLimit(limit: number | null | undefined): number | null {
  if (limit === null || limit === undefined) return null;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw badInput('limit', 'limit must be 1..1000');
  return limit;
}

/** `ROW_NUMBER` filter keeping the newest `limit` rows per episode, or nothing without a limit. */
export const newestPerEpisode = (orderDesc: string, limit: number | null): { select: string; where: string } =>
  limit === null
    ? { select: '', where: '' }
    : { select: `, row_number() OVER (PARTITION BY episode_id ORDER BY ${orderDesc}) AS rn`, where: `WHERE rn <= ${limit}` };

/** Groups rows by episode id in the order of `ids` (DataLoader contract), empty lists by default. */
export function groupByEpisode<R extends { episode_id: string }, T>(ids: readonly string[], rows: R[], map: (r: R) => T): T[][] {
  const groups = new Map<string, T[]>(ids.map((id) => [id, []]));
  for (const r of rows) groups.get(r.episode_id)?.push(map(r));
  return ids.map((id) => groups.get(id)!);
}
