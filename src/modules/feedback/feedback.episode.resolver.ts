import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, FieldResolver, ID, Info, Int, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.type';
import { Episode } from '../episodes';
import { SUB_LIST_LIMIT_DESCRIPTION, subListCost, subListLimit } from '../shared';
import type { FeedbackType } from './feedback-score';
import { columnsOf, prefetchField, selectedColumns } from '../shared';
import { feedbackByEpisode } from './feedback.loaders';
import { FEEDBACK_FIELD_COLUMNS, FEEDBACK_LIST_ALWAYS } from './feedback.rows';
import { Feedback, FeedbackTypeEnum } from './feedback.type';

/** The loader arguments of `feedbackContext` from its field arguments and the columns its selection reads. */
const contextArgs = (a: Record<string, unknown>, columns: string) => {
  const types = a.types as FeedbackType[] | null | undefined;
  return { types: types?.length ? [...types].sort() : null, limit: subListLimit(a.limit as number | null | undefined), columns };
};
prefetchField('Episode', 'feedbackContext', (ctx, args, selects) =>
  ctx.loaders.getFor(feedbackByEpisode, contextArgs(args, columnsOf(FEEDBACK_FIELD_COLUMNS, FEEDBACK_LIST_ALWAYS, selects))),
);

/** The columns `feedbackIds` reads. */
const ID_COLUMNS = columnsOf(FEEDBACK_FIELD_COLUMNS, FEEDBACK_LIST_ALWAYS, () => false);

/** Feedback fields of an episode, batched over all episodes of the request. */
@Resolver(() => Episode)
export class FeedbackEpisodeResolver {
  @FieldResolver(() => [ID], { complexity: subListCost, description: 'Ids of all feedback linked to the episode, oldest first.' })
  async feedbackIds(
    @Root() ep: Episode,
    @Ctx() ctx: Context,
    @Arg('limit', () => Int, { nullable: true, description: SUB_LIST_LIMIT_DESCRIPTION }) limit?: number,
  ): Promise<string[]> {
    return (await ctx.loaders.getFor(feedbackByEpisode, { types: null, limit: subListLimit(limit), columns: ID_COLUMNS }).load(ep.id)).map(
      (f) => f.id,
    );
  }

  @FieldResolver(() => [Feedback], {
    complexity: subListCost,
    description: 'Feedback linked to the episode, oldest first, optionally of some types.',
  })
  feedbackContext(
    @Root() ep: Episode,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
    @Arg('types', () => [FeedbackTypeEnum], { nullable: true, description: 'Only these kinds.' }) types?: FeedbackType[],
    @Arg('limit', () => Int, { nullable: true, description: SUB_LIST_LIMIT_DESCRIPTION }) limit?: number,
  ): Promise<Feedback[]> {
    const args = contextArgs({ types, limit }, selectedColumns(info, FEEDBACK_FIELD_COLUMNS, FEEDBACK_LIST_ALWAYS));
    return ctx.loaders.getFor(feedbackByEpisode, args).load(ep.id);
  }
}
