import { AppError } from '../../core/errors';
import type { Embedder } from './embedder';

/** Provider 'none': the server makes no vectors; recall uses the vectors clients send. */
export function noneEmbedder(): Embedder {
  return {
    provider: 'none',
    modelId: null,
    enabled: false,
    dimension: () => null,
    embed: () => Promise.reject(new AppError('EMBEDDINGS_UNAVAILABLE', 'embeddings are turned off (EMBEDDINGS_PROVIDER=none)')),
    close: () => Promise.resolve(),
  };
}
