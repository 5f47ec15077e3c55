/**
 * The source of one inference thread, run with `new Worker(source, { eval: true })`: a string, so
 * the same code runs from dist/ (npm start) and from the TypeScript sources (tests), and the
 * packages are required by the absolute paths the main thread resolved.
 *
 * `workerData.nice`: a thread that embeds only the documents of writes asks the OS to run it this
 * much below the process's priority (Linux applies `setpriority` to one thread, found by `/proc/thread-self`);
 * where that is not possible the thread runs at the process's priority and says so in `ready`.
 *
 * Messages in: `{ id, texts }`; `{ type: 'memory' }`. Out: `{ type: 'ready', ms, niced }` once the
 * model is loaded, `{ type: 'failed', message }` when it cannot load, `{ id, vectors }` (a
 * Float32Array of texts x 512, transferred) or `{ id, error }` per batch, `{ type: 'memory', heap,
 * wasm, nice }` (bytes of the thread's JavaScript heap and of its WebAssembly memory, its OS priority).
 */
export const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const started = performance.now();
const core = require(workerData.corePath);
const os = require('node:os');
let tid = 0;
try {
  tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
} catch {
  // no /proc: the thread is not told apart from the process
}
let niced = false;
if (workerData.nice > 0 && tid > 0) {
  try {
    // lower than the process's own priority (a process already at 19 stays there)
    os.setPriority(tid, Math.min(19, os.getPriority(tid) + workerData.nice));
    niced = true;
  } catch {
    // no per-thread priority here: the thread keeps the process's
  }
}
const priority = () => {
  try {
    return tid > 0 ? os.getPriority(tid) : null;
  } catch {
    return null;
  }
};
const ready = (async () => {
  // the WebAssembly backend first: weights decoded before it is ready fail to load
  await core.ready();
  const { initModel } = require(workerData.embeddingsPath);
  const { modelSource } = require(workerData.modelPath);
  const model = await initModel(modelSource);
  // the weights are in the backend's memory now; the graph's copy of the files (26 MB) is not read again
  if (model.model && model.model.artifacts) model.model.artifacts.weightData = undefined;
  return model;
})();
ready.then(
  () => parentPort.postMessage({ type: 'ready', ms: performance.now() - started, niced }),
  (err) => parentPort.postMessage({ type: 'failed', message: String((err && err.message) || err) }),
);
parentPort.on('message', async (m) => {
  if (m.type === 'memory') {
    let wasm = 0;
    try {
      wasm = core.backend().wasm.HEAPU8.length;
    } catch {
      // not loaded yet
    }
    const v8 = require('node:v8').getHeapStatistics();
    parentPort.postMessage({ type: 'memory', heap: v8.total_heap_size, wasm, nice: priority() });
    return;
  }
  const { id, texts } = m;
  try {
    const model = await ready;
    const rows = await model.embed(texts);
    const dim = rows.length > 0 ? rows[0].length : 0;
    const vectors = new Float32Array(rows.length * dim);
    rows.forEach((row, i) => vectors.set(row, i * dim));
    parentPort.postMessage({ id, vectors, dim }, [vectors.buffer]);
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;
