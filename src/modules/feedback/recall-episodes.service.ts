import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, badInput } from '../../core/errors';
import type { Embedder } from '../embeddings';
import { since } from '../../core/time-range';
import { limit as checkLimit, text } from '../../core/validate';
import { rows } from '../../db/typed-sql';
import { episodeFromRow, type EpisodeRow } from '../episodes';
import { factEmbedding } from '../facts';
import { episodeRanking } from './recall-episodes.sql';
import { RecalledEpisode } from './recall-episodes.type';

/** The server's vector of the query, or null without an enabled embedder or when it is unavailable (relevance by words then). */
async function serverVector(orgId: string, query: string, embedder: Embedder | null): Promise<number[] | null> {
  if (!embedder?.enabled) return null;
  try {
    return (await embedder.embed(orgId, [query], 'query'))[0] ?? null;
  } catch (err) {
    if (err instanceof AppError && err.code === 'EMBEDDINGS_UNAVAILABLE') return null;
    throw err;
  }
}

/**
 * Ranks the agent's episodes in PostgreSQL (formulas of recall-episodes.score.ts). A query embedding
 * must have the dimension of the organization's episode embeddings (any while it has none). Without
 * one, the server embeds the query when it can; a vector of the server's of another dimension than
 * the organization's episodes is dropped (relevance by words).
 */
export async function recallEpisodes(
  em: EntityManager,
  orgId: string,
  lambda: number,
  a: { agentId: string; query: string; queryEmbedding?: number[] | null; limit: number; timeRange?: string | null },
  embedder: Embedder | null = null,
): Promise<RecalledEpisode[]> {
  text('agentId', a.agentId, 200, { required: true });
  if (text('query', a.query, 2000, { required: true }) === null) throw badInput('query', 'query is required');
  const client = factEmbedding('queryEmbedding', a.queryEmbedding);
  let emb = client ?? (await serverVector(orgId, a.query, embedder));
  const limit = checkLimit(a.limit, 10);
  const rank = () =>
    rows(
      em,
      episodeRanking(orgId, lambda, { agentId: a.agentId, query: a.query, emb, limit, since: a.timeRange ? since(a.timeRange) : null }),
    );
  let ranked = await rank();
  const dimension = ranked[0]?.dimension;
  if (!client && emb && dimension != null && Number(dimension) !== emb.length) {
    emb = null;
    ranked = await rank();
  }
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
