import { FeedbackEpisodeResolver } from './feedback.episode.resolver';
import { Feedback } from './feedback.entity';
import { FeedbackResolver } from './feedback.resolver';
import { FeedbackSubscriptionResolver } from './feedback.subscription';
import { RecallEpisodesResolver } from './recall-episodes.resolver';

export const feedbackEntities: Function[] = [Feedback];
export const feedbackResolvers: Function[] = [FeedbackResolver, FeedbackEpisodeResolver, FeedbackSubscriptionResolver, RecallEpisodesResolver];
