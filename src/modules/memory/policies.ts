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
function greedy(order: ArrayLike<number>, tokens: Float64Array, budget: number, least: number, skipped?: Skipped): number[] {
  const out: number[] = [];
  let used = 0;
  for (let k = 0; k < order.length && used + least <= budget; k++) {
    const i = order[k];
    if (used + tokens[i] <= budget) {
      out.push(i);
      used += tokens[i];
    } else skipped?.(i, budget - used);
  }
  return out;
}

/** Told of each position a zone's walk reached but could not fit, with the tokens the zone had left. */
type Skipped = (position: number, left: number) => void;

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

/** The part of a policy's budget a memory was chosen for. */
export type Zone = 'EARLY' | 'RELEVANT' | 'RECENT';

/** A selection by position: what each zone chose, and the positions kept, oldest first. */
export interface Selection {
  /** positions kept, chronological */
  picked: number[];
  /** each zone's budget and the positions it chose, in the order the policy fills them */
  zones: { zone: Zone; budget: number; chosen: number[] }[];
  /** the relevance of every candidate when the policy ranked by it (a query and a policy other than RECENT) */
  relevance: Float64Array | number[] | null;
}

/**
 * What a policy selects, by position, with each zone's part. `skipped` is told of every candidate a
 * zone reached but could not fit (see `greedy`).
 */
export function selectPositions(
  policy: Policy,
  n: number,
  query: string | null | undefined,
  budget: number,
  prepared: Prepared,
  skipped?: (zone: Zone, position: number, left: number) => void,
): Selection {
  const zones: Selection['zones'] = [];
  let relevance: Selection['relevance'] = null;
  if (n === 0) return { picked: [], zones, relevance };
  const { tokens, least } = prepared;
  const zone = (name: Zone, b: number, order: () => ArrayLike<number>) => {
    const chosen = greedy(order(), tokens, b, least, skipped && ((i, left) => skipped(name, i, left)));
    zones.push({ zone: name, budget: b, chosen });
    return chosen;
  };
  const recent = (b: number) => zone('RECENT', b, () => newestFirst(n));
  const relevant = (b: number) => {
    if (!query) {
      zones.push({ zone: 'RELEVANT', budget: b, chosen: [] });
      return [];
    }
    return zone('RELEVANT', b, () => byScore((relevance ??= prepared.relevance(query))));
  };
  let picked: number[];
  switch (policy) {
    case 'RECENT':
      picked = sorted(recent(budget));
      break;
    case 'RELEVANT':
      picked = sorted(relevant(budget));
      break;
    case 'MIXED': {
      const half = Math.floor(budget * 0.5);
      picked = mergeWithin([relevant(half), recent(half)], tokens, budget, least);
      break;
    }
    case 'FOVEATED':
      picked = mergeWithin(
        [
          zone('EARLY', Math.floor(budget * 0.3), () => [0, 1, 2].slice(0, n)),
          relevant(Math.floor(budget * 0.3)),
          recent(Math.floor(budget * 0.4)),
        ],
        tokens,
        budget,
        least,
      );
      break;
  }
  return { picked, zones, relevance };
}

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
): M[] {
  return selectPositions(policy, candidates.length, query, budget, prepared).picked.map((i) => candidates[i]);
}
