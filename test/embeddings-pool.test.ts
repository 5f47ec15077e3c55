import { getPriority } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/core/logger';
import { LocalBackend } from '../src/modules/embeddings/local';
import { EmbeddingMetrics } from '../src/modules/embeddings/metrics';

// The local model's worker pool on its own (real threads and the real model): which thread takes
// which texts, the OS priority of the threads that embed writes, and what each thread's memory is.

let pool: LocalBackend;
let metrics: EmbeddingMetrics;
const signal = new AbortController().signal;
const texts = (kind: string, n: number) =>
  Array.from({ length: n }, (_, i) => `pool probe ${kind} ${i}: the tram stopped at station ${i * 3}`);

beforeAll(async () => {
  metrics = new EmbeddingMetrics();
  pool = new LocalBackend({ workers: 2, batch: 16, writeBatch: 2 }, metrics, createLogger('silent'));
  await pool.embedTexts(['warm up'], 'query', signal);
}, 120_000);
afterAll(async () => {
  await pool?.close();
});

describe('the local worker pool', () => {
  it('runs the threads that embed writes 10 below the process priority (nice, at most 19) and the first at the process priority', async () => {
    // both threads have loaded the model once each answered
    await Promise.all([pool.embedTexts(texts('load', 8), 'document', signal), pool.embedTexts(texts('load-q', 2), 'query', signal)]);
    const base = getPriority();
    expect((await pool.memory()).map((m) => m.nice)).toEqual([base, Math.min(19, base + 10)]);
  });

  it('sends documents in calls of writeBatch texts and queries in calls of up to batch', async () => {
    const count = async () => (await metrics.batches.get()).values[0]?.value ?? 0;
    let before = await count();
    await pool.embedTexts(texts('docs', 10), 'document', signal);
    expect((await count()) - before).toBe(5);
    before = await count();
    await pool.embedTexts(texts('queries', 20), 'query', signal);
    expect((await count()) - before).toBe(2);
  });

  it('embeds a largest call of the longest texts (16 of 1000 characters) within the capped heap of a thread', async () => {
    const long = Array.from(
      { length: 16 },
      (_, i) => `${i} ` + 'the archive lists every shipment of the harbour by date and crane. '.repeat(14),
    );
    const vectors = await pool.embedTexts(long, 'query', signal);
    expect(vectors).toHaveLength(16);
    expect((await pool.memory()).every((m) => m.heap > 0 && m.heap < 80 * 2 ** 20)).toBe(true);
  }, 180_000);

  it("reports each thread's JavaScript heap and WebAssembly memory (the model's weights are in the latter)", async () => {
    const memory = await pool.memory();
    expect(memory).toHaveLength(2);
    for (const m of memory) {
      expect(m.wasm).toBeGreaterThan(26 * 2 ** 20);
      expect(m.heap).toBeGreaterThan(0);
      // the thread's own generations (8 MB young, 64 MB old), not the server's
      expect(m.heap).toBeLessThan(80 * 2 ** 20);
    }
    // the same on /metrics, per worker and kind
    const gauge = await metrics.workerMemory.get();
    const wasm = gauge.values.filter((v) => v.labels.kind === 'wasm');
    expect(wasm.map((v) => v.labels.worker).sort()).toEqual(['0', '1']);
    for (const v of wasm) expect(v.value).toBeGreaterThan(26 * 2 ** 20);
  });
});
