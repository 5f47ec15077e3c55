import { EPISODE_DIMENSION_SQL } from '../episodes/episode-dimension';
import { EPISODE_COLUMNS } from '../episodes/episode.rows';
import { sqlCosineWith, sqlSemanticFromCosine } from '../facts/usefulness.sql';
import { CANVAS_BOOST, NEGATIVE_FEEDBACK_BOOST, POSITIVE_FEEDBACK_BOOST, RECENCY_WEIGHT, RELEVANCE_WEIGHT } from './recall-episodes.score';

/**
 * The ranking statement: scores of the agent's episodes (only id and time carried through the
 * sort), the best `limit` joined back to their rows. Every part of the score, and the score,
 * is computed here once (the formulas of recall-episodes.score.ts). With a query embedding it also reads the
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
     b AS (SELECT *, ${RELEVANCE_WEIGHT} * relevance + ${RECENCY_WEIGHT} * recency AS base_score FROM s),
     t AS (SELECT *, base_score + canvas_boost + feedback_boost AS final_score FROM b
            ORDER BY final_score DESC, created_at DESC, id DESC LIMIT ${a.limit})
     SELECT ${a.emb ? '(SELECT n FROM d) AS dimension' : 'NULL AS dimension'}, t.relevance, t.recency, t.base_score, t.canvas_boost, t.feedback_boost, t.final_score,
            ${EPISODE_COLUMNS}
       FROM (SELECT 1) one LEFT JOIN (t JOIN episodes e ON e.org_id = ? AND e.id = t.id) ON true
      ORDER BY t.final_score DESC, t.created_at DESC, t.id DESC`;
  return [sql, params];
}
