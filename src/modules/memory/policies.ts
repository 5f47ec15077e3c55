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
export type Relevance = (query: string) => ArrayLike<number>;

/** Python's `set(s.lower().split())`. */
export const words = (s: string) => new Set(s.toLowerCase().split(/\s+/).filter(Boolean));

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

function greedy(ranked: Iterable<number>, tokens: (i: number) => number, budget: number): number[] {
  const out: number[] = [];
  let used = 0;
  for (const i of ranked) {
    const t = tokens(i);
    if (used + t <= budget) {
      out.push(i);
      used += t;
    }
  }
  return out;
}

function* newestFirst(n: number) {
  for (let i = n - 1; i >= 0; i--) yield i;
}

/** Positions by descending score, ties in chronological order (a stable sort, by buckets of equal scores). */
function byScore(scores: ArrayLike<number>): number[] {
  const buckets = new Map<number, number[]>();
  for (let i = 0; i < scores.length; i++) {
    const b = buckets.get(scores[i]);
    if (b) b.push(i);
    else buckets.set(scores[i], [i]);
  }
  return [...buckets.keys()].sort((a, b) => b - a).flatMap((s) => buckets.get(s)!);
}

/** Zones merged with duplicates dropped, then kept chronologically while within the total budget. */
function mergeWithin(n: number, zones: number[][], tokens: (i: number) => number, budget: number): number[] {
  const chosen = new Uint8Array(n);
  for (const zone of zones) for (const i of zone) chosen[i] = 1;
  return greedy(chronological(chosen), tokens, budget);
}

function* chronological(chosen: Uint8Array) {
  for (let i = 0; i < chosen.length; i++) if (chosen[i]) yield i;
}

const sorted = (zone: number[]) => [...zone].sort((a, b) => a - b);

/**
 * The memories a policy selects, oldest first. `relevance` scores the candidates for a query
 * (candidates whose words were split in advance pass their own; by default each is split now).
 */
export function selectMemories<M extends Memory>(policy: Policy, candidates: M[], query: string | null | undefined, budget: number, relevance?: Relevance): M[] {
  const n = candidates.length;
  if (n === 0) return [];
  const tokens = (i: number) => candidates[i].tokenEstimate;
  const recent = (b: number) => greedy(newestFirst(n), tokens, b);
  const relevant = (b: number) => {
    if (!query) return [];
    const scores = relevance ? relevance(query) : splitEach(candidates, query);
    return greedy(byScore(scores), tokens, b);
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
      picked = mergeWithin(n, [relevant(half), recent(half)], tokens, budget);
      break;
    }
    case 'FOVEATED':
      picked = mergeWithin(
        n,
        [greedy([0, 1, 2].filter((i) => i < n), tokens, Math.floor(budget * 0.3)), relevant(Math.floor(budget * 0.3)), recent(Math.floor(budget * 0.4))],
        tokens,
        budget,
      );
      break;
  }
  return picked.map((i) => candidates[i]);
}
