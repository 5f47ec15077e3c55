import type { RecallParams as Params } from '../recall-params';
import { CONTEXT_MATCH_COSINE, decayTowardNeutral } from '../usefulness';
import type { BankVectors } from './bank-vectors';
import { ANGLE_SLACK, bandRange, type Clusters } from './clusters';
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
 * The first pass by clusters, once it has visited `CLUSTER_BUDGET` of the bank, gives way to the
 * whole scan when more than `CLUSTER_SHARE` of the bank is left to visit.
 */
const CLUSTER_BUDGET = 1 / 8;
const CLUSTER_SHARE = 1 / 4;

/**
 * The facts of the bank that may be among the top `limit` of recall, or null when that set is too
 * large to be worth it. Approximate cosines from 8-bit codes carry a proven error bound, so each
 * fact's final score is known to lie in an interval; the `limit`-th largest lower bound among facts
 * sure to pass the filters is a score the answer reaches (a threshold), and every fact whose upper
 * bound is below it cannot be in the answer. PostgreSQL's rows then rank the candidates with the
 * exact formula.
 *
 * A clustered bank (`Clusters`) is visited cluster by cluster, the most promising first: a
 * cluster, and then each of its facts, is skipped when the angular bound of its cosine (with the
 * usefulness bound) is below the threshold; the kernel computes the dot products of the others
 * only. When most of the bank is left to visit (clusters too loose for these bounds), or the bank
 * is not clustered, a first threshold comes from a sample (the first slots: any `limit` real facts
 * give a valid one) and the kernel scans the whole bank, returning only the facts whose upper
 * bound reaches it; the threshold rises as their intervals are computed.
 */
export function candidateIds(bank: BankVectors, q: CandidateQuery): string[] | null {
  const scan = new Scan(bank, q);
  if (bank.clusters && bank.clusters.bands.length > 0) {
    const visited = clusterPass(scan, bank.clusters);
    if (visited === 'too many') return null;
    if (visited === 'done') return scan.ids();
    scan.restart();
  }
  if (scan.threshold === -Infinity) {
    const sample = Math.min(bank.size, Math.max(SAMPLE, bank.size >> 6));
    scan.threshold = scan.thresholdOf(sample);
    if (scan.threshold === -Infinity && sample < bank.size) scan.threshold = scan.thresholdOf(bank.size);
  }
  // the kernel's bound is computed in 32-bit floats: the slack covers their rounding
  const t = scan.threshold;
  const found = bank.store.above(bank.size, scan.qs, scan.qe, scan.w, t === -Infinity ? -Infinity : t - scan.w * USE_SLACK - 1e-5);
  for (let k = 0; k < found.length; k += 2) if (!scan.consider(found[k], found[k + 1])) return null;
  return scan.ids();
}

/**
 * One candidate search: the query's codes, the filters, the threshold (a score the answer reaches)
 * and the facts kept so far.
 */
class Scan {
  readonly qs: number;
  readonly qe: number;
  readonly w: number;
  threshold = -Infinity;
  private readonly allowedKind: Uint8Array | null;
  private readonly allowedStatus: Uint8Array | null;
  private readonly query: { scale: number; err: number };
  private best: LowestOfTop;
  private kept: { slot: number; hi: number }[] = [];

  constructor(
    readonly bank: BankVectors,
    readonly q: CandidateQuery,
  ) {
    this.query = quantize(q.embedding, q.normSq, bank.store.query, 0, bank.pdim);
    this.qs = this.query.scale;
    this.qe = this.query.err;
    this.allowedKind = allowed(bank.kinds, q.kinds);
    this.allowedStatus = allowed(bank.statuses, q.statuses);
    this.w = q.boost ? q.weight : 0;
    this.best = new LowestOfTop(q.limit);
  }

  /** Forgets the facts kept (they will be seen again), keeping the threshold reached. */
  restart(): void {
    this.kept = [];
    this.best = new LowestOfTop(this.q.limit);
  }

  /** Whether the fact passes the filters (live, kind, status, usefulness floor). */
  passes(i: number): boolean {
    const { flags, kind, status, useMax } = this.bank;
    if (flags[i] !== LIVE && (flags[i] !== TIMED || !this.bank.validAt(i, this.q.nowMs))) return false;
    if (this.allowedKind !== null && this.allowedKind[kind[i]] === 0) return false;
    if (this.allowedStatus !== null && this.allowedStatus[status[i]] === 0) return false;
    return useMax[i] + USE_SLACK >= this.q.minUsefulness;
  }

  /** A cheap upper bound of the fact's final score, or -Infinity when a filter leaves it out. */
  upper(i: number, dot: number): number {
    if (!this.passes(i)) return -Infinity;
    const semHi = Math.max(0, dot * this.bank.scale[i] * this.qs + cosineError(this.bank.err[i], this.qe));
    return (1 - this.w) * semHi + this.w * (this.bank.useMax[i] + USE_SLACK);
  }

  interval(slot: number, dot: number): Interval {
    const c = dot * this.bank.scale[slot] * this.qs;
    const d = cosineError(this.bank.err[slot], this.qe);
    const [useLo, useHi] = usefulnessRange(this.bank, slot, this.q, this.query);
    const w = this.w;
    const lo = (1 - w) * Math.max(0, c - d) + w * useLo;
    const hi = (1 - w) * Math.max(0, c + d) + w * useHi;
    return { lo: lo - 1e-9, hi: hi + 1e-9, surely: useLo >= this.q.minUsefulness, maybe: useHi >= this.q.minUsefulness };
  }

  /** Keeps the fact when it may be in the answer, raising the threshold; false past `MAX_CANDIDATES`. */
  consider(slot: number, dot: number): boolean {
    const u = this.upper(slot, dot);
    if (u === -Infinity || u < this.threshold) return true;
    const x = this.interval(slot, dot);
    if (!x.maybe || x.hi < this.threshold) return true;
    this.kept.push({ slot, hi: x.hi });
    if (x.surely && this.best.add(x.lo)) this.threshold = Math.max(this.threshold, this.best.lowest);
    return this.kept.length <= MAX_CANDIDATES;
  }

  ids(): string[] {
    return this.kept.filter((k) => k.hi >= this.threshold).map((k) => this.bank.ids[k.slot]!);
  }

  /** The `limit`-th largest lower bound among the first `n` facts (their dot products from the kernel), with the best upper bounds. */
  thresholdOf(n: number): number {
    const dots = this.bank.store.dots(n);
    const { slots, uppers } = this.bank.scratch();
    let count = 0;
    for (let i = 0; i < n; i++) {
      const u = this.upper(i, dots[i]);
      if (u === -Infinity) continue;
      slots[count] = i;
      uppers[count++] = u;
    }
    for (let take = Math.max(2 * this.q.limit, 16); ; take *= 4) {
      const lows = topByUpper(uppers, count, Math.min(take, count))
        .map((k) => this.interval(slots[k], dots[slots[k]]))
        .filter((x) => x.surely)
        .map((x) => x.lo);
      if (lows.length >= this.q.limit) return lows.sort((a, b) => b - a)[this.q.limit - 1];
      if (take >= count) return -Infinity;
    }
  }
}

/**
 * The first pass over a clustered bank (see `candidateIds`), band by band of the clusters (members
 * grouped by their angle to the leader), the best bound first: 'done' when every band was visited
 * or skipped (its bound below the threshold), 'scan' when most of the bank is left to visit, 'too many' past `MAX_CANDIDATES`.
 */
function clusterPass(scan: Scan, clusters: Clusters): 'done' | 'scan' | 'too many' {
  const { bank, w } = scan;
  const { lo, hi } = leaderAngles(scan, clusters);
  // a band at angles [from, to] from a leader at [lo, hi] from the query is at least d from it
  const bandBound = (c: number, band: number): number => {
    const [from, to] = bandRange(band);
    const d = Math.max(0, lo[c] - to, from - hi[c]);
    return (1 - w) * Math.max(0, Math.cos(d)) + w * (clusters.useMax[c] + USE_SLACK);
  };
  const visits = bandsByBound(clusters, bandBound);
  let visited = 0;
  let checked = false;
  for (let at = 0; at < visits.n; at++) {
    const v = visits.order[at];
    // (the order is by rounded bounds: every band is checked against the threshold, none assumed below it)
    if (visits.bound[v] < scan.threshold) continue;
    if (!checked && visited > bank.size * CLUSTER_BUDGET) {
      // a share of the bank visited: if as much again is left above the threshold, the bounds are too loose here
      checked = true;
      let left = 0;
      for (let rest = at; rest < visits.n; rest++) {
        const r = visits.order[rest];
        if (visits.bound[r] >= scan.threshold) left += clusters.bands[visits.cluster[r]][visits.band[r]].length;
      }
      if (left > bank.size * CLUSTER_SHARE) return 'scan';
    }
    const c = visits.cluster[v];
    const members = clusters.bands[c][visits.band[v]];
    visited += members.length;
    if (!visitBand(scan, clusters, members, lo[c], hi[c])) return 'too many';
  }
  return 'done';
}

/**
 * Every band with members, its cluster, band and bound, and an order of them by bound, best first
 * (sorted as numbers: the bound rounded to 2^-24, then the band's index).
 */
function bandsByBound(clusters: Clusters, bandBound: (c: number, band: number) => number) {
  let n = 0;
  for (const bands of clusters.bands) for (const list of bands) if (list.length > 0) n += 1;
  const cluster = new Int32Array(n);
  const band = new Int32Array(n);
  const bound = new Float64Array(n);
  const keys = new Float64Array(n);
  let v = 0;
  clusters.bands.forEach((bands, c) =>
    bands.forEach((list, b) => {
      if (list.length === 0) return;
      [cluster[v], band[v], bound[v]] = [c, b, bandBound(c, b)];
      // bounds lie within [0, 2): larger first
      keys[v] = Math.round((2 - bound[v]) * 2 ** 24) * 2 ** 20 + v;
      v += 1;
    }),
  );
  keys.sort();
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[k] = keys[k] % 2 ** 20;
  return { n, cluster, band, bound, order };
}

/** Considers the members of one band whose own angular bound reaches the threshold; false past `MAX_CANDIDATES`. */
function visitBand(scan: Scan, clusters: Clusters, members: number[], lo: number, hi: number): boolean {
  const { bank, w } = scan;
  const { slots } = bank.scratch();
  let n = 0;
  for (const m of members) {
    if (!scan.passes(m)) continue;
    const phi = clusters.phi[m];
    // no angle (a vector without a direction): no bound but the usefulness'
    const d = Number.isNaN(phi) ? 0 : Math.max(0, lo - phi, phi - hi);
    if ((1 - w) * Math.max(0, Math.cos(d)) + w * (bank.useMax[m] + USE_SLACK) >= scan.threshold) slots[n++] = m;
  }
  const dots = bank.store.dotsAt(slots, n);
  for (let j = 0; j < n; j++) if (!scan.consider(slots[j], dots[j])) return false;
  return true;
}

/**
 * Per cluster, an interval of the angle between the query and the leader (radians, widened by
 * `ANGLE_SLACK`): from the 8-bit codes with their error bound when the leader's slot still holds
 * it, else from the leader's vector in 64-bit floats.
 */
function leaderAngles(scan: Scan, clusters: Clusters): { lo: Float64Array; hi: Float64Array } {
  const { bank, qs, qe, q } = scan;
  const k = clusters.leaders.length;
  const cos = new Float64Array(k);
  const err = new Float64Array(k).fill(-1);
  const active = clusters.activeLeaders();
  const dots = bank.store.dotsAt(active.slots, active.n);
  for (let a = 0; a < active.n; a++) {
    const slot = active.slots[a];
    cos[active.clusters[a]] = dots[a] * bank.scale[slot] * qs;
    err[active.clusters[a]] = cosineError(bank.err[slot], qe);
  }
  const inv = q.normSq > 0 ? 1 / Math.sqrt(q.normSq) : 0;
  for (let c = 0; c < k; c++) {
    if (err[c] >= 0) continue;
    const leader = clusters.leaders[c];
    let dot = 0;
    for (let j = 0; j < leader.length; j++) dot += q.embedding[j] * inv * leader[j];
    cos[c] = dot;
    err[c] = 1e-9;
  }
  const lo = new Float64Array(k);
  const hi = new Float64Array(k);
  for (let c = 0; c < k; c++) {
    lo[c] = Math.acos(Math.min(1, Math.max(-1, cos[c] + err[c]))) - ANGLE_SLACK;
    hi[c] = Math.acos(Math.min(1, Math.max(-1, cos[c] - err[c]))) + ANGLE_SLACK;
  }
  return { lo, hi };
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
