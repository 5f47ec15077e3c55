import { Arg, Ctx, Float, Int, Query, Resolver } from 'type-graphql';
import { listCost } from '../../core/limits';
import type { Context } from '../../graphql/context.type';
import { recallEpisodes } from './recall-episodes.service';
import { RecalledEpisode } from './recall-episodes.type';

@Resolver()
export class RecallEpisodesResolver {
  @Query(() => [RecalledEpisode], {
    complexity: listCost(10),
    description: "Ranks an agent's episodes for a query by relevance, recency, canvas use and feedback.",
  })
  recallEpisodes(
    @Arg('agentId', { description: 'The agent.' }) agentId: string,
    @Arg('query', { description: 'What to recall (1..2,000 characters).' }) query: string,
    @Ctx() ctx: Context,
    @Arg('queryEmbedding', () => [Float], {
      nullable: true,
      description:
        'Embedding of the query, compared with episode embeddings; without it the server embeds the query when it has an embedder.',
    })
    queryEmbedding?: number[],
    @Arg('limit', () => Int, { defaultValue: 10, description: 'At most this many (1..100).' }) limit?: number,
    @Arg('timeRange', () => String, { nullable: true, description: 'Only episodes within this range back from now.' }) timeRange?: string,
  ): Promise<RecalledEpisode[]> {
    return recallEpisodes(
      ctx.em,
      ctx.orgId,
      ctx.services.config.decayLambda,
      {
        agentId,
        query,
        queryEmbedding,
        limit: limit ?? 10,
        timeRange,
      },
      ctx.services.embedder,
    );
  }
}
