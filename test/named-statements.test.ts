import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNamed } from '../src/db/named-statements';
import { gqlOk } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let off: TestServer;
let org: { orgId: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  off = await startTestServer({ env: { DB_PREPARED_STATEMENTS: 'false' }, dbUrl: s.dbUrl });
  org = await s.createOrg('named');
  await s.app.db.orm.em.fork().execute(
    `WITH e AS (INSERT INTO episodes (id, org_id, agent_id, title, created_at, updated_at)
       SELECT gen_random_uuid(), ?::uuid, 'agent', 'episode ' || g, now() - g * interval '1 minute', now() FROM generate_series(1, 3) g RETURNING id, org_id)
     INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at)
       SELECT gen_random_uuid(), e.org_id, e.id, k, 'user', 'turn ' || k, k, now() FROM e, generate_series(1, 2) k`,
    [org.orgId],
  );
});
afterAll(async () => {
  await off?.close();
  await s?.close();
});

/** The names of the prepared statements the server's pooled connections hold. */
function preparedNames(server: TestServer): string[] {
  const pool = (server.app.db.orm.em.getKnex().client as { pool: { free: { resource: unknown }[]; used: { resource: unknown }[] } }).pool;
  return [...pool.free, ...pool.used].flatMap((r) =>
    Object.keys((r.resource as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements),
  );
}

const PAGE = '{ episodes(first: 5) { edges { node { title segments { seq content } } } } }';

describe('reads of fixed text', () => {
  it('run as named prepared statements, in as many statements as before, with the same answers as unnamed', async () => {
    s.sql.reset();
    const named = await gqlOk(s.url, PAGE, {}, org.token);
    expect(s.sql.besidesAuth).toBe(1); // the page and its segments in one statement
    expect(preparedNames(s).filter((n) => /^ml\d+_/.test(n)).length).toBeGreaterThanOrEqual(1);
    const again = await gqlOk(s.url, PAGE, {}, org.token);
    expect(again).toEqual(named);
    const unnamed = await gqlOk(off.url, PAGE, {}, org.token);
    expect(unnamed).toEqual(named);
    expect(preparedNames(off).filter((n) => /^ml\d+_/.test(n))).toEqual([]);
    expect(
      (named as { episodes: { edges: { node: { segments: unknown[] } }[] } }).episodes.edges.map((e) => e.node.segments.length),
    ).toEqual([2, 2, 2]);
  });

  it('run inside the transaction of their EntityManager, bind values and keep question marks of their own', async () => {
    const id = crypto.randomUUID();
    const read = (em: Parameters<typeof runNamed>[0]) =>
      runNamed<{ id: string; has: boolean }>(em, `SELECT id, ?::jsonb \\? 'a' AS has FROM episodes WHERE org_id = ? AND id = ?`, [
        '{"a": 1}',
        org.orgId,
        id,
      ]);
    await s.app.db.orm.em.fork().transactional(async (tx) => {
      await tx.execute(`INSERT INTO episodes (id, org_id, agent_id, created_at, updated_at) VALUES (?, ?, 'tx', now(), now())`, [
        id,
        org.orgId,
      ]);
      expect(await read(tx)).toEqual([{ id, has: true }]);
      // another connection does not see the row before the commit
      expect(await read(s.app.db.orm.em.fork())).toEqual([]);
    });
    expect(await read(s.app.db.orm.em.fork())).toEqual([{ id, has: true }]);
  });

  it('are prepared anew when a migration changed the type of a column they return', async () => {
    const em = s.app.db.orm.em.fork();
    await em.execute('CREATE TABLE named_stale (id int PRIMARY KEY, v int)');
    await em.execute('INSERT INTO named_stale VALUES (1, 7)');
    // prepared on as many pooled connections as ten reads at once take
    const readAll = () =>
      Promise.all(
        Array.from({ length: 10 }, () => runNamed<{ v: unknown }>(s.app.db.orm.em.fork(), 'SELECT v FROM named_stale WHERE id = ?', [1])),
      );
    expect((await readAll()).map((r) => Number(r[0].v))).toEqual(Array(10).fill(7));
    await em.execute('ALTER TABLE named_stale ALTER COLUMN v TYPE bigint');
    expect((await readAll()).map((r) => Number(r[0].v))).toEqual(Array(10).fill(7));
  });

  it('fail with the errors the EntityManager gives for the same statement', async () => {
    const em = s.app.db.orm.em.fork();
    const statement = 'SELECT id FROM no_such_table WHERE id = ?';
    const viaOrm = await em.execute(statement, ['x']).then(
      () => null,
      (e: Error) => e,
    );
    const viaName = await runNamed(em, statement, ['x']).then(
      () => null,
      (e: Error) => e,
    );
    expect(viaOrm?.constructor.name).toBe('TableNotFoundException');
    expect(viaName?.constructor.name).toBe(viaOrm?.constructor.name);
    expect((viaName as { code?: string }).code).toBe('42P01');
  });
});
