// The usefulness formulas (signal weights, decay toward neutral, query-context matching, boosted
// ranking), taken from the reference memory design for usefulness signals, as small pure
// functions. `usefulness.sql.ts` holds the same formulas as SQL; a test checks that both agree.

/** Every fact and query context starts here, and decays back here when left alone. */
export const NEUTRAL = 0.5;
/** A score keeps this share of its distance to 0.5 per week without signals. */
export const WEEKLY_RETENTION = 0.95;
/** A signal moves the score by weight * confidence * STEP. */
export const STEP = 0.1;
/** Query contexts whose query embeddings are at least this similar are the same context. */
export const CONTEXT_MATCH_COSINE = 0.85;

export type SignalKind = 'USED' | 'IGNORED' | 'HELPFUL' | 'NOT_HELPFUL';

/** Signal weights: explicit signals weigh more than implicit ones. */
export const SIGNAL_WEIGHTS: Record<SignalKind, number> = {
  USED: 1.0,
  IGNORED: -0.5,
  HELPFUL: 1.5,
  NOT_HELPFUL: -1.0,
};

/** `weight * confidence * 0.1`: how far one signal moves a score. */
export function signalDelta(kind: SignalKind, confidence = 1): number {
  return SIGNAL_WEIGHTS[kind] * confidence * STEP;
}

/** Clamps to [0, 1]. */
export function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

/** `0.5 + (s - 0.5) * 0.95 ^ (days / 7)`: a score decayed toward 0.5 for `days` without signals. */
export function decayTowardNeutral(score: number, days: number): number {
  return NEUTRAL + (score - NEUTRAL) * Math.pow(WEEKLY_RETENTION, Math.max(0, days) / 7);
}

/** Fractional days from `from` to `to` (0 when there is no `from`). */
function daysBetween(from: Date | null, to: Date): number {
  return from ? (to.getTime() - from.getTime()) / 86_400_000 : 0;
}

/** The stored score as of `now` (no decay before the first signal). */
export function usefulnessAt(score: number, lastSignalAt: Date | null, now: Date = new Date()): number {
  return decayTowardNeutral(score, daysBetween(lastSignalAt, now));
}

/** One signal: decay the stored score for the time since the last signal, add the delta, clamp. */
export function applySignal(score: number, daysSinceLast: number, delta: number): number {
  return clamp01(decayTowardNeutral(score, daysSinceLast) + delta);
}

/** Lower case, punctuation removed, runs of spaces collapsed: questions that match as text. */
export function normalizeQuery(query: string): string {
  return query
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Cosine similarity; 0 when either vector is all zeros. Vectors have the same length. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Semantic score from embeddings: cosine clipped at 0. */
export function semanticFromCosine(c: number): number {
  return Math.max(0, c);
}

/** `(1 - w) * semantic + w * usefulness` when boosting, else the semantic score. */
export function finalScore(semantic: number, usefulness: number, weight: number, boost: boolean): number {
  return boost ? (1 - weight) * semantic + weight * usefulness : semantic;
}

/** Whether a stored query context is the context of a query: cosine >= 0.85 of the query embeddings, else the same normalised text. */
export function contextMatches(
  ctx: { normalizedQuery: string; queryEmbedding: readonly number[] | null },
  q: { normalizedQuery: string; queryEmbedding: readonly number[] | null },
): number | null {
  if (ctx.queryEmbedding && q.queryEmbedding && ctx.queryEmbedding.length === q.queryEmbedding.length) {
    const c = cosine(ctx.queryEmbedding, q.queryEmbedding);
    return c >= CONTEXT_MATCH_COSINE ? c : null;
  }
  return ctx.normalizedQuery === q.normalizedQuery ? 1 : null;
}
