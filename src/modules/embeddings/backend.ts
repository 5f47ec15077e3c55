import type { EmbeddingPurpose } from './embedder';

/** Why an embedding call failed, as counted on /metrics. */
export type FailureReason = 'timeout' | 'busy' | 'endpoint' | 'garbage' | 'worker';

/** A failure of a backend; the embedder turns it into EMBEDDINGS_UNAVAILABLE. Its message never holds a secret. */
export class EmbeddingFailure extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'EmbeddingFailure';
  }
}

/** What makes the vectors: the local worker pool or an OpenAI-compatible endpoint. */
export interface EmbeddingBackend {
  readonly provider: 'local' | 'openai';
  readonly modelId: string;
  dimension(): number | null;
  /** One raw vector per text, in order. `signal` aborts when the call's time is up. */
  embedTexts(texts: string[], purpose: EmbeddingPurpose, signal: AbortSignal): Promise<number[][]>;
  /** local: each inference thread's memory (its JavaScript heap and WebAssembly memory, bytes) */
  memory?(): Promise<{ heap: number; wasm: number; nice: number | null }[]>;
  close(): Promise<void>;
}
