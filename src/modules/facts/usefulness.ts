/** Every fact and query context starts here, and decays back here when left alone (seed 004). */
export const NEUTRAL = 0.5;

/** `0.5 + (s - 0.5) * 0.95 ^ (days / 7)`: a score decayed toward 0.5 for `days` without signals. */
export function decayTowardNeutral(score: number, days: number): number {
  return NEUTRAL + (score - NEUTRAL) * Math.pow(0.95, Math.max(0, days) / 7);
}

/** The stored score as of `now` (no decay before the first signal). */
export function usefulnessAt(score: number, lastSignalAt: Date | null, now: Date = new Date()): number {
  if (!lastSignalAt) return score;
  return decayTowardNeutral(score, (now.getTime() - lastSignalAt.getTime()) / 86_400_000);
}
