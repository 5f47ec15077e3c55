/** What a text is embedded for: a recall's question, or something stored to be found later. */
export type EmbeddingPurpose = 'query' | 'document';

/** Turns texts into vectors for recall; one instance per process, shared by every organization. */
export interface Embedder {
  /** 'local' | 'openai' | 'none' */
  readonly provider: string;
  /** recorded with every vector, e.g. 'local:use-lite-512' or 'openai:text-embedding-3-small'; null for 'none' */
  readonly modelId: string | null;
  /** the vector size, null until known (openai learns it from the first answer) */
  dimension(): number | null;
  /** false for provider 'none' */
  readonly enabled: boolean;
  /**
   * Embeds texts (one vector per text, same order). orgId scopes the cache (organizations never share an entry).
   * Throws AppError with code 'EMBEDDINGS_UNAVAILABLE' (from src/core/errors.ts) when the provider is slow
   * (past its timeout), down, or answers garbage. Never runs inference on the request loop.
   */
  embed(orgId: string, texts: string[], purpose: EmbeddingPurpose): Promise<number[][]>;
  close(): Promise<void>;
}

/** The model id recorded with vectors a client sent (they are in the client's own space). */
export const CLIENT_MODEL_ID = 'client';
