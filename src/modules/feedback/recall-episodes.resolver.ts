import { Arg, Ctx, Float, Int, Query, Resolver } from 'type-graphql';
import { listCost } from '../../core/limits';
import type { Context } from '../../graphql/context.type';
import { checkTrace, MemoryTraceInput, recordTrace } from '../shared';
import { recallEpisodes } from './recall-episodes.service';
import { RecalledEpisode } from './recall-episodes.type';

@Resolver()
export class RecallEpisodesResolver {
  @Query(() => [RecalledEpisode], {
    complexity: listCost(10),
    description: "Ranks an agent's episodes for a query by relevance, recency, canvas use and feedback.",
  })
  async recallEpisodes(
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
    @Arg('trace', () => MemoryTraceInput, {
      nullable: true,
      description: 'Records the ranked episodes, in order and with their scores, as a memory trace of this episode (one more statement).',
    })
    trace?: MemoryTraceInput | null,
  ): Promise<RecalledEpisode[]> {
    const traced = checkTrace('trace', trace);
    const served = await recallEpisodes(
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
    if (traced)
      await recordTrace(
        ctx.em,
        ctx.orgId,
        'trace',
        traced,
        { operation: 'RECALL_EPISODES', query, queryEmbedding: null, strategy: null, mode: null, budget: limit ?? 10 },
        served.map((r) => ({ episodeId: r.episode.id, relevance: r.relevance, finalScore: r.finalScore })),
      );
    return served;
  }
}
