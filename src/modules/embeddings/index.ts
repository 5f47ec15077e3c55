import type { EmbeddingSettings } from '../../config';
import type { Logger } from '../../core/logger';
import type { Embedder } from './embedder';
import { noneEmbedder } from './none';

export { CLIENT_MODEL_ID, type Embedder, type EmbeddingPurpose } from './embedder';

/** The embedder of these settings (one per process). */
export function createEmbedder(settings: EmbeddingSettings, log: Logger): Embedder {
  void log;
  switch (settings.provider) {
    case 'none':
      return noneEmbedder();
    default:
      // the other providers arrive in their own files; until then the server makes no vectors
      return noneEmbedder();
  }
}
