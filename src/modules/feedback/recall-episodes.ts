import type { EntityManager } from '@mikro-orm/postgresql';
import { Arg, Ctx, Field, Float, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { badInput } from '../../core/errors';
import { listCost } from '../../core/limits';
import { since } from '../../core/time-range';
import { embedding as checkEmbedding, limit as checkLimit, text } from '../../core/validate';
import type { Context } from '../../graphql/context.type';
import { EPISODE_COLUMNS, episodeFromRow, type EpisodeRow } from '../episodes/episode.rows';
import { Episode } from '../episodes/episode.type';
import { CANVAS_BOOST, NEGATIVE_FEEDBACK_BOOST, POSITIVE_FEEDBACK_BOOST } from './recall-episodes.score';

@ObjectType({ simpleResolvers: true, description: 'An episode recalled for a query, with the parts of its score.' })
export class RecalledEpisode {
  @Field(() => Episode, { description: 'The episode (enrichable like any episode).' })
  episode!: Episode;

  @Field(() => Float, { description: 'Cosine with the episode embedding (clipped at 0) when both exist, else the best pg_trgm word similarity of the query to title, task and topic.' })
  relevance!: number;

  @Field(() => Float, { description: 'exp(-DECAY_LAMBDA * age in days).' })
  recency!: number;

  @Field(() => Float, { description: '0.5 * relevance + 0.5 * recency.' })
  baseScore!: number;

  @Field(() => Float, { description: '+0.1 when the episode has canvas actions.' })
  canvasBoost!: number;

  @Field(() => Float, { description: '+0.2 when its aggregate feedback is positive, -0.3 when negative.' })
  feedbackBoost!: number;

  @Field(() => Float, { description: 'baseScore + canvasBoost + feedbackBoost; results are ordered by it.' })
  finalScore!: number;
}

type Row = EpisodeRow & { relevance: number; recency: number; canvas_boost: number; feedback_boost: number };

/** Ranks the agent's episodes in PostgreSQL (formulas of recall-episodes.score.ts). */
export async function recallEpisodes(
  em: EntityManager,
  orgId: string,
  lambda: number,
  a: { agentId: string; query: string; queryEmbedding?: number[] | null; limit: number; timeRange?: string | null },
): Promise<RecalledEpisode[]> {
  text('agentId', a.agentId, 200, { required: true });
  if (text('query', a.query, 2000, { required: true }) === null) throw badInput('query', 'query is required');
  const emb = checkEmbedding('queryEmbedding', a.queryEmbedding);
  const n = checkLimit(a.limit, 10);
  const params: unknown[] = [];
  const embLiteral = emb ? `{${emb.join(',')}}` : null;
  const relevance = `CASE WHEN ?::float8[] IS NOT NULL AND e.embedding IS NOT NULL AND cardinality(e.embedding) = cardinality(?::float8[]) THEN
      greatest(0, coalesce((SELECT sum(x * y) / nullif(sqrt(sum(x * x)) * sqrt(sum(y * y)), 0) FROM unnest(e.embedding, ?::float8[]) AS t(x, y)), 0))
    ELSE greatest(word_similarity(?, coalesce(e.title, '')), word_similarity(?, coalesce(e.task, '')), word_similarity(?, coalesce(e.topic, ''))) END`;
  params.push(embLiteral, embLiteral, embLiteral, a.query, a.query, a.query, lambda, orgId, a.agentId);
  let range = '';
  if (a.timeRange) {
    range = 'AND e.created_at >= ?';
    params.push(since(a.timeRange).toISOString());
  }
  const rows = await em.execute<Row[]>(
    `SELECT *, 0.5 * relevance + 0.5 * recency + canvas_boost + feedback_boost AS final_score FROM (
       SELECT ${EPISODE_COLUMNS}, (${relevance})::float8 AS relevance,
              exp(-?::float8 * greatest(0, extract(epoch FROM now() - e.created_at)) / 86400)::float8 AS recency,
              CASE WHEN e.canvas_action_count > 0 THEN ${CANVAS_BOOST} ELSE 0 END::float8 AS canvas_boost,
              CASE WHEN e.feedback_score_count = 0 OR e.feedback_score_sum = 0 THEN 0
                   WHEN e.feedback_score_sum > 0 THEN ${POSITIVE_FEEDBACK_BOOST} ELSE ${NEGATIVE_FEEDBACK_BOOST} END::float8 AS feedback_boost
         FROM episodes e WHERE e.org_id = ? AND e.agent_id = ? ${range}) s
     ORDER BY final_score DESC, created_at DESC, id DESC LIMIT ${n}`,
    params,
  );
  return rows.map((r) => {
    const baseScore = 0.5 * Number(r.relevance) + 0.5 * Number(r.recency);
    return Object.assign(new RecalledEpisode(), {
      episode: episodeFromRow(r),
      relevance: Number(r.relevance),
      recency: Number(r.recency),
      baseScore,
      canvasBoost: Number(r.canvas_boost),
      feedbackBoost: Number(r.feedback_boost),
      finalScore: baseScore + Number(r.canvas_boost) + Number(r.feedback_boost),
    });
  });
}

@Resolver()
export class RecallEpisodesResolver {
  @Query(() => [RecalledEpisode], { complexity: listCost(10), description: "Ranks an agent's episodes for a query by relevance, recency, canvas use and feedback." })
  recallEpisodes(
    @Arg('agentId', { description: 'The agent.' }) agentId: string,
    @Arg('query', { description: 'What to recall (1..2,000 characters).' }) query: string,
    @Ctx() ctx: Context,
    @Arg('queryEmbedding', () => [Float], { nullable: true, description: 'Embedding of the query, compared with episode embeddings.' }) queryEmbedding?: number[],
    @Arg('limit', () => Int, { defaultValue: 10, description: 'At most this many (1..100).' }) limit?: number,
    @Arg('timeRange', () => String, { nullable: true, description: 'Only episodes within this range back from now.' }) timeRange?: string,
  ): Promise<RecalledEpisode[]> {
    return recallEpisodes(ctx.em, ctx.orgId, ctx.services.config.decayLambda, { agentId, query, queryEmbedding, limit: limit ?? 10, timeRange });
  }
}
