import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/db/paths';
import { ViewerDocument } from './generated/graphql';
import { gqlOk } from './helpers/client';
import { cloneDatabase } from './helpers/db';
import { freePort } from './helpers/ports';
import { printedToken, spawnServer } from './helpers/process';

const dirs: string[] = [];
const held: Server[] = [];
afterAll(() => {
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  held.forEach((h) => h.close());
});

/** A port some other program listens on. */
async function busyPort(host = '127.0.0.1'): Promise<number> {
  const srv = createServer();
  held.push(srv);
  await new Promise<void>((resolve) => srv.listen(0, host, resolve));
  return (srv.address() as { port: number }).port;
}

/** Runs the compiled server until it exits (it is expected to refuse to start). */
function startRefused(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(projectRoot, 'dist/src/main.js')],
      { env: { ...process.env, NODE_ENV: 'development', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

describe('start-up errors a person can fix', () => {
  it('says in one sentence, with exit code 2, that PORT is busy', async () => {
    const port = await busyPort('0.0.0.0');
    const r = await startRefused({ DATABASE_URL: await cloneDatabase(), PORT: String(port) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`memory-loop: port ${port} (PORT) is in use by another program: set PORT to a free port\n`);
  });

  it('says in one sentence, with exit code 2, that EMBEDDED_PG_PORT is busy', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'memory-loop-busy-'));
    dirs.push(dataDir);
    const port = await busyPort();
    const r = await startRefused({ DATA_DIR: dataDir, PORT: String(await freePort()), EMBEDDED_PG_PORT: String(port) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `memory-loop: port ${port} (EMBEDDED_PG_PORT) is in use by another program: set EMBEDDED_PG_PORT to a free port, or leave it unset to let the data directory choose one\n`,
    );
  });
});

describe('two copies with their own data directories', () => {
  it('each run their embedded PostgreSQL on a port their data directory chose and remembers', async () => {
    const [a, b] = [mkdtempSync(join(tmpdir(), 'memory-loop-copy-a-')), mkdtempSync(join(tmpdir(), 'memory-loop-copy-b-'))];
    dirs.push(a, b);
    const envA = { DATA_DIR: a, PORT: String(await freePort()), EMBEDDED_PG_PORT: '' };
    const envB = { DATA_DIR: b, PORT: String(await freePort()), EMBEDDED_PG_PORT: '' };
    const first = await spawnServer(envA);
    try {
      const second = await spawnServer(envB);
      try {
        const portOf = (dir: string) => Number(readFileSync(join(dir, 'pg-port'), 'utf8'));
        expect(portOf(a)).not.toBe(portOf(b));
        for (const [p, env] of [
          [first, envA],
          [second, envB],
        ] as const) {
          const token = await printedToken(p);
          const { viewer } = await gqlOk(`http://127.0.0.1:${env.PORT}/graphql`, ViewerDocument, {}, token!);
          expect(viewer.orgName).toBe('default');
        }
      } finally {
        second.child.kill('SIGTERM');
        expect(await second.exited).toBe(0);
      }
    } finally {
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
    }
    expect(existsSync(join(a, 'pg-port'))).toBe(true);
  });
});
