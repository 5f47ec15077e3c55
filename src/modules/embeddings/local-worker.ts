/**
 * The source of one inference thread, run with `new Worker(source, { eval: true })`: a string, so
 * the same code runs from dist/ (npm start) and from the TypeScript sources (tests), and the
 * packages are required by the absolute paths the main thread resolved.
 *
 * Messages in: `{ id, texts }`. Out: `{ type: 'ready', ms }` once the model is loaded, `{ type:
 * 'failed', message }` when it cannot load, `{ id, vectors }` (a Float32Array of texts x 512,
 * transferred) or `{ id, error }` per batch.
 */
export const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const started = performance.now();
const ready = (async () => {
  const { initModel } = require(workerData.embeddingsPath);
  const { modelSource } = require(workerData.modelPath);
  return initModel(modelSource);
})();
ready.then(
  () => parentPort.postMessage({ type: 'ready', ms: performance.now() - started }),
  (err) => parentPort.postMessage({ type: 'failed', message: String((err && err.message) || err) }),
);
parentPort.on('message', async ({ id, texts }) => {
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
