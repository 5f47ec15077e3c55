import { FeedbackEpisodeResolver } from './feedback.episode.resolver';
import { Feedback as FeedbackEntity } from './feedback.entity';
import { FeedbackResolver } from './feedback.resolver';
import { FeedbackSubscriptionResolver } from './feedback.subscription';
import { RecallEpisodesResolver } from './recall-episodes.resolver';

export const feedbackEntities = [FeedbackEntity];
export const feedbackResolvers = [FeedbackResolver, FeedbackEpisodeResolver, FeedbackSubscriptionResolver, RecallEpisodesResolver];

export { feedbackScore } from './feedback-score';
export {
  FEEDBACK_FIELD_COLUMNS,
  FEEDBACK_LIST_ALWAYS,
  feedbackColumns,
  FEEDBACK_COLUMNS,
  type FeedbackRow,
  feedbackFromRow,
} from './feedback.rows';
export { Feedback } from './feedback.type';
export { publishFeedback, writeFeedback } from './feedback.write';
export { episodeRankingStatement } from './recall-episodes.sql';
