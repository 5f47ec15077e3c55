import type { ComplexityEstimator } from 'graphql-query-complexity';

/** Query limits of SPEC 5, the same on HTTP and WebSocket. */
export const LIMITS = {
  depth: 12,
  aliases: 30,
  complexity: 50_000,
  bodyBytes: 1024 * 1024,
  wsMessageBytes: 1024 * 1024,
  subscriptionsPerSocket: 50,
  /** page size assumed for a list field given no `first` / `limit` */
  defaultPage: 20,
  /** what an episode's context sub-list counts for */
  episodeSubList: 10,
} as const;

/**
 * The cost of a list field: its page size (`first`, else `limit`, else `defaultSize`) times the
 * cost of what is selected in each item. Used as `@Field({ complexity: listCost() })`.
 */
export const listCost =
  (defaultSize: number = LIMITS.defaultPage): ComplexityEstimator =>
  ({ args, childComplexity }) => {
    const size = typeof args.first === 'number' ? args.first : typeof args.limit === 'number' ? args.limit : defaultSize;
    return Math.max(1, size) * Math.max(1, childComplexity);
  };

