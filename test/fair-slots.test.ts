import { availableParallelism } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { FairSlots } from '../src/http/fair-slots';
import { wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

const tick = () => new Promise((r) => setImmediate(r));

describe('running slots shared fairly by organizations', () => {
  it('keeps the last slot from the organization that runs the others, and never makes its line wait for it', async () => {
    const slots = new FairSlots(3);
    const got: string[] = [];
    const take = (org: string, name: string) => slots.acquire(org).then((release) => (got.push(name), release));
    const heavy = ['h1', 'h2', 'h3', 'h4'].map((n) => take('heavy', n));
    await tick();
    expect(got).toEqual(['h1', 'h2']); // the third slot is kept for another organization
    expect(slots.usage()).toEqual({ active: 2, waiting: 2 });
    const quiet = take('quiet', 'q1');
    await tick();
    expect(got).toEqual(['h1', 'h2', 'q1']); // served at once, before the busy organization's line
    (await quiet)();
    await tick();
    expect(got).toEqual(['h1', 'h2', 'q1']); // still the busy organization's third: it waits
    (await heavy[0])();
    await tick();
    expect(got).toEqual(['h1', 'h2', 'q1', 'h3']);
    for (const h of heavy.slice(1)) (await h)();
    await tick();
    expect(got).toEqual(['h1', 'h2', 'q1', 'h3', 'h4']);
    (await heavy[3])();
    expect(slots.usage()).toEqual({ active: 0, waiting: 0 });
  });

  it('gives a freed slot to the waiting organization running the fewest, not to the one waiting longest', async () => {
    const slots = new FairSlots(4);
    const got: string[] = [];
    const take = (org: string, name: string) => slots.acquire(org).then((release) => (got.push(name), release));
    const a = ['a1', 'a2', 'a3', 'a4', 'a5'].map((n) => take('a', n));
    const b = ['b1', 'b2'].map((n) => take('b', n));
    await tick();
    expect(got).toEqual(['a1', 'a2', 'a3', 'b1']);
    (await b[0])(); // b runs nothing now, a runs three: b's line goes first though a's waited longer
    await tick();
    expect(got).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
    (await a[0])(); // a runs two, b one: b has nothing waiting, so a's next
    await tick();
    expect(got).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'a4']);
    for (const r of [...a.slice(1), b[1]]) (await r)();
    await tick();
    for (const r of a.slice(4)) (await r)();
    expect(slots.usage()).toEqual({ active: 0, waiting: 0 });
  });

  it('lets a request give up its slot while it waits aside, and take it back in line after', async () => {
    const slots = new FairSlots(2);
    const a = await slots.hold('a');
    let wake!: (v: string) => void;
    const model = new Promise<string>((r) => (wake = r));
    const waiting = a.aside(model);
    await tick();
    expect(slots.usage()).toEqual({ active: 0, waiting: 0 });
    // the organization's next request runs in the slot given up; a third takes the last one
    const b = await slots.hold('a');
    const c = await slots.hold('b');
    expect(slots.usage()).toEqual({ active: 2, waiting: 0 });
    let back = false;
    void waiting.then(() => (back = true));
    wake('vector');
    await tick();
    // the wait is over, but the slots are taken: it waits in line for one
    expect(back).toBe(false);
    expect(slots.usage()).toEqual({ active: 2, waiting: 1 });
    b.release();
    expect(await waiting).toBe('vector');
    expect(slots.usage()).toEqual({ active: 2, waiting: 0 });
    a.release();
    c.release();
    expect(slots.usage()).toEqual({ active: 0, waiting: 0 });
  });

  it('gives up a slot once for overlapping waits of one request, and gives back what it takes after its release', async () => {
    const slots = new FairSlots(3);
    const a = await slots.hold('a');
    const wakes: (() => void)[] = [];
    const wait = () => new Promise<void>((r) => wakes.push(r));
    const first = a.aside(wait());
    const second = a.aside(wait());
    await tick();
    expect(slots.usage()).toEqual({ active: 0, waiting: 0 });
    wakes[0]();
    await first;
    expect(slots.usage()).toEqual({ active: 1, waiting: 0 });
    wakes[1]();
    await second;
    expect(slots.usage()).toEqual({ active: 1, waiting: 0 });
    // released while it waits aside (the client went away): the slot it takes back is freed at once
    const third = a.aside(wait());
    await tick();
    a.release();
    wakes[2]();
    await third;
    expect(slots.usage()).toEqual({ active: 0, waiting: 0 });
    // a failed wait takes the slot back too, and its error goes on
    const d = await slots.hold('d');
    await expect(d.aside(Promise.reject(new Error('model down')))).rejects.toThrow('model down');
    expect(slots.usage()).toEqual({ active: 1, waiting: 0 });
    d.release();
    expect(slots.usage()).toEqual({ active: 0, waiting: 0 });
  });

  it('reads RUNNING_SLOTS (default twice the cores, 0 for none) and refuses anything else naming the variable', () => {
    expect(loadConfig({}).runningSlots).toBe(2 * availableParallelism());
    expect(loadConfig({ RUNNING_SLOTS: '0' }).runningSlots).toBe(0);
    expect(() => loadConfig({ RUNNING_SLOTS: '-1' })).toThrow('invalid RUNNING_SLOTS');
  });
});

describe('a quiet organization beside a busy one on a server with two running slots', () => {
  let s: TestServer;
  let db: pg.Client;
  beforeAll(async () => {
    s = await startTestServer({ env: { RUNNING_SLOTS: '2' } });
    db = new pg.Client({ connectionString: s.dbUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await s?.close();
  });

  const PAGE = '{ episodes(first: 5) { edges { node { id } } } }';
  const VIEWER = '{ viewer { orgId } }';
  const post = async (token: string, query: string) => {
    const res = await fetch(s.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query }),
    });
    return { status: res.status, body: (await res.json()) as { data?: unknown; errors?: unknown } };
  };
  const blocked = async () =>
    Number(
      (await db.query(`SELECT count(*) n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rows[0].n,
    );
  const until = async (what: () => Promise<boolean> | boolean) => {
    for (let i = 0; i < 200 && !(await what()); i++) await new Promise((r) => setTimeout(r, 25));
    expect(await what()).toBe(true);
  };
  // the busy organization's requests hold their slots while they wait for the locked episodes table
  const lockEpisodes = async () => {
    await db.query('BEGIN');
    await db.query('LOCK TABLE episodes IN ACCESS EXCLUSIVE MODE');
    return () => db.query('COMMIT');
  };

  it('over HTTP: the quiet organization is served while the busy one runs one request and its others wait', async () => {
    const busy = await s.createOrg('busy-http');
    const quiet = await s.createOrg('quiet-http');
    // warm the keys (their lookup is not what waits)
    expect((await post(busy.token, VIEWER)).status).toBe(200);
    expect((await post(quiet.token, VIEWER)).status).toBe(200);
    const unlock = await lockEpisodes();
    const pages = Array.from({ length: 4 }, () => post(busy.token, PAGE));
    await until(async () => (await blocked()) === 1 && s.app.server.budgets.running().waiting === 3);
    const answer = await post(quiet.token, VIEWER);
    expect(answer).toEqual({ status: 200, body: { data: { viewer: { orgId: quiet.orgId } } } });
    // the busy organization still runs one request; the others have not started
    expect(await blocked()).toBe(1);
    expect(s.app.server.budgets.running()).toEqual({ active: 1, waiting: 3 });
    const metrics = await (await fetch(s.url.replace('/graphql', '/metrics'))).text();
    expect(metrics).toContain('graphql_running_slots{state="active"} 1');
    expect(metrics).toContain('graphql_running_slots{state="waiting"} 3');
    await unlock();
    for (const p of await Promise.all(pages)) expect(p).toEqual({ status: 200, body: { data: { episodes: { edges: [] } } } });
    expect(s.app.server.budgets.running()).toEqual({ active: 0, waiting: 0 });
  });

  it('over WebSocket: the same, and no answer crosses organizations', async () => {
    const busy = await s.createOrg('busy-ws');
    const quiet = await s.createOrg('quiet-ws');
    const b = wsClient(s.wsUrl, busy.token);
    const q = wsClient(s.wsUrl, quiet.token);
    expect((await wsOnce(b, VIEWER)).data).toEqual({ viewer: { orgId: busy.orgId } });
    expect((await wsOnce(q, VIEWER)).data).toEqual({ viewer: { orgId: quiet.orgId } });
    const unlock = await lockEpisodes();
    const pages = Array.from({ length: 4 }, () => wsOnce(b, PAGE));
    await until(async () => (await blocked()) === 1 && s.app.server.budgets.running().waiting === 3);
    expect(await wsOnce(q, VIEWER)).toEqual({ data: { viewer: { orgId: quiet.orgId } } });
    expect(await blocked()).toBe(1);
    expect(s.app.server.budgets.running()).toEqual({ active: 1, waiting: 3 });
    await unlock();
    for (const p of await Promise.all(pages)) expect(p).toEqual({ data: { episodes: { edges: [] } } });
    expect(s.app.server.budgets.running()).toEqual({ active: 0, waiting: 0 });
    await Promise.all([b.dispose(), q.dispose()]);
  });
});
