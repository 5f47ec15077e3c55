import 'reflect-metadata';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/core/logger';
import { startApp } from '../src/app';

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * `node dist/src/main.js` as the benchmark runs it: the same startApp and configuration from the
 * environment, plus a count of SQL statements from the ORM query logger (the hook the tests use),
 * reported to the orchestrator over IPC. Nothing in the server changes.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel, 2);
  let statements = 0;
  // BENCH_COUNT_SQL=false measures the server without the query logger the count needs
  const count = process.env.BENCH_COUNT_SQL !== 'false';
  const app = await startApp(config, log, count ? { onQuery: () => void (statements += 1) } : {});
  process.on('message', (m: { type: string }) => {
    if (m.type === 'stats')
      process.send!({
        type: 'stats',
        statements,
        cpuMs: cpuMs(),
        indexVectors: app.factIndex?.vectors ?? 0,
        indexBytes: app.factIndex?.bytes ?? 0,
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
