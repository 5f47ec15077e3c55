import { words } from '../shared';

/**
 * Token-budgeted memory selection. Candidates arrive in chronological order; every zone is greedy:
 * walk the ranked candidates and take each one that still fits, skipping (not stopping at) one that
 * does not. Zones are lists of candidate positions.
 */
export interface Memory {
  id: string;
  content: string;
  tokenEstimate: number;
}

export const POLICIES = ['RECENT', 'RELEVANT', 'MIXED', 'FOVEATED'] as const;
export type Policy = (typeof POLICIES)[number];

/** The Jaccard overlap of a query with every candidate, in candidate order (see `jaccard`). */
export type Relevance = (query: string) => Float64Array | number[];

/** What the policies need of a candidate list besides the list, computed once for many selections. */
export interface Prepared {
  /** tokens of every candidate, in order */
  tokens: Float64Array;
  /** the fewest tokens of any candidate */
  least: number;
  relevance: Relevance;
}

/** The tokens of every candidate, and the fewest. */
export function tokensOf(candidates: Memory[]): Pick<Prepared, 'tokens' | 'least'> {
  const tokens = Float64Array.from(candidates, (m) => m.tokenEstimate);
  return { tokens, least: tokens.reduce((a, b) => Math.min(a, b), Infinity) };
}

/** Prepares candidates whose words are split on each selection. */
const prepare = (candidates: Memory[]): Prepared => ({ ...tokensOf(candidates), relevance: (query) => splitEach(candidates, query) });

export { words };

/** Jaccard overlap of the words of the query and of the memory. */
export function jaccard(query: Set<string>, text: string): number {
  const t = words(text);
  let inter = 0;
  for (const w of query) if (t.has(w)) inter += 1;
  return overlap(inter, query.size, t.size);
}

/** Jaccard from the intersection and the two set sizes. */
export const overlap = (inter: number, a: number, b: number) => {
  const union = a + b - inter;
  return union === 0 ? 0 : inter / union;
};

function splitEach(candidates: Memory[], query: string): number[] {
  const q = words(query);
  return candidates.map((m) => jaccard(q, m.content));
}

/**
 * Takes each position of `order` whose tokens still fit the budget, skipping (not stopping at) one
 * that does not; done once not even the smallest candidate (`least` tokens) would fit.
 */
function greedy(order: ArrayLike<number>, tokens: Float64Array, budget: number, least: number): number[] {
  const out: number[] = [];
  let used = 0;
  for (let k = 0; k < order.length && used + least <= budget; k++) {
    const i = order[k];
    if (used + tokens[i] <= budget) {
      out.push(i);
      used += tokens[i];
    }
  }
  return out;
}

function newestFirst(n: number): Int32Array {
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[k] = n - 1 - k;
  return order;
}

/** Positions by descending score, ties in chronological order: a counting sort over the distinct scores. */
function byScore(scores: Float64Array | number[]): Int32Array {
  const n = scores.length;
  const distinct = Float64Array.from(new Set(scores)).sort();
  const d = distinct.length;
  // rank 0 for the highest score
  const rank = new Int32Array(n);
  const starts = new Int32Array(d + 1);
  for (let i = 0; i < n; i++) {
    let lo = 0;
    let hi = d - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (distinct[mid] < scores[i]) lo = mid + 1;
      else hi = mid;
    }
    rank[i] = d - 1 - lo;
    starts[rank[i] + 1] += 1;
  }
  for (let r = 0; r < d; r++) starts[r + 1] += starts[r];
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[starts[rank[i]]++] = i;
  return order;
}

/** Zones merged with duplicates dropped, then kept chronologically while within the total budget. */
function mergeWithin(zones: number[][], tokens: Float64Array, budget: number, least: number): number[] {
  const chosen = new Uint8Array(tokens.length);
  for (const zone of zones) for (const i of zone) chosen[i] = 1;
  const chronological: number[] = [];
  for (let i = 0; i < chosen.length; i++) if (chosen[i]) chronological.push(i);
  return greedy(chronological, tokens, budget, least);
}

const sorted = (zone: number[]) => zone.sort((a, b) => a - b);

/**
 * The memories a policy selects, oldest first. Candidates prepared in advance (their words split
 * once) pass what was prepared; by default each is split now.
 */
export function selectMemories<M extends Memory>(
  policy: Policy,
  candidates: M[],
  query: string | null | undefined,
  budget: number,
  prepared: Prepared = prepare(candidates),
  /** filled, when given, with the zone each selected memory came from (EARLY, RELEVANT or RECENT), in the same order */
  zones?: string[],
): M[] {
  const n = candidates.length;
  if (n === 0) return [];
  const { tokens, least, relevance } = prepared;
  const recent = (b: number) => greedy(newestFirst(n), tokens, b, least);
  const relevant = (b: number) => {
    if (!query) return [];
    return greedy(byScore(relevance(query)), tokens, b, least);
  };
  let picked: number[];
  // the zones in merge order: a memory in two zones is counted in the first
  let named: [string, number[]][];
  switch (policy) {
    case 'RECENT':
      picked = sorted(recent(budget));
      named = [['RECENT', picked]];
      break;
    case 'RELEVANT':
      picked = sorted(relevant(budget));
      named = [['RELEVANT', picked]];
      break;
    case 'MIXED': {
      const half = Math.floor(budget * 0.5);
      named = [
        ['RELEVANT', relevant(half)],
        ['RECENT', recent(half)],
      ];
      picked = mergeWithin(
        named.map(([, z]) => z),
        tokens,
        budget,
        least,
      );
      break;
    }
    case 'FOVEATED':
      named = [
        ['EARLY', greedy([0, 1, 2].slice(0, n), tokens, Math.floor(budget * 0.3), least)],
        ['RELEVANT', relevant(Math.floor(budget * 0.3))],
        ['RECENT', recent(Math.floor(budget * 0.4))],
      ];
      picked = mergeWithin(
        named.map(([, z]) => z),
        tokens,
        budget,
        least,
      );
      break;
  }
  if (zones) {
    const zoneOf = new Map<number, string>();
    for (const [name, z] of named) for (const i of z) if (!zoneOf.has(i)) zoneOf.set(i, name);
    zones.push(...picked.map((i) => zoneOf.get(i)!));
  }
  return picked.map((i) => candidates[i]);
}
