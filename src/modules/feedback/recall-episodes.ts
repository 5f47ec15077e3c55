import type { EntityManager } from '@mikro-orm/postgresql';
import { Arg, Ctx, Field, Float, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { badInput } from '../../core/errors';
import { listCost } from '../../core/limits';
import { since } from '../../core/time-range';
import { limit as checkLimit, text } from '../../core/validate';
import type { Context } from '../../graphql/context.type';
import { EPISODE_DIMENSION_SQL } from '../episodes/episode-dimension';
import { EPISODE_COLUMNS, episodeFromRow, type EpisodeRow } from '../episodes/episode.rows';
import { factEmbedding } from '../facts/embedding-dimension';
import { sqlCosineWith, sqlSemanticFromCosine } from '../facts/usefulness.sql';
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

type Row = EpisodeRow & { dimension?: number | null; relevance: number; recency: number; canvas_boost: number; feedback_boost: number };

/**
 * The ranking statement: scores of the agent's episodes (only id and time carried through the
 * sort), the best `limit` joined back to their rows. With a query embedding it also reads the
 * dimension of the organization's episode embeddings, and ranks nothing when it differs.
 */
export function episodeRankingStatement(
  orgId: string,
  lambda: number,
  a: { agentId: string; query: string; emb: number[] | null; limit: number; since: Date | null },
): [string, unknown[]] {
  const params: unknown[] = [];
  const text = `greatest(word_similarity(?, coalesce(e.title, '')), word_similarity(?, coalesce(e.task, '')), word_similarity(?, coalesce(e.topic, '')))`;
  const relevance = a.emb
    ? `CASE WHEN e.embedding IS NOT NULL AND cardinality(e.embedding) = ${a.emb.length} THEN ${sqlSemanticFromCosine(sqlCosineWith('e.embedding', 'e.embedding_norm_sq', a.emb))} ELSE ${text} END`
    : text;
  if (a.emb) params.push(orgId);
  params.push(a.query, a.query, a.query, lambda, orgId, a.agentId);
  if (a.since) params.push(a.since.toISOString());
  params.push(orgId);
  const sql = `WITH ${a.emb ? `d AS (SELECT (${EPISODE_DIMENSION_SQL}) AS n),` : ''}
     s AS (
       SELECT e.id, e.created_at, (${relevance})::float8 AS relevance,
              exp(-?::float8 * greatest(0, extract(epoch FROM now() - e.created_at)) / 86400)::float8 AS recency,
              CASE WHEN e.canvas_action_count > 0 THEN ${CANVAS_BOOST} ELSE 0 END::float8 AS canvas_boost,
              CASE WHEN e.feedback_score_count = 0 OR e.feedback_score_sum = 0 THEN 0
                   WHEN e.feedback_score_sum > 0 THEN ${POSITIVE_FEEDBACK_BOOST} ELSE ${NEGATIVE_FEEDBACK_BOOST} END::float8 AS feedback_boost
         FROM episodes e WHERE e.org_id = ? AND e.agent_id = ? ${a.since ? 'AND e.created_at >= ?' : ''}
          ${a.emb ? `AND coalesce((SELECT n FROM d), ${a.emb.length}) = ${a.emb.length}` : ''}),
     t AS (SELECT *, 0.5 * relevance + 0.5 * recency + canvas_boost + feedback_boost AS final_score FROM s
            ORDER BY final_score DESC, created_at DESC, id DESC LIMIT ${a.limit})
     SELECT ${a.emb ? '(SELECT n FROM d) AS dimension' : 'NULL AS dimension'}, t.relevance, t.recency, t.canvas_boost, t.feedback_boost, ${EPISODE_COLUMNS}
       FROM (SELECT 1) one LEFT JOIN (t JOIN episodes e ON e.org_id = ? AND e.id = t.id) ON true
      ORDER BY t.final_score DESC, t.created_at DESC, t.id DESC`;
  return [sql, params];
}

/**
 * Ranks the agent's episodes in PostgreSQL (formulas of recall-episodes.score.ts). A query embedding
 * must have the dimension of the organization's episode embeddings (any while it has none).
 */
export async function recallEpisodes(
  em: EntityManager,
  orgId: string,
  lambda: number,
  a: { agentId: string; query: string; queryEmbedding?: number[] | null; limit: number; timeRange?: string | null },
): Promise<RecalledEpisode[]> {
  text('agentId', a.agentId, 200, { required: true });
  if (text('query', a.query, 2000, { required: true }) === null) throw badInput('query', 'query is required');
  const emb = factEmbedding('queryEmbedding', a.queryEmbedding);
  const limit = checkLimit(a.limit, 10);
  const [sql, params] = episodeRankingStatement(orgId, lambda, { agentId: a.agentId, query: a.query, emb, limit, since: a.timeRange ? since(a.timeRange) : null });
  const rows = await em.execute<Row[]>(sql, params);
  const dimension = rows[0]?.dimension;
  if (emb && dimension != null && Number(dimension) !== emb.length) {
    throw badInput('queryEmbedding', `queryEmbedding must have ${dimension} numbers, the dimension of this organization's episode embeddings (got ${emb.length})`);
  }
  return rows
    .filter((r) => r.id !== null)
    .map((r) => {
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
