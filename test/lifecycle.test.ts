import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CreateApiKeyDocument, HeartbeatDocument, ViewerDocument } from './generated/graphql';
import { gql, gqlOk, wsClient, wsSubscribe } from './helpers/client';
import { cloneDatabase, sqlClient } from './helpers/db';
import { freePort } from './helpers/ports';
import { printedToken, runCli, spawnServer } from './helpers/process';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('npm start with the embedded database', () => {
  it('prints an ADMIN token once, keeps data and keys across a SIGTERM restart, and the CLI works while it runs', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'memory-loop-data-'));
    dirs.push(dataDir);
    const env = { DATA_DIR: dataDir, PORT: String(await freePort()), EMBEDDED_PG_PORT: String(await freePort()) };
    const url = `http://127.0.0.1:${env.PORT}/graphql`;

    const first = await spawnServer(env);
    // the banner is for the person at the console (stderr); stdout carries JSON log lines only
    const token = await printedToken(first);
    expect(token).toBeDefined();
    for (const l of first.stdout().split('\n').filter(Boolean)) expect(() => JSON.parse(l)).not.toThrow();
    const { viewer } = await gqlOk(url, ViewerDocument, {}, token!);
    expect(viewer).toMatchObject({ orgName: 'default', role: 'ADMIN' });
    const agent = (await gqlOk(url, CreateApiKeyDocument, { name: 'runtime', role: 'AGENT' }, token!)).createApiKey.token;

    // the CLI attaches to the database the running server owns
    const created = await runCli(['create-org', 'Acme', 'Labs'], env);
    expect(created.code).toBe(0);
    const line = JSON.parse(created.stdout.trim());
    expect(Object.keys(line).sort()).toEqual(['orgId', 'token']);
    expect((await gqlOk(url, ViewerDocument, {}, line.token)).viewer).toMatchObject({ orgId: line.orgId, orgName: 'Acme Labs' });
    const key = await runCli(['create-key', '--org', line.orgId, '--role', 'OPERATOR', '--name', 'ops'], env);
    expect(key.code).toBe(0);
    expect((await gqlOk(url, ViewerDocument, {}, JSON.parse(key.stdout).token)).viewer.role).toBe('OPERATOR');

    // SIGTERM (twice, as npm and process managers may) drains sockets with 1001 and exits 0
    const ws = wsClient(url.replace('http', 'ws'), token!);
    const sub = wsSubscribe(ws, HeartbeatDocument, { intervalSeconds: 3600 });
    await sub.waitFor(1);
    first.child.kill('SIGTERM');
    first.child.kill('SIGTERM');
    expect((await ws.closed).code).toBe(1001);
    expect(await first.exited, first.stdout() + first.stderr()).toBe(0);
    expect(first.stdout()).toContain('"msg":"stopped"');

    const second = await spawnServer(env);
    expect(second.stdout() + second.stderr()).not.toContain('ADMIN API token');
    for (const t of [token!, agent, line.token]) expect((await gql(url, ViewerDocument, {}, t)).errors).toBeUndefined();
    second.child.kill('SIGTERM');
    expect(await second.exited, second.stdout() + second.stderr()).toBe(0);
  });
});

describe('npm start with DATABASE_URL', () => {
  it('creates INIT_ORG_NAME with the INIT_ADMIN_TOKEN on an empty database, once', async () => {
    const dbUrl = await cloneDatabase();
    const adminToken = 'headless-admin-token-0123456789abcdef';
    const env = { DATABASE_URL: dbUrl, PORT: String(await freePort()), INIT_ORG_NAME: 'Headless', INIT_ADMIN_TOKEN: adminToken };
    const url = `http://127.0.0.1:${env.PORT}/graphql`;
    const p = await spawnServer(env);
    expect(p.stdout()).not.toContain(adminToken);
    expect((await gqlOk(url, ViewerDocument, {}, adminToken)).viewer).toMatchObject({ orgName: 'Headless', role: 'ADMIN' });
    const ready = await fetch(url.replace('/graphql', '/readyz'));
    expect(ready.status).toBe(200);
    expect((await fetch(url.replace('/graphql', '/healthz'))).status).toBe(200);
    const metrics = await (await fetch(url.replace('/graphql', '/metrics'))).text();
    expect(metrics).toContain('graphql_operations_total{operation="Viewer",transport="http",outcome="ok"} 1');
    expect(metrics).toMatch(/db_pool_connections\{state="used"\}/);
    p.child.kill('SIGTERM');
    expect(await p.exited, p.stdout() + p.stderr()).toBe(0);

    const cli = await runCli(['create-org', 'Second'], { DATABASE_URL: dbUrl });
    expect(cli.code).toBe(0);
    expect(cli.stdout.trim().split('\n')).toHaveLength(1);
    // a restart with the same settings creates nothing new: the database has organizations
    const again = await spawnServer(env);
    const [{ n }] = await (async () => {
      const c = await sqlClient(dbUrl);
      try {
        return (await c.query('SELECT count(*)::int AS n FROM organizations')).rows;
      } finally {
        await c.end();
      }
    })();
    expect(n).toBe(2);
    again.child.kill('SIGTERM');
    expect(await again.exited, again.stdout() + again.stderr()).toBe(0);
  });
});

describe('configuration errors', () => {
  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ INIT_ORG_NAME: 'x', INIT_ADMIN_TOKEN: 'short' }, 'INIT_ADMIN_TOKEN'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ MIGRATE_ON_START: 'perhaps' }, 'MIGRATE_ON_START'],
  ])('stops the start on %o with a message naming %s', async (env, name) => {
    const p = spawnServer({ DATA_DIR: '/nonexistent/never-used', ...env }).catch((e: Error) => e.message);
    const message = await p;
    expect(message).toMatch(/exited with 2/);
    expect(message).toContain(`invalid ${name}`);
  });

  it('refuses a CLI call with a bad role and prints usage for an unknown command', async () => {
    const bad = await runCli(['create-key', '--org', '00000000-0000-0000-0000-000000000000', '--role', 'KING', '--name', 'x'], {
      DATABASE_URL: await cloneDatabase(),
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--role must be one of');
    expect(bad.stdout).toBe('');
    const unknown = await runCli(['frobnicate'], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('usage:');
  });
});
