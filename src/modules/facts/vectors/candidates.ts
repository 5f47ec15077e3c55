import type { RecallParams as Params } from '../recall-params';
import { CONTEXT_MATCH_COSINE, decayTowardNeutral } from '../usefulness';
import type { BankVectors } from './bank-vectors';
import { LIVE, TIMED } from './bank-vectors';
import { codeDot, cosineError, quantize } from './kernel';

/** A recall's parameters as the candidate search needs them. */
export type CandidateQuery = Pick<Params, 'limit' | 'boost' | 'weight' | 'minUsefulness' | 'kinds' | 'statuses'> & {
  embedding: readonly number[];
  /** sum of squares of the embedding, in array order */
  normSq: number;
  normalizedQuery: string;
  nowMs: number;
};

/**
 * Slack on a decayed usefulness: the database decays to its own clock, which may differ from
 * this process's by minutes (a score moves less than 0.004 a day).
 */
const USE_SLACK = 1e-4;
/** Above this many candidates the bank is ranked by PostgreSQL alone (bounds too loose to help). */
const MAX_CANDIDATES = 5000;

interface Interval {
  lo: number;
  hi: number;
  /** the fact certainly / possibly passes minUsefulness */
  surely: boolean;
  maybe: boolean;
}

/** At least this many facts (the first slots) give a first threshold before the whole bank is scanned. */
const SAMPLE = 4096;

/**
 * The facts of the bank that may be among the top `limit` of recall, or null when that set is too
 * large to be worth it. Approximate cosines from 8-bit codes carry a proven error bound, so each
 * fact's final score is known to lie in an interval; the `limit`-th largest lower bound among facts
 * sure to pass the filters is a score the answer reaches (a threshold), and every fact whose upper
 * bound is below it cannot be in the answer. PostgreSQL's rows then rank the candidates with the
 * exact formula.
 *
 * A first threshold comes from a sample (the first slots: any `limit` real facts give a valid one).
 * The kernel then scans the whole bank and returns only the facts whose upper bound reaches it; the
 * threshold rises as their intervals are computed.
 */
export function candidateIds(bank: BankVectors, q: CandidateQuery): string[] | null {
  const query = quantize(q.embedding, q.normSq, bank.store.query, 0, bank.pdim);
  const allowedKind = allowed(bank.kinds, q.kinds);
  const allowedStatus = allowed(bank.statuses, q.statuses);
  const w = q.boost ? q.weight : 0;
  const { flags, kind, status, useMax, scale, err } = bank;
  const qs = query.scale;
  const qe = query.err;

  /** A cheap upper bound of the fact's final score, or -Infinity when a filter leaves it out. */
  const upper = (i: number, dot: number): number => {
    if (flags[i] !== LIVE && (flags[i] !== TIMED || !bank.validAt(i, q.nowMs))) return -Infinity;
    if (allowedKind !== null && allowedKind[kind[i]] === 0) return -Infinity;
    if (allowedStatus !== null && allowedStatus[status[i]] === 0) return -Infinity;
    const u = useMax[i] + USE_SLACK;
    if (u < q.minUsefulness) return -Infinity;
    const semHi = Math.max(0, dot * scale[i] * qs + cosineError(err[i], qe));
    return (1 - w) * semHi + w * u;
  };
  const interval = (slot: number, dot: number): Interval => {
    const c = dot * scale[slot] * qs;
    const d = cosineError(err[slot], qe);
    const [useLo, useHi] = usefulnessRange(bank, slot, q, query);
    const lo = (1 - w) * Math.max(0, c - d) + w * useLo;
    const hi = (1 - w) * Math.max(0, c + d) + w * useHi;
    return { lo: lo - 1e-9, hi: hi + 1e-9, surely: useLo >= q.minUsefulness, maybe: useHi >= q.minUsefulness };
  };
  /** The `limit`-th largest lower bound among the first `n` facts (their dot products in `dots`), with the best upper bounds. */
  const thresholdOf = (n: number): number => {
    const dots = bank.store.dots(n);
    const { slots, uppers } = bank.scratch();
    let count = 0;
    for (let i = 0; i < n; i++) {
      const u = upper(i, dots[i]);
      if (u === -Infinity) continue;
      slots[count] = i;
      uppers[count++] = u;
    }
    for (let take = Math.max(2 * q.limit, 16); ; take *= 4) {
      const lows = topByUpper(uppers, count, Math.min(take, count))
        .map((k) => interval(slots[k], dots[slots[k]]))
        .filter((x) => x.surely)
        .map((x) => x.lo);
      if (lows.length >= q.limit) return lows.sort((a, b) => b - a)[q.limit - 1];
      if (take >= count) return -Infinity;
    }
  };

  const sample = Math.min(bank.size, Math.max(SAMPLE, bank.size >> 6));
  let threshold = thresholdOf(sample);
  if (threshold === -Infinity && sample < bank.size) threshold = thresholdOf(bank.size);

  // the kernel's bound is computed in 32-bit floats: the slack covers their rounding
  const found = bank.store.above(bank.size, qs, qe, w, threshold === -Infinity ? -Infinity : threshold - w * USE_SLACK - 1e-5);
  const best = new LowestOfTop(q.limit);
  const kept: { slot: number; hi: number }[] = [];
  for (let k = 0; k < found.length; k += 2) {
    const slot = found[k];
    const dot = found[k + 1];
    const u = upper(slot, dot);
    if (u === -Infinity || u < threshold) continue;
    const x = interval(slot, dot);
    if (!x.maybe || x.hi < threshold) continue;
    kept.push({ slot, hi: x.hi });
    if (x.surely && best.add(x.lo)) threshold = Math.max(threshold, best.lowest);
    if (kept.length > MAX_CANDIDATES) return null;
  }
  return kept.filter((k) => k.hi >= threshold).map((k) => bank.ids[k.slot]!);
}

/** The smallest of the `k` largest numbers added so far (a min-heap of size k). */
class LowestOfTop {
  private readonly heap: number[] = [];

  constructor(private readonly k: number) {}

  get lowest(): number {
    return this.heap.length < this.k ? -Infinity : this.heap[0];
  }

  /** Adds x; true when the lowest of the top k may have risen. */
  add(x: number): boolean {
    const h = this.heap;
    if (h.length < this.k) {
      h.push(x);
      for (let i = h.length - 1; i > 0;) {
        const p = (i - 1) >> 1;
        if (h[p] <= h[i]) break;
        [h[p], h[i]] = [h[i], h[p]];
        i = p;
      }
      return h.length === this.k;
    }
    if (x <= h[0]) return false;
    h[0] = x;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && h[l] < h[m]) m = l;
      if (r < h.length && h[r] < h[m]) m = r;
      if (m === i) return true;
      [h[m], h[i]] = [h[i], h[m]];
      i = m;
    }
  }
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

/** Indexes of the `n` largest of the first `count` values, and of any equal to the smallest of them (unordered). */
function topByUpper(values: Float64Array, count: number, n: number): number[] {
  const top = new LowestOfTop(n);
  for (let k = 0; k < count; k++) top.add(values[k]);
  const out: number[] = [];
  for (let k = 0; k < count; k++) if (values[k] >= top.lowest) out.push(k);
  return out;
}

/**
 * The range of the fact's usefulness for this query: the best matching query context's score
 * (similarity at least the match threshold, the most similar first) decayed to now, else the
 * global score. Approximate similarities near the threshold leave several sources possible; the
 * range covers all of them.
 */
/** Scratch similarities of one fact's contexts (scans run without yielding). */
let [simLo, simHi] = [new Float64Array(8), new Float64Array(8)];

function usefulnessRange(bank: BankVectors, slot: number, q: CandidateQuery, query: { scale: number; err: number }): [number, number] {
  const contexts = bank.contexts[slot];
  const decayed = (u: number, t: number) => (Number.isNaN(t) ? u : decayTowardNeutral(u, (q.nowMs - t) / 86_400_000));
  let lo = Infinity;
  let hi = -Infinity;
  if (contexts) {
    // approximate similarities: a context with simHi below the threshold never matches; the best
    // sure match (simLo at least the threshold) rules out the global score and every context whose
    // simHi is below that simLo
    if (simLo.length < contexts.length) [simLo, simHi] = [new Float64Array(contexts.length), new Float64Array(contexts.length)];
    let surest = -Infinity;
    for (let k = 0; k < contexts.length; k++) {
      const c = contexts[k];
      if (c.codes) {
        const sim = codeDot(c.codes, 0, bank.store.query, 0, bank.pdim) * c.scale * query.scale;
        const d = cosineError(c.err, query.err);
        simLo[k] = sim - d;
        simHi[k] = sim + d;
      } else {
        simLo[k] = simHi[k] = c.normalized === q.normalizedQuery ? 1 : -Infinity;
      }
      if (simLo[k] >= CONTEXT_MATCH_COSINE) surest = Math.max(surest, simLo[k]);
    }
    for (let k = 0; k < contexts.length; k++) {
      if (simHi[k] < CONTEXT_MATCH_COSINE || simHi[k] < surest) continue;
      const use = decayed(contexts[k].usefulness, contexts[k].lastSignalMs);
      lo = Math.min(lo, use);
      hi = Math.max(hi, use);
    }
    if (surest !== -Infinity) return [lo - USE_SLACK, hi + USE_SLACK];
  }
  const global = decayed(bank.usefulness[slot], bank.lastSignalMs[slot]);
  return [Math.min(lo, global) - USE_SLACK, Math.max(hi, global) + USE_SLACK];
}
