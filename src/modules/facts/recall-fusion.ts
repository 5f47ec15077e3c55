import { decodeFloat8Array } from './vectors/float8-binary';

/** The lexical score's share in the fused score F (the embedding's is the rest). */
const LEXICAL_SHARE = 0.65;
/** What the best neighbour at distance 1 and at distance 2 adds to a fact's score: HYBRID, and LEXICAL. */
const NEIGHBOURS = { hybrid: [0.6, 0.3], lexical: [0.7, 0.25] } as const;

/** A fact of the window around the candidates, as the window statement returns it. */
export interface WindowRow {
  id: string;
  seq: string | number;
  kind: string | null;
  status: string;
  lexical: number;
  /** among the best lexical candidates */
  in_lex: boolean;
  /** among the facts the semantic list is chosen from (the best `depth` by cosine of them with a vector, passing the filters) */
  in_sem: boolean;
  /** the vector in PostgreSQL's binary array format, only when it may be compared with the query's */
  emb: Buffer | null;
  norm_sq: number | null;
}

/** A fact within 2 places of a candidate, passing the filters, with its scores. */
export interface Pooled {
  id: string;
  seq: number;
  lexical: number;
  cosine: number | null;
  relevance: number;
}

export interface FusionInput {
  /** the query vector (HYBRID) or null (LEXICAL) */
  qe: number[] | null;
  /** its sum of squares, as `cosineWith` divides by it */
  qNormSq: number;
  depth: number;
  kinds: string[] | null;
  statuses: string[] | null;
}

/**
 * The cosine as `cosineWith` computes it in SQL: the dot product summed in array order, divided by
 * the square root of the stored sum of squares times the query's (0 when either is 0).
 */
export function cosineOf(bin: Buffer, normSq: number, qe: readonly number[], qNormSq: number): number {
  if (qNormSq === 0 || Number(normSq) === 0) return 0;
  const v = decodeFloat8Array(bin);
  const n = Math.min(v.length, qe.length);
  let dot = 0;
  for (let i = 0; i < n; i++) dot += v[i] * qe[i];
  return dot / Math.sqrt(Number(normSq) * qNormSq);
}

const byIdThen = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The fusion of docs/algorithms.md ("LEXICAL and HYBRID"), computed here over the rows of the window
 * (every fact within 4 places of a candidate, so the 2 neighbours on each side of a fact within 2 of
 * U are among the rows, consecutive in `seq` order):
 *
 * - U: the lexical candidates, and (HYBRID) the best `depth` by cosine (then id) of the semantic ones;
 * - F: HYBRID `0.65 lexN + 0.35 semN` (min-max over U, clipped to 0..1; a list whose min equals its
 *   max gives 1 to its best; no vector: semN 0), LEXICAL the lexical score over U's best;
 * - S = F + n1 max F(d±1) + n2 max F(d±2), relevance S / (1 + n1 + n2), for the facts within 2
 *   places of U passing the filters.
 */
export function fuse(rows: WindowRow[], q: FusionInput): Pooled[] {
  const w = rows
    .map((r) => ({
      ...r,
      seq: Number(r.seq),
      lexical: Number(r.lexical),
      cosine: q.qe && r.emb ? cosineOf(r.emb, r.norm_sq!, q.qe, q.qNormSq) : null,
      inU: r.in_lex,
      f: 0,
    }))
    .sort((a, b) => a.seq - b.seq);
  const passes = (r: { kind: string | null; status: string }) =>
    (q.kinds === null || (r.kind !== null && q.kinds.includes(r.kind))) && (q.statuses === null || q.statuses.includes(r.status));
  if (q.qe) {
    const sem = w.filter((r) => r.cosine !== null && r.in_sem && passes(r));
    sem.sort((a, b) => b.cosine! - a.cosine! || byIdThen(a, b));
    for (const r of sem.slice(0, q.depth)) r.inU = true;
  }
  let [lmin, lmax, cmin, cmax] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const r of w) {
    if (!r.inU) continue;
    lmin = Math.min(lmin, r.lexical);
    lmax = Math.max(lmax, r.lexical);
    if (r.cosine !== null) {
      cmin = Math.min(cmin, r.cosine);
      cmax = Math.max(cmax, r.cosine);
    }
  }
  const norm = (x: number | null, lo: number, hi: number) => {
    if (x === null || hi === -Infinity) return 0;
    if (hi > lo) return Math.min(1, Math.max(0, (x - lo) / (hi - lo)));
    return x >= hi ? 1 : 0;
  };
  const share = LEXICAL_SHARE;
  for (const r of w)
    r.f = q.qe
      ? share * norm(r.lexical, lmin, lmax) + (1 - share) * norm(r.cosine, cmin, cmax)
      : lmax > 0
        ? Math.min(1, r.lexical / lmax)
        : 0;
  const [n1, n2] = q.qe ? NEIGHBOURS.hybrid : NEIGHBOURS.lexical;
  const fAt = (i: number) => (i >= 0 && i < w.length ? w[i].f : 0);
  const pool: Pooled[] = [];
  for (let i = 0; i < w.length; i++) {
    let near = false;
    for (let k = Math.max(0, i - 2); k <= Math.min(w.length - 1, i + 2) && !near; k++) near = w[k].inU;
    if (!near || !passes(w[i])) continue;
    const s = w[i].f + n1 * Math.max(fAt(i - 1), fAt(i + 1)) + n2 * Math.max(fAt(i - 2), fAt(i + 2));
    pool.push({ id: w[i].id, seq: w[i].seq, lexical: w[i].lexical, cosine: w[i].cosine, relevance: s / (1 + n1 + n2) });
  }
  return pool;
}
