import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors';
import { since } from '../../core/time-range';
import { limit as checkLimit, text } from '../../core/validate';
import { rows } from '../../db/typed-sql';
import { episodeFromRow, type EpisodeRow } from '../episodes';
import { factEmbedding } from '../facts';
import { episodeRanking } from './recall-episodes.sql';
import { RecalledEpisode } from './recall-episodes.type';

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
  const ranked = await rows(
    em,
    episodeRanking(orgId, lambda, { agentId: a.agentId, query: a.query, emb, limit, since: a.timeRange ? since(a.timeRange) : null }),
  );
  const dimension = ranked[0]?.dimension;
  if (emb && dimension != null && Number(dimension) !== emb.length) {
    throw badInput(
      'queryEmbedding',
      `queryEmbedding must have ${dimension} numbers, the dimension of this organization's episode embeddings (got ${emb.length})`,
    );
  }
  // the one row of a ranking that found nothing has no episode
  return ranked
    .filter((r): r is typeof r & EpisodeRow => r.id !== null)
    .map((r) =>
      Object.assign(new RecalledEpisode(), {
        episode: episodeFromRow(r),
        relevance: Number(r.relevance),
        recency: Number(r.recency),
        baseScore: Number(r.base_score),
        canvasBoost: Number(r.canvas_boost),
        feedbackBoost: Number(r.feedback_boost),
        finalScore: Number(r.final_score),
      }),
    );
}
