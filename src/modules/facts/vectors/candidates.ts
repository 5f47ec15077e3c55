import { CONTEXT_MATCH_COSINE, decayTowardNeutral } from '../usefulness';
import type { BankVectors } from './bank-vectors';
import { LIVE } from './bank-vectors';
import { codeDot, cosineError, quantize } from './kernel';

export interface CandidateQuery {
  embedding: readonly number[];
  /** sum of squares of the embedding, in array order */
  normSq: number;
  normalizedQuery: string;
  limit: number;
  boost: boolean;
  weight: number;
  minUsefulness: number;
  kinds: string[] | null;
  statuses: string[] | null;
  nowMs: number;
}

/**
 * Slack on a decayed usefulness: the database decays to its own clock, which may differ from
 * this process's by minutes (a score moves less than 0.004 a day).
 */
const USE_SLACK = 1e-4;
/** Above this many candidates the bank is ranked by PostgreSQL alone (bounds too loose to help). */
export const MAX_CANDIDATES = 5000;

interface Interval {
  lo: number;
  hi: number;
  /** the fact certainly / possibly passes minUsefulness */
  surely: boolean;
  maybe: boolean;
}

/**
 * The facts of the bank that may be among the top `limit` of recall, or null when that set is too
 * large to be worth it. Approximate cosines from 8-bit codes carry a proven error bound, so each
 * fact's final score is known to lie in an interval; the `limit`-th largest lower bound among facts
 * sure to pass the filters is a score the answer reaches, and every fact whose upper bound is below
 * it cannot be in the answer. PostgreSQL then ranks the candidates with the exact formula.
 */
export function candidateIds(bank: BankVectors, q: CandidateQuery): string[] | null {
  const { pdim } = bank.store;
  const query = quantize(q.embedding, q.normSq, bank.store.query, 0, pdim);
  const dots = bank.store.dots(bank.size);
  const allowedKind = allowed(bank.kinds, q.kinds);
  const allowedStatus = allowed(bank.statuses, q.statuses);
  const w = q.boost ? q.weight : 0;

  const cosine = (slot: number) => dots[slot] * bank.scale[slot] * query.scale;
  const upper = (slot: number) => {
    const semHi = Math.max(0, cosine(slot) + cosineError(bank.err[slot], query.err));
    return q.boost ? (1 - w) * semHi + w * (bank.useMax[slot] + USE_SLACK) : semHi;
  };

  // pass 1: every fact passing the filters, with a cheap upper bound of its final score
  const slots: number[] = [];
  const uppers: number[] = [];
  for (let i = 0; i < bank.size; i++) {
    if (bank.flags[i] !== LIVE) continue;
    if (allowedKind && !allowedKind[bank.kind[i]]) continue;
    if (allowedStatus && !allowedStatus[bank.status[i]]) continue;
    if (q.minUsefulness > 0 && bank.useMax[i] + USE_SLACK < q.minUsefulness) continue;
    slots.push(i);
    uppers.push(upper(i));
  }

  const interval = (slot: number): Interval => {
    const c = cosine(slot);
    const d = cosineError(bank.err[slot], query.err);
    const [useLo, useHi] = usefulnessRange(bank, slot, q, query);
    const semLo = Math.max(0, c - d);
    const semHi = Math.max(0, c + d);
    const lo = q.boost ? (1 - w) * semLo + w * useLo : semLo;
    const hi = q.boost ? (1 - w) * semHi + w * useHi : semHi;
    return { lo: lo - 1e-9, hi: hi + 1e-9, surely: useLo >= q.minUsefulness, maybe: useHi >= q.minUsefulness };
  };

  // pass 2: the score the answer surely reaches, from the facts with the best upper bounds
  let threshold = -Infinity;
  for (let take = Math.max(4 * q.limit, 64); ; take *= 4) {
    const top = topByUpper(uppers, Math.min(take, uppers.length));
    const lows = top.map((k) => interval(slots[k])).filter((x) => x.surely).map((x) => x.lo);
    if (lows.length >= q.limit) {
      lows.sort((a, b) => b - a);
      threshold = lows[q.limit - 1];
      break;
    }
    if (take >= uppers.length) break;
  }

  // pass 3: every fact whose upper bound reaches it
  const out: string[] = [];
  for (let k = 0; k < slots.length; k++) {
    if (uppers[k] < threshold) continue;
    const x = interval(slots[k]);
    if (!x.maybe || x.hi < threshold) continue;
    out.push(bank.ids[slots[k]]!);
    if (out.length > MAX_CANDIDATES) return null;
  }
  return out;
}

/** A lookup of allowed dictionary codes, or null when the filter is absent. */
function allowed(dict: Map<string | null, number> | Map<string, number>, values: string[] | null): Uint8Array | null {
  if (!values) return null;
  const ok = new Uint8Array(dict.size);
  for (const v of values) {
    const c = (dict as Map<string, number>).get(v);
    if (c !== undefined) ok[c] = 1;
  }
  return ok;
}

/** Indexes of the `n` largest values (unordered), by a bounded min-heap. */
function topByUpper(values: number[], n: number): number[] {
  const heap: number[] = [];
  const less = (a: number, b: number) => values[a] < values[b];
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l], heap[m])) m = l;
      if (r < heap.length && less(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (let k = 0; k < values.length; k++) {
    if (heap.length < n) {
      heap.push(k);
      for (let i = heap.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (!less(heap[i], heap[p])) break;
        [heap[i], heap[p]] = [heap[p], heap[i]];
        i = p;
      }
    } else if (n > 0 && values[k] > values[heap[0]]) {
      heap[0] = k;
      down(0);
    }
  }
  return heap;
}

/**
 * The range of the fact's usefulness for this query: the best matching query context's score
 * (similarity at least the match threshold, the most similar first) decayed to now, else the
 * global score. Approximate similarities near the threshold leave several sources possible; the
 * range covers all of them.
 */
function usefulnessRange(
  bank: BankVectors,
  slot: number,
  q: CandidateQuery,
  query: { scale: number; err: number },
): [number, number] {
  const decayed = (u: number, t: number) => (Number.isNaN(t) ? u : decayTowardNeutral(u, (q.nowMs - t) / 86_400_000));
  const possible: { simHi: number; use: number }[] = [];
  let surest = -Infinity;
  for (const c of bank.contexts[slot] ?? []) {
    let simLo: number;
    let simHi: number;
    if (c.codes) {
      const sim = codeDot(c.codes, 0, bank.store.query, 0, bank.pdim) * c.scale * query.scale;
      const d = cosineError(c.err, query.err);
      simLo = sim - d;
      simHi = sim + d;
    } else if (c.normalized === q.normalizedQuery) {
      simLo = simHi = 1;
    } else {
      continue;
    }
    if (simHi < CONTEXT_MATCH_COSINE) continue;
    possible.push({ simHi, use: decayed(c.usefulness, c.lastSignalMs) });
    if (simLo >= CONTEXT_MATCH_COSINE) surest = Math.max(surest, simLo);
  }
  const uses = possible.filter((p) => p.simHi >= surest).map((p) => p.use);
  if (surest === -Infinity) uses.push(decayed(bank.usefulness[slot], bank.lastSignalMs[slot]));
  return [Math.min(...uses) - USE_SLACK, Math.max(...uses) + USE_SLACK];
}
