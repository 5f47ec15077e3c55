import { type Instant, toDate } from '../../core/instant';

/**
 * Episode decay, the lifecycle's measure of what is worth keeping: exp(-lambda * ageDays), times
 * 0.6 when rejected, times 0.7 when the overall score is below 0.5. `ageDays` is fractional. The
 * SQL twin lives next to the forgetting job.
 */
export function decayScore(
  input: { createdAt: Instant; accepted: boolean | null; overallScore: number | null },
  lambda: number,
  now: Date = new Date(),
): number {
  const ageDays = Math.max(0, (now.getTime() - toDate(input.createdAt).getTime()) / 86_400_000);
  let score = Math.exp(-lambda * ageDays);
  if (input.accepted === false) score *= 0.6;
  if (input.overallScore !== null && input.overallScore < 0.5) score *= 0.7;
  return score;
}
