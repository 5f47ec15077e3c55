import { Arg, Ctx, FieldResolver, ID, Int, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.type';
import { Episode } from '../episodes/episode.type';
import { subListCost, subListLimit } from '../shared/sub-list';
import type { FeedbackType } from './feedback-score';
import { feedbackByEpisode } from './feedback.loaders';
import { Feedback, FeedbackTypeEnum } from './feedback.type';

/** Feedback fields of an episode, batched over all episodes of the request. */
@Resolver(() => Episode)
export class FeedbackEpisodeResolver {
  @FieldResolver(() => [ID], { complexity: subListCost, description: 'Ids of all feedback linked to the episode, oldest first.' })
  async feedbackIds(@Root() ep: Episode, @Ctx() ctx: Context): Promise<string[]> {
    return (await ctx.loaders.getFor(feedbackByEpisode, { types: null, limit: null }).load(ep.id)).map((f) => f.id);
  }

  @FieldResolver(() => [Feedback], { complexity: subListCost, description: 'Feedback linked to the episode, oldest first, optionally of some types.' })
  feedbackContext(
    @Root() ep: Episode,
    @Ctx() ctx: Context,
    @Arg('types', () => [FeedbackTypeEnum], { nullable: true, description: 'Only these kinds.' }) types?: FeedbackType[],
    @Arg('limit', () => Int, { nullable: true, description: 'Keep only the newest this many (1..1,000).' }) limit?: number,
  ): Promise<Feedback[]> {
    return ctx.loaders.getFor(feedbackByEpisode, { types: types?.length ? [...types].sort() : null, limit: subListLimit(limit) }).load(ep.id);
  }
}
