/**
 * Token-budgeted memory selection (SPEC 4.8, seed 003). Candidates arrive in chronological order;
 * every zone is greedy: walk the ranked candidates and take each one that still fits, skipping
 * (not stopping at) one that does not.
 */
export interface Memory {
  id: string;
  content: string;
  tokenEstimate: number;
}

export const POLICIES = ['RECENT', 'RELEVANT', 'MIXED', 'FOVEATED'] as const;
export type Policy = (typeof POLICIES)[number];

function greedy<M extends Memory>(ranked: M[], budget: number): M[] {
  const out: M[] = [];
  let used = 0;
  for (const m of ranked) {
    if (used + m.tokenEstimate <= budget) {
      out.push(m);
      used += m.tokenEstimate;
    }
  }
  return out;
}

/** Python's `set(s.lower().split())`. */
const words = (s: string) => new Set(s.toLowerCase().split(/\s+/).filter(Boolean));

/** Jaccard overlap of the words of the query and of the memory. */
export function jaccard(query: Set<string>, text: string): number {
  const t = words(text);
  let inter = 0;
  for (const w of query) if (t.has(w)) inter += 1;
  const union = query.size + t.size - inter;
  return union === 0 ? 0 : inter / union;
}

/** Chronological order of the selected memories (candidates are chronological). */
function chronological<M extends Memory>(all: M[], chosen: M[]): M[] {
  const ids = new Set(chosen.map((m) => m.id));
  return all.filter((m) => ids.has(m.id));
}

const early = <M extends Memory>(all: M[], budget: number) => greedy(all.slice(0, 3), budget);
const recent = <M extends Memory>(all: M[], budget: number) => greedy([...all].reverse(), budget);
function relevant<M extends Memory>(all: M[], query: string | null | undefined, budget: number): M[] {
  if (!query) return [];
  const q = words(query);
  // a stable sort: ties keep chronological order
  const ranked = all.map((m, i) => ({ m, i, s: jaccard(q, m.content) })).sort((a, b) => b.s - a.s || a.i - b.i).map((x) => x.m);
  return greedy(ranked, budget);
}

/** Zones merged in order with duplicates dropped, then kept chronologically while within the total budget. */
function mergeWithin<M extends Memory>(all: M[], zones: M[][], budget: number): M[] {
  const seen = new Set<string>();
  const merged: M[] = [];
  for (const m of zones.flat()) {
    if (!seen.has(m.id)) {
      seen.add(m.id);
      merged.push(m);
    }
  }
  return greedy(chronological(all, merged), budget);
}

export function selectMemories<M extends Memory>(policy: Policy, candidates: M[], query: string | null | undefined, budget: number): M[] {
  if (candidates.length === 0) return [];
  switch (policy) {
    case 'RECENT':
      return chronological(candidates, recent(candidates, budget));
    case 'RELEVANT':
      return chronological(candidates, relevant(candidates, query, budget));
    case 'MIXED': {
      const half = Math.floor(budget * 0.5);
      return mergeWithin(candidates, [relevant(candidates, query, half), recent(candidates, half)], budget);
    }
    case 'FOVEATED':
      return mergeWithin(
        candidates,
        [early(candidates, Math.floor(budget * 0.3)), relevant(candidates, query, Math.floor(budget * 0.3)), recent(candidates, Math.floor(budget * 0.4))],
        budget,
      );
  }
}
