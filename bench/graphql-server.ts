import 'reflect-metadata';
import pg from 'pg';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/core/logger';
import { startApp } from '../src/app';

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Counts every statement the process sends to PostgreSQL, at the driver, as the raw baseline counts
 * its own: one addition per statement. (The ORM's query logger, the hook the tests use, formats the
 * text of every statement first; production runs without it, so the benchmark does too.)
 */
function countStatements(onStatement: () => void): void {
  const proto = pg.Client.prototype as unknown as { query: (this: pg.Client, ...args: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: pg.Client, ...args: unknown[]) {
    onStatement();
    return query.apply(this, args);
  };
}

/**
 * `node dist/src/main.js` as the benchmark runs it: the same startApp and configuration from the
 * environment, plus a count of the SQL statements sent to PostgreSQL, reported to the orchestrator
 * over IPC. Nothing in the server changes.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel, 2);
  let statements = 0;
  // BENCH_COUNT_SQL=false measures the server without even the count
  if (process.env.BENCH_COUNT_SQL !== 'false') countStatements(() => void (statements += 1));
  const app = await startApp(config, log);
  // a full collection on request (`{ type: 'stats', gc: true }`), to tell live memory from garbage not yet collected
  v8.setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  const embedder = app.embedder as { workerMemory?: () => Promise<{ heap: number; wasm: number }[]> };
  process.on('message', (m: { type: string; gc?: boolean }) => {
    if (m.type !== 'stats') return;
    if (m.gc) collect();
    void (embedder.workerMemory?.() ?? Promise.resolve([])).then((workers) => {
      const mem = process.memoryUsage();
      process.send!({
        type: 'stats',
        statements,
        cpuMs: cpuMs(),
        indexVectors: app.factIndex?.vectors ?? 0,
        indexBytes: app.factIndex?.bytes ?? 0,
        memory: { heapTotal: mem.heapTotal, heapUsed: mem.heapUsed, external: mem.external, arrayBuffers: mem.arrayBuffers, workers },
      });
    });
  });
  process.on(
    'SIGTERM',
    () =>
      void app.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      ),
  );
  process.send!({ type: 'ready', port: app.server.port });
}

main().catch((err) => {
  process.stderr.write(`graphql server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
