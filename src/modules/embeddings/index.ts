import type { EmbeddingSettings } from '../../config';
import type { Logger } from '../../core/logger';
import { CachedEmbedder } from './cached-embedder';
import type { Embedder } from './embedder';
import { LocalBackend } from './local';
import { EmbeddingMetrics } from './metrics';
import { noneEmbedder } from './none';
import { OpenAiBackend } from './openai';
import { EmbeddingStatusResolver } from './status.resolver';

export { CLIENT_MODEL_ID, type Embedder } from './embedder';
/** @public the purpose argument of Embedder.embed, for callers that pass it on */
export type { EmbeddingPurpose } from './embedder';
export { LOCAL_MODEL_ID } from './local';
export type { EmbeddingMetrics } from './metrics';

const metricsOf = new WeakMap<Embedder, EmbeddingMetrics>();

/** The embedder of these settings (one per process). The local provider starts its workers, which load the model, now. */
export function createEmbedder(settings: EmbeddingSettings, log: Logger): Embedder {
  const metrics = new EmbeddingMetrics();
  const opts = { timeoutMs: settings.timeoutMs, queue: settings.queue, cacheEntries: settings.cacheEntries };
  let embedder: Embedder;
  switch (settings.provider) {
    case 'none':
      embedder = noneEmbedder();
      break;
    case 'local':
      embedder = new CachedEmbedder(
        new LocalBackend({ workers: settings.workers, batch: settings.localBatch, writeBatch: settings.localWriteBatch }, metrics, log),
        opts,
        metrics,
        log,
      );
      break;
    case 'openai':
      embedder = new CachedEmbedder(new OpenAiBackend(settings, metrics, log), opts, metrics, log);
      break;
  }
  metricsOf.set(embedder, metrics);
  return embedder;
}

/** The embedder's metrics, for a server's /metrics registry. */
export const embeddingMetrics = (embedder: Embedder): EmbeddingMetrics => metricsOf.get(embedder) ?? new EmbeddingMetrics();
export { vectorsFor } from './vectors-for';
export { episodeText, Reembedder } from './reembed';

/** The GraphQL resolvers of the module. */
export const embeddingResolvers = [EmbeddingStatusResolver];
