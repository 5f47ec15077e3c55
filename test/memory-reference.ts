// A line-by-line port of the Python reference FoveatedPolicy, and the other policies as the
// README words them, kept apart from the production code so the two can be compared.
export interface Entry {
  entry_id: string;
  text: string;
  token_estimate: number;
  created_at: number;
}

const pySplitLowerSet = (s: string) =>
  new Set(
    s
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w !== ''),
  );
const pySorted = <T>(xs: T[], key: (x: T) => number, reverse = false) =>
  xs
    .map((x, i) => ({ x, i, k: key(x) }))
    .sort((a, b) => (reverse ? b.k - a.k : a.k - b.k) || a.i - b.i)
    .map((o) => o.x);

function selectEarly(sorted: Entry[], budget: number) {
  const selected: Entry[] = [];
  let used = 0;
  for (const m of sorted.slice(0, 3)) {
    if (used + m.token_estimate <= budget) {
      selected.push(m);
      used += m.token_estimate;
    }
  }
  return selected;
}

function selectRelevant(memories: Entry[], query: string | null, budget: number) {
  if (!query) return [];
  const q = pySplitLowerSet(query);
  const score = (m: Entry) => {
    const t = pySplitLowerSet(m.text);
    const inter = [...q].filter((w) => t.has(w)).length;
    const union = new Set([...q, ...t]).size;
    return union ? inter / union : 0;
  };
  const selected: Entry[] = [];
  let used = 0;
  for (const m of pySorted(memories, score, true)) {
    if (used + m.token_estimate <= budget) {
      selected.push(m);
      used += m.token_estimate;
    }
  }
  return selected;
}

function selectRecent(sorted: Entry[], budget: number) {
  const selected: Entry[] = [];
  let used = 0;
  for (const m of [...sorted].reverse()) {
    if (used + m.token_estimate <= budget) {
      selected.unshift(m);
      used += m.token_estimate;
    }
  }
  return selected;
}

function mergeZones(...zones: Entry[][]) {
  const seen = new Set<string>();
  const merged: Entry[] = [];
  for (const m of zones.flat()) {
    if (!seen.has(m.entry_id)) {
      seen.add(m.entry_id);
      merged.push(m);
    }
  }
  return merged;
}

function finalPass(selected: Entry[], budget: number) {
  const final: Entry[] = [];
  let used = 0;
  for (const m of pySorted(selected, (x) => x.created_at)) {
    if (used + m.token_estimate <= budget) {
      final.push(m);
      used += m.token_estimate;
    }
  }
  return final;
}

export function foveated(memories: Entry[], query: string | null, budget: number): Entry[] {
  if (memories.length === 0) return [];
  const sorted = pySorted(memories, (m) => m.created_at);
  const early = selectEarly(sorted, Math.trunc(budget * 0.3));
  const relevant = selectRelevant(memories, query, Math.trunc(budget * 0.3));
  const recent = selectRecent(sorted, Math.trunc(budget * 0.4));
  return finalPass(mergeZones(early, relevant, recent), budget);
}

export function recentPolicy(memories: Entry[], budget: number) {
  return pySorted(
    selectRecent(
      pySorted(memories, (m) => m.created_at),
      budget,
    ),
    (m) => m.created_at,
  );
}

export function relevantPolicy(memories: Entry[], query: string | null, budget: number) {
  return pySorted(selectRelevant(memories, query, budget), (m) => m.created_at);
}

export function mixedPolicy(memories: Entry[], query: string | null, budget: number) {
  const half = Math.trunc(budget * 0.5);
  return finalPass(
    mergeZones(
      selectRelevant(memories, query, half),
      selectRecent(
        pySorted(memories, (m) => m.created_at),
        half,
      ),
    ),
    budget,
  );
}
