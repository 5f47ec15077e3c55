import { type Expression, type RawBuilder, sql } from 'kysely';

/**
 * An episode keeps three feedback counters beside its row, moved in the statement that writes,
 * links or deletes its feedback: how many feedback it has, the sum of their scores, and how many
 * of them carry a score. Its aggregate feedback score is the mean of the scored ones, exact at every
 * commit (no float drift from a running mean), and none when nothing was scored. Every statement
 * that moves the counters and every reader of the aggregate takes them from here.
 */

/** The aggregate feedback score from the counters: the mean score, or null when none was scored. */
export function aggregateFeedbackScore(scoreSum: number, scoredCount: number): number | null {
  return scoredCount > 0 ? scoreSum / scoredCount : null;
}

/** The aggregate in SQL over the `episodes` row `alias`: NULL when none was scored. */
export const aggregateFeedbackScoreSql = (alias: string): string =>
  `(CASE WHEN ${alias}.feedback_score_count > 0 THEN ${alias}.feedback_score_sum / ${alias}.feedback_score_count END)`;

/**
 * The SET assignments that add to the counters of the updated episode (SQL expressions, placeholders
 * included; negative ones subtract): `count` feedback, of which `scored` carry a score, summing to `sum`.
 */
export const moveFeedbackCounters = (d: { count: string; sum: string; scored: string }): string =>
  `feedback_count = feedback_count + ${d.count}, feedback_score_sum = feedback_score_sum + ${d.sum}, ` +
  `feedback_score_count = feedback_score_count + ${d.scored}`;

/** The aggregate over the `episodes` row `alias`, as an expression of a built statement. */
export const aggregateFeedbackScoreOf = (alias: string): RawBuilder<number | null> =>
  sql<
    number | null
  >`(CASE WHEN ${sql.ref(`${alias}.feedback_score_count`)} > 0 THEN ${sql.ref(`${alias}.feedback_score_sum`)} / ${sql.ref(`${alias}.feedback_score_count`)} END)`;

/**
 * The assignments (for a built UPDATE of `episodes`) that add to the counters: `count` feedback, of
 * which `scored` carry a score, summing to `sum` (negative ones subtract).
 */
export const feedbackCounterMoves = (d: { count: Expression<number>; sum: Expression<number>; scored: Expression<number> }) => ({
  feedback_count: sql<number>`feedback_count + ${d.count}`,
  feedback_score_sum: sql<number>`feedback_score_sum + ${d.sum}`,
  feedback_score_count: sql<number>`feedback_score_count + ${d.scored}`,
});
