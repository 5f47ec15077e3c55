import { AppError } from '../../core/errors';
import type { Embedder } from '../embeddings';
import type { RecallParams as Params } from './recall-params';

/**
 * The query's vector: the client's `queryEmbedding` when given, else the server's embedding of the
 * query text (purpose 'query') when an embedder is enabled, else null. An unavailable embedder
 * (EMBEDDINGS_UNAVAILABLE: slow, down, or answering garbage) gives null too, so that recall answers
 * by the words alone and says so (`strategyUsed: LEXICAL`) instead of failing.
 */
export async function queryVector(orgId: string, p: Params, embedder: Embedder | null): Promise<number[] | null> {
  if (p.queryEmbedding) return p.queryEmbedding;
  if (!embedder?.enabled) return null;
  try {
    const [v] = await embedder.embed(orgId, [p.query], 'query');
    return v ?? null;
  } catch (err) {
    if (err instanceof AppError && err.code === 'EMBEDDINGS_UNAVAILABLE') return null;
    throw err;
  }
}
