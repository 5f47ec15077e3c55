export const FEEDBACK_TYPES = ['THUMBS_UP', 'THUMBS_DOWN', 'RATING', 'CORRECTION', 'CONFIRMATION', 'REJECTION', 'JUDGEMENT'] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];

/**
 * The score of one feedback, on the -1..1 scale episodes aggregate: thumbs are +1 / -1, a rating r
 * is (r - 3) / 2; operator events are unscored unless they carry a rating; judgements are never
 * scored.
 */
export function feedbackScore(type: FeedbackType, rating: number | null | undefined): number | null {
  switch (type) {
    case 'THUMBS_UP':
      return 1;
    case 'THUMBS_DOWN':
      return -1;
    case 'JUDGEMENT':
      return null;
    default:
      return rating === null || rating === undefined ? null : (rating - 3) / 2;
  }
}
