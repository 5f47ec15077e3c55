import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, FieldResolver, Info, Int, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.type';
import { Fact } from '../facts';
import { columnsOf, prefetchField, selectedColumns, SUB_LIST_LIMIT_DESCRIPTION, subListCost, subListLimit } from '../shared';
import { EpisodeOutput, Segment } from './episode-parts.type';
import { Episode } from './episode.type';
import { factsByEpisode, outputsByEpisode, SEGMENT_FIELD_COLUMNS, SEGMENT_LIST_ALWAYS, segmentsByEpisode } from './episodes.loaders';

const limitOf = (args: Record<string, unknown>) => ({ limit: subListLimit(args.limit as number | null | undefined) });
prefetchField('Episode', 'segments', (ctx, args, selects) =>
  ctx.loaders.getFor(segmentsByEpisode, { ...limitOf(args), columns: columnsOf(SEGMENT_FIELD_COLUMNS, SEGMENT_LIST_ALWAYS, selects) }),
);
prefetchField('Episode', 'outputs', (ctx, args) => ctx.loaders.getFor(outputsByEpisode, limitOf(args)));
prefetchField('Episode', 'facts', (ctx, args) => ctx.loaders.getFor(factsByEpisode, limitOf(args)));

/** The episode's own context lists, each batched over all episodes of the request. */
@Resolver(() => Episode)
export class EpisodeContextResolver {
  @FieldResolver(() => [Segment], { complexity: subListCost, description: 'The turns, by seq.' })
  segments(
    @Root() ep: Episode,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
    @Arg('limit', () => Int, { nullable: true, description: SUB_LIST_LIMIT_DESCRIPTION }) limit?: number,
  ): Promise<Segment[]> {
    const columns = selectedColumns(info, SEGMENT_FIELD_COLUMNS, SEGMENT_LIST_ALWAYS);
    return ctx.loaders.getFor(segmentsByEpisode, { ...limitOf({ limit }), columns }).load(ep.id);
  }

  @FieldResolver(() => [EpisodeOutput], { complexity: subListCost, description: 'What the episode produced, oldest first.' })
  outputs(
    @Root() ep: Episode,
    @Ctx() ctx: Context,
    @Arg('limit', () => Int, { nullable: true, description: SUB_LIST_LIMIT_DESCRIPTION }) limit?: number,
  ): Promise<EpisodeOutput[]> {
    return ctx.loaders.getFor(outputsByEpisode, limitOf({ limit })).load(ep.id);
  }

  @FieldResolver(() => [Fact], { complexity: subListCost, description: 'The facts the episode used, in the order they were linked.' })
  facts(
    @Root() ep: Episode,
    @Ctx() ctx: Context,
    @Arg('limit', () => Int, { nullable: true, description: SUB_LIST_LIMIT_DESCRIPTION }) limit?: number,
  ): Promise<Fact[]> {
    return ctx.loaders.getFor(factsByEpisode, limitOf({ limit })).load(ep.id);
  }
}
