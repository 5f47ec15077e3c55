import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { ConfigError, loadConfig } from './config';
import { StartupError } from './core/errors';
import { createLogger } from './core/logger';
import { startApp } from './app';

async function main(): Promise<void> {
  const started = performance.now();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`memory-loop: configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  const app = await startApp(config, log);
  if (app.firstStart) {
    const { orgId, orgName, generatedToken } = app.firstStart;
    log.info({ orgId, orgName }, 'created the first organization');
    if (generatedToken) {
      // for the person at the console, on stderr: stdout carries only JSON log lines
      process.stderr.write(
        `\n  Organization "${orgName}" created (${orgId}).\n  ADMIN API token (shown once, store it now):\n\n    ${generatedToken}\n\n`,
      );
    }
  }
  log.info(
    { url: `http://localhost:${app.server.port}/graphql`, startupMs: Math.round(performance.now() - started) },
    'memory-loop is serving',
  );

  let signals = 0;
  const shutdown = (signal: string) => {
    signals += 1;
    if (signals > 1) {
      log.info({ signal }, 'already draining');
      return;
    }
    log.info({ signal }, 'draining');
    app.stop().then(
      () => {
        log.info('stopped');
        log.flush(() => process.exit(0));
      },
      (err) => {
        log.error({ err }, 'shutdown failed');
        log.flush(() => process.exit(1));
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  if (err instanceof StartupError) {
    process.stderr.write(`memory-loop: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`memory-loop: failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
