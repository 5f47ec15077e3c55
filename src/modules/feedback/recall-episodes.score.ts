/**
 * Feedback-weighted episode recall, as the episodic memory's enriched retrieval ranks episodes:
 * finalScore = 0.5 * relevance + 0.5 * recency + canvas boost + feedback boost.
 */
export const RELEVANCE_WEIGHT = 0.5;
export const RECENCY_WEIGHT = 0.5;
export const CANVAS_BOOST = 0.1;
export const POSITIVE_FEEDBACK_BOOST = 0.2;
export const NEGATIVE_FEEDBACK_BOOST = -0.3;

const recency = (ageDays: number, lambda: number): number => Math.exp(-lambda * Math.max(0, ageDays));
const canvasBoost = (canvasActionCount: number): number => (canvasActionCount > 0 ? CANVAS_BOOST : 0);
const feedbackBoost = (aggregate: number | null): number =>
  aggregate === null || aggregate === 0 ? 0 : aggregate > 0 ? POSITIVE_FEEDBACK_BOOST : NEGATIVE_FEEDBACK_BOOST;

export function recallScore(relevance: number, ageDays: number, lambda: number, canvasActionCount: number, aggregate: number | null) {
  const rec = recency(ageDays, lambda);
  const baseScore = RELEVANCE_WEIGHT * relevance + RECENCY_WEIGHT * rec;
  const cb = canvasBoost(canvasActionCount);
  const fb = feedbackBoost(aggregate);
  return { relevance, recency: rec, baseScore, canvasBoost: cb, feedbackBoost: fb, finalScore: baseScore + cb + fb };
}
