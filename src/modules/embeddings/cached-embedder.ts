import { AppError } from '../../core/errors';
import type { Logger } from '../../core/logger';
import { type EmbeddingBackend, EmbeddingFailure } from './backend';
import type { Embedder, EmbeddingPurpose } from './embedder';
import { Lru } from './lru';
import type { EmbeddingMetrics } from './metrics';

export interface CachedEmbedderOptions {
  timeoutMs: number;
  /** texts being embedded at once over all callers, beyond which calls are refused (busy) */
  queue: number;
  cacheEntries: number;
}

/** Scales a vector to length 1 (recall's cosines then compare directions only). */
function l2Normalize(v: ArrayLike<number>): number[] {
  let sq = 0;
  for (let i = 0; i < v.length; i++) sq += v[i] * v[i];
  const norm = Math.sqrt(sq);
  const out = new Array<number>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = norm > 0 ? v[i] / norm : 0;
  return out;
}

/**
 * The server's embedder around a backend: answers repeated texts from an LRU cache keyed by
 * (organization, model, purpose, text), bounds the texts in flight, gives every call one time
 * budget, L2-normalises, and turns every failure into EMBEDDINGS_UNAVAILABLE.
 */
export class CachedEmbedder implements Embedder {
  readonly enabled = true;
  private readonly cache: Lru<number[]>;
  private inFlight = 0;

  constructor(
    private readonly backend: EmbeddingBackend,
    private readonly opts: CachedEmbedderOptions,
    readonly metrics: EmbeddingMetrics,
    private readonly log: Logger,
  ) {
    this.cache = new Lru(opts.cacheEntries);
  }

  get provider(): string {
    return this.backend.provider;
  }

  get modelId(): string {
    return this.backend.modelId;
  }

  dimension(): number | null {
    return this.backend.dimension();
  }

  async embed(orgId: string, texts: string[], purpose: EmbeddingPurpose): Promise<number[][]> {
    const started = performance.now();
    try {
      const out = await this.embedCached(orgId, texts, purpose);
      this.metrics.calls.inc({ provider: this.provider, outcome: 'ok' });
      return out;
    } catch (err) {
      this.metrics.calls.inc({ provider: this.provider, outcome: 'unavailable' });
      const failure = err instanceof EmbeddingFailure ? err : new EmbeddingFailure('worker', 'the embedding model failed');
      this.metrics.failures.inc({ reason: failure.reason });
      this.log.warn({ provider: this.provider, reason: failure.reason, texts: texts.length, detail: failure.message }, 'embedding failed');
      throw new AppError('EMBEDDINGS_UNAVAILABLE', `embeddings are unavailable: ${failure.message}`);
    } finally {
      this.metrics.latency.observe((performance.now() - started) / 1000);
    }
  }

  private async embedCached(orgId: string, texts: string[], purpose: EmbeddingPurpose): Promise<number[][]> {
    const keyOf = (t: string) => `${orgId}\u0000${this.modelId}\u0000${purpose}\u0000${t}`;
    const out: (number[] | undefined)[] = texts.map((t) => this.cache.get(keyOf(t)));
    // each distinct missing text is embedded once, whatever how often the call repeats it
    const missing = [...new Set(texts.filter((_t, i) => out[i] === undefined))];
    this.metrics.texts.inc({ source: 'cache' }, texts.length - texts.filter((_t, i) => out[i] === undefined).length);
    if (missing.length > 0) {
      const vectors = await this.embedMissing(missing, purpose);
      const byText = new Map(missing.map((t, i) => [t, vectors[i]]));
      for (const [t, v] of byText) this.cache.set(keyOf(t), v);
      texts.forEach((t, i) => (out[i] ??= byText.get(t)));
    }
    // callers get their own arrays: a caller changing one must not change the cache
    return out.map((v) => v!.slice());
  }

  private async embedMissing(texts: string[], purpose: EmbeddingPurpose): Promise<number[][]> {
    if (this.inFlight + texts.length > this.opts.queue && this.inFlight > 0) {
      throw new EmbeddingFailure(
        'busy',
        `the embedding queue is full (${this.inFlight} texts waiting, EMBEDDINGS_QUEUE=${this.opts.queue})`,
      );
    }
    this.inFlight += texts.length;
    this.metrics.queued.set(this.inFlight);
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new EmbeddingFailure('timeout', `no vectors within ${this.opts.timeoutMs} ms (EMBEDDINGS_TIMEOUT_MS)`));
      }, this.opts.timeoutMs);
    });
    try {
      const raw = await Promise.race([this.backend.embedTexts(texts, purpose, abort.signal), timeout]);
      this.metrics.texts.inc({ source: 'model' }, texts.length);
      return raw.map((v) => l2Normalize(v));
    } finally {
      clearTimeout(timer);
      this.inFlight -= texts.length;
      this.metrics.queued.set(this.inFlight);
    }
  }

  /** Each local inference thread's memory in bytes (none for an endpoint). */
  async workerMemory(): Promise<{ heap: number; wasm: number; nice: number | null }[]> {
    return (await this.backend.memory?.()) ?? [];
  }

  close(): Promise<void> {
    return this.backend.close();
  }
}
