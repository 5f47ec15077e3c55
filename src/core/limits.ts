import type { ComplexityEstimator } from 'graphql-query-complexity';

/** Query limits, the same on HTTP and WebSocket. */
export const LIMITS = {
  depth: 12,
  aliases: 30,
  complexity: 50_000,
  bodyBytes: 1024 * 1024,
  wsMessageBytes: 1024 * 1024,
  subscriptionsPerSocket: 50,
  /** page size assumed for a list field given no `first` / `limit`; also what a list with no size argument and no known maximum counts for */
  defaultPage: 20,
  /** items an episode's context sub-list returns without a `limit` (the newest this many) */
  subListDefault: 100,
  /** the largest `limit` of an episode's context sub-list */
  subListMax: 1000,
  /** lexical tokens of one document (names, punctuation, values); large inputs belong in variables */
  tokens: 10_000,
  /** brackets (`{`, `(`, `[`) open at once anywhere in a document */
  nesting: 64,
} as const;

const charge = (size: number, childComplexity: number) => Math.max(1, size) * Math.max(1, childComplexity);

/** The size argument of a list field, when it has one: `first`, `limit`, `topN` or `input.limit`. */
function sizeArgument(args: Record<string, unknown>): number | undefined {
  const input = args.input as Record<string, unknown> | undefined;
  for (const v of [args.first, args.limit, args.topN, input?.limit]) if (typeof v === 'number') return v;
  return undefined;
}

/**
 * The cost of a list field: its page size (`first`, `limit`, `topN`, `input.limit`, else
 * `defaultSize`) times the cost of what is selected in each item. Used as
 * `@Field({ complexity: listCost() })`.
 */
export const listCost =
  (defaultSize: number = LIMITS.defaultPage): ComplexityEstimator =>
  ({ args, childComplexity }) =>
    charge(sizeArgument(args) ?? defaultSize, childComplexity);

/** The cost of a list without a size argument that never holds more than `max` items. */
export const listOf =
  (max: number): ComplexityEstimator =>
  ({ childComplexity }) =>
    charge(max, childComplexity);

/** The cost of a list as long as an input list argument (`upsertFacts(inputs)` returns one fact per input). */
export const listPerInput =
  (argument: string): ComplexityEstimator =>
  ({ args, childComplexity }) =>
    charge(Array.isArray(args[argument]) ? (args[argument] as unknown[]).length : LIMITS.defaultPage, childComplexity);

/** The `edges` of a connection: the connection field already charged its page size. */
export const chargedByConnection: ComplexityEstimator = ({ childComplexity }) => Math.max(1, childComplexity);
