import { Counter, Gauge, Histogram, type Metric } from 'prom-client';

/**
 * The embedder's Prometheus metrics. They belong to no registry of their own: each server's
 * registry adds them (`all()`), so /metrics shows them beside the request metrics.
 */
export class EmbeddingMetrics {
  readonly calls = new Counter({
    name: 'embeddings_calls_total',
    help: 'Embedding calls (one per write or query that needed vectors) by provider and outcome (ok, unavailable)',
    labelNames: ['provider', 'outcome'] as const,
    registers: [],
  });
  readonly texts = new Counter({
    name: 'embeddings_texts_total',
    help: 'Texts embedded, by where the vector came from: model (inference or the endpoint) or cache',
    labelNames: ['source'] as const,
    registers: [],
  });
  readonly failures = new Counter({
    name: 'embeddings_failures_total',
    help: 'Embedding calls refused with EMBEDDINGS_UNAVAILABLE, by reason: timeout, busy (queue full), endpoint (error answer or network), garbage (malformed answer), worker (local inference failed)',
    labelNames: ['reason'] as const,
    registers: [],
  });
  readonly latency = new Histogram({
    name: 'embeddings_call_duration_seconds',
    help: 'Duration of embedding calls, cache lookups included',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [],
  });
  readonly batches = new Counter({
    name: 'embeddings_model_batches_total',
    help: 'Batches sent to the model (local workers) or the endpoint (openai)',
    registers: [],
  });
  readonly queued = new Gauge({
    name: 'embeddings_queue_texts',
    help: 'Texts waiting for a worker or the endpoint, or being embedded',
    registers: [],
  });
  readonly reembedRemaining = new Gauge({
    name: 'embeddings_reembed_remaining',
    help: "Rows whose vector is of another model than the server's and still waits to be embedded again, by table",
    labelNames: ['table'] as const,
    registers: [],
  });
  readonly reembedDone = new Counter({
    name: 'embeddings_reembedded_total',
    help: 'Rows embedded again after the embedding model changed, by table',
    labelNames: ['table'] as const,
    registers: [],
  });

  /** local: asks each inference thread for its memory (set by the worker pool) */
  workerMemorySource: (() => Promise<{ heap: number; wasm: number }[]>) | null = null;
  readonly workerMemory = (() => {
    const source = () => this.workerMemorySource;
    return new Gauge({
      name: 'embeddings_worker_memory_bytes',
      help: "Memory of each local inference thread, by worker (0 is the one that takes queries first) and kind: heap (its JavaScript heap) or wasm (its WebAssembly memory: the model's weights and work space, never returned)",
      labelNames: ['worker', 'kind'] as const,
      registers: [],
      async collect() {
        const read = source();
        if (!read) return;
        this.reset();
        (await read()).forEach((m, i) => {
          this.set({ worker: String(i), kind: 'heap' }, m.heap);
          this.set({ worker: String(i), kind: 'wasm' }, m.wasm);
        });
      },
    });
  })();

  all(): Metric[] {
    return [
      this.calls,
      this.texts,
      this.failures,
      this.latency,
      this.batches,
      this.queued,
      this.reembedRemaining,
      this.reembedDone,
      this.workerMemory,
    ];
  }
}
