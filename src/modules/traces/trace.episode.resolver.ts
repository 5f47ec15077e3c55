import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.type';
import { Episode } from '../episodes';
import { SUB_LIST_LIMIT_DESCRIPTION, subListCost, subListLimit } from '../shared';
import { tracesByEpisode } from './trace.loaders';
import { MemoryTrace } from './trace.type';

/** `Episode.memoryTrace`, batched over all episodes of the request. */
@Resolver(() => Episode)
export class TraceEpisodeResolver {
  @FieldResolver(() => [MemoryTrace], {
    complexity: subListCost,
    description: 'What traced reads (`trace` argument of recall, recallEpisodes and memoryContext) served to this episode, oldest first.',
  })
  memoryTrace(
    @Root() ep: Episode,
    @Ctx() ctx: Context,
    @Arg('limit', () => Int, { nullable: true, description: SUB_LIST_LIMIT_DESCRIPTION }) limit?: number,
  ): Promise<MemoryTrace[]> {
    return ctx.loaders.getFor(tracesByEpisode, { limit: subListLimit(limit) }).load(ep.id);
  }
}
