import { parse, type GraphQLFormattedError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BUDGETS, loadConfig } from '../src/config';
import { createLogger } from '../src/core/logger';
import { buildAppSchema } from '../src/graphql/build-schema';
import { Budgets, budgetStore } from '../src/http/budgets';
import { checkOperation } from '../src/graphql/limits';
import {
  AppendSegmentsDocument,
  CanvasInsightsDocument,
  EpisodesDocument,
  EpisodesWithFeedbackDocument,
  FeedbackAddedDocument,
  FeedbackPageDocument,
  MemorySummaryDocument,
  RecordEpisodeDocument,
  SubmitFeedbackDocument,
  ViewerDocument,
} from './generated/graphql';
import { gqlOk, wsClient, wsOnce, wsSubscribe } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

// Budgets made small, over a 30 s window so that a test's burst always falls in one window:
// a VIEWER key may send 30 requests per window, an AGENT key spend 600 points, an OPERATOR key
// run one request at a time (no line), an INTEGRATOR key send 30,000 bytes, an organization send
// 60 requests.
const ENV = {
  BUDGET_INTEGRATOR: '1000,1000000,100,1000',
  BUDGET_WINDOW_SECONDS: '30',
  BUDGET_ADMIN: '1000,1000000,100',
  BUDGET_VIEWER: '1,1000000,100',
  BUDGET_AGENT: '1000,20,100',
  BUDGET_OPERATOR: '1000,1000000,1',
  BUDGET_ORG: '2,1000000,100',
  BUDGET_QUEUE: '0',
};
const WINDOW_MS = 30_000;

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ env: ENV });
});
afterAll(() => s?.close());

interface Answer {
  status: number;
  retryAfter: string | null;
  data?: Record<string, unknown> | null;
  errors?: GraphQLFormattedError[];
}
async function post(url: string, token: string, query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), ...((await res.json()) as object) };
}
const VIEWER = '{ viewer { orgId } }';
const burst = (n: number, url: string, token: string, query = VIEWER) =>
  Promise.all(Array.from({ length: n }, () => post(url, token, query)));
const served = (xs: Answer[]) => xs.filter((x) => x.status === 200 && !x.errors);
const refused = (xs: Answer[]) => xs.filter((x) => x.status === 429);

/** Every refusal is a 429 with RATE_LIMITED, retryAfterMs within the window and the matching Retry-After. */
function expectRateLimited(xs: Answer[], whose: RegExp) {
  for (const x of xs) {
    expect(x.data ?? null).toBeNull();
    expect(x.errors).toHaveLength(1);
    const ext = x.errors![0].extensions!;
    expect(ext.code).toBe('RATE_LIMITED');
    expect(x.errors![0].message).toMatch(whose);
    expect(ext.retryAfterMs).toBeGreaterThan(0);
    expect(ext.retryAfterMs).toBeLessThanOrEqual(WINDOW_MS);
    expect(x.retryAfter).toBe(String(Math.ceil((ext.retryAfterMs as number) / 1000)));
    expect(ext.requestId).toEqual(expect.any(String));
  }
}

describe('budgets over HTTP', () => {
  it('answers a key past its request budget with 429 RATE_LIMITED; its organization-mates and other organizations are served', async () => {
    const a = await s.createOrg('rate-A');
    const b = await s.createOrg('rate-B');
    const flood = await s.createKey(a.orgId, 'VIEWER', 'flood');
    const mate = await s.createKey(a.orgId, 'VIEWER', 'mate');
    const answers = await burst(40, s.url, flood.token);
    expect(served(answers)).toHaveLength(30);
    expect(refused(answers)).toHaveLength(10);
    expectRateLimited(refused(answers), /this API key's budget of requests/);
    // refused again at the door: the key is not even looked up
    s.sql.reset();
    const again = await post(s.url, flood.token, VIEWER);
    expectRateLimited([again], /this API key's budget of requests/);
    expect(s.sql.count).toBe(0);
    // the refused requests did not draw on the organization's budget (60): the mate has 30 left
    expect(served(await burst(5, s.url, mate.token))).toHaveLength(5);
    expect(served(await burst(20, s.url, b.token))).toHaveLength(20);
  });

  it('refuses a write over budget and writes nothing', async () => {
    const a = await s.createOrg('rate-write');
    const before = await gqlOk(s.url, '{ episodes(first: 100) { edges { node { id } } } }', {}, a.token);
    const agent = await s.createKey(a.orgId, 'AGENT', 'writer');
    // the AGENT key has 600 points: spend them, then write
    const spent = await burst(10, s.url, agent.token, '{ episodes(first: 50) { edges { node { id } } } }');
    expect(refused(spent).length).toBeGreaterThan(0);
    const write = await post(s.url, agent.token, 'mutation { recordEpisode(input: { agentId: "over" }) { id } }');
    expect(write.status).toBe(429);
    expect(write.errors?.[0].extensions?.code).toBe('RATE_LIMITED');
    expect(await gqlOk(s.url, '{ episodes(first: 100) { edges { node { id } } } }', {}, a.token)).toEqual(before);
  });

  it('charges each operation its cost: an AGENT key spends 600 points per window', async () => {
    const a = await s.createOrg('points');
    const agent = await s.createKey(a.orgId, 'AGENT', 'costly');
    const query = '{ episodes(first: 50) { edges { node { id } } } }';
    const cost = checkOperation(buildAppSchema(), parse(query), {});
    const fits = Math.floor(600 / cost);
    expect(fits).toBeGreaterThan(1);
    const answers: Answer[] = [];
    for (let i = 0; i < fits + 2; i++) answers.push(await post(s.url, agent.token, query));
    expect(answers.slice(0, fits).map((x) => x.status)).toEqual(Array(fits).fill(200));
    expect(answers.slice(fits).map((x) => x.status)).toEqual([429, 429]);
    expectRateLimited(answers.slice(fits), /budget of points/);
    // a cheaper operation still fits in what is left (600 - fits x cost)
    if (600 - fits * cost >= 2) expect((await post(s.url, agent.token, VIEWER)).status).toBe(200);
  });

  it('holds an organization to its budget over all its keys', async () => {
    const a = await s.createOrg('org-A');
    const b = await s.createOrg('org-B');
    const second = await s.createKey(a.orgId, 'ADMIN', 'second');
    const answers = (await Promise.all([burst(40, s.url, a.token), burst(40, s.url, second.token)])).flat();
    expect(served(answers)).toHaveLength(60);
    expectRateLimited(refused(answers), /this organization's budget of requests/);
    expect(refused(answers)).toHaveLength(20);
    expect(served(await burst(20, s.url, b.token))).toHaveLength(20);
  });

  it('runs at most its concurrency at once: with one slot and no line, a burst is partly refused, and later requests are served', async () => {
    const a = await s.createOrg('slots');
    const op = await s.createKey(a.orgId, 'OPERATOR', 'one-at-a-time');
    // a query that waits on the database while it holds its slot
    const answers = await burst(20, s.url, op.token, '{ episodes(first: 5) { edges { node { id } } } }');
    expect(served(answers).length).toBeGreaterThan(0);
    expect(refused(answers).length).toBeGreaterThan(0);
    expectRateLimited(refused(answers), /too many requests of this API key's are running or waiting/);
    // slots are given back: one at a time, every request is served
    for (let i = 0; i < 3; i++) expect((await post(s.url, op.token, VIEWER)).status).toBe(200);
    expect(s.app.server.budgets.usage('key', op.id)).toEqual({ active: 0, waiting: 0 });
  });
});

describe('the byte budget', () => {
  const WRITE = 'mutation ($input: RecordEpisodeInput!) { recordEpisode(input: $input) { id } }';
  const big = (agentId: string) => ({ input: { agentId, segments: [{ role: 'user', content: 'x'.repeat(12_000) }] } });
  type Agents = { episodes: { edges: { node: { agentId: string } }[] } };
  const written = async (token: string, agentId: string) =>
    (await gqlOk<Agents, object>(s.url, '{ episodes(first: 100) { edges { node { agentId } } } }', {}, token)).episodes.edges.filter(
      (e) => e.node.agentId === agentId,
    ).length;

  it('charges the bytes of request bodies: past 30,000 bytes a window an INTEGRATOR key is refused with RATE_LIMITED and writes nothing', async () => {
    const a = await s.createOrg('bytes-http');
    const b = await s.createOrg('bytes-other');
    const key = await s.createKey(a.orgId, 'INTEGRATOR', 'bulk');
    const answers: Answer[] = [];
    for (let i = 0; i < 3; i++) answers.push(await post(s.url, key.token, WRITE, big('bulk')));
    expect(answers.map((x) => x.status)).toEqual([200, 200, 429]);
    expectRateLimited(answers.slice(2), /this API key's budget of bytes per second/);
    expect(await written(a.token, 'bulk')).toBe(2);
    // a small request is refused at the door until the window ends; other organizations' keys are served
    expect((await post(s.url, key.token, VIEWER)).status).toBe(429);
    const other = await s.createKey(b.orgId, 'INTEGRATOR', 'bulk');
    expect((await post(s.url, other.token, WRITE, big('bulk'))).status).toBe(200);
  });

  it('charges the bytes of WebSocket operations the same way, writes nothing past them, and keeps the socket open', async () => {
    const a = await s.createOrg('bytes-ws');
    const key = await s.createKey(a.orgId, 'INTEGRATOR', 'bulk-ws');
    const c = wsClient(s.wsUrl, key.token);
    try {
      const results = [];
      for (let i = 0; i < 3; i++) results.push(await wsOnce(c, WRITE, big('bulk-ws')));
      expect(results.map((r) => r.errors?.[0]?.extensions?.code ?? 'ok')).toEqual(['ok', 'ok', 'RATE_LIMITED']);
      expect(results[2].errors![0].message).toMatch(/budget of bytes per second/);
      expect(await written(a.token, 'bulk-ws')).toBe(2);
      // the socket stays open: it answers the next operation (refused too: what was refused counts until the window ends)
      expect((await wsOnce(c, VIEWER)).errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    } finally {
      await c.dispose();
    }
  });
});

describe('budgets over WebSocket', () => {
  it('refuses an operation over budget with RATE_LIMITED and keeps the socket; HTTP and WebSocket draw on one budget', async () => {
    const a = await s.createOrg('ws-A');
    const b = await s.createOrg('ws-B');
    const key = await s.createKey(a.orgId, 'VIEWER', 'ws');
    expect(served(await burst(20, s.url, key.token))).toHaveLength(20);
    const c = wsClient(s.wsUrl, key.token);
    const results = await Promise.all(Array.from({ length: 15 }, () => wsOnce(c, VIEWER)));
    expect(results.filter((r) => r.data && !r.errors)).toHaveLength(10);
    const over = results.filter((r) => r.errors);
    expect(over).toHaveLength(5);
    for (const r of over) {
      expect(r.errors![0].extensions).toMatchObject({ code: 'RATE_LIMITED', requestId: expect.any(String) });
      expect(r.errors![0].extensions!.retryAfterMs).toBeGreaterThan(0);
      expect(r.errors![0].extensions!.retryAfterMs).toBeLessThanOrEqual(WINDOW_MS);
    }
    // the socket is still open and still answers (with the same refusal, before parsing anything) ...
    expect((await wsOnce(c, VIEWER)).errors?.[0].extensions?.code).toBe('RATE_LIMITED');
    expect((await wsOnce(c, '{ viewer {')).errors?.[0].extensions?.code).toBe('RATE_LIMITED');
    // ... while another organization's socket is served
    const other = wsClient(s.wsUrl, b.token);
    expect((await wsOnce(other, VIEWER)).data).toEqual({ viewer: { orgId: b.orgId } });
    await Promise.all([c.dispose(), other.dispose()]);
  });

  it('holds WebSocket queries to the key concurrency too, and frees the slots when they end', async () => {
    const a = await s.createOrg('ws-slots');
    const op = await s.createKey(a.orgId, 'OPERATOR', 'ws-one');
    const c = wsClient(s.wsUrl, op.token);
    const results = await Promise.all(Array.from({ length: 20 }, () => wsOnce(c, VIEWER)));
    expect(results.filter((r) => r.data && !r.errors).length).toBeGreaterThan(0);
    const over = results.filter((r) => r.errors);
    expect(over.length).toBeGreaterThan(0);
    for (const r of over) expect(r.errors![0].extensions?.code).toBe('RATE_LIMITED');
    for (let i = 0; i < 3; i++) expect((await wsOnce(c, VIEWER)).data).toEqual({ viewer: { orgId: a.orgId } });
    expect(s.app.server.budgets.usage('key', op.id)).toEqual({ active: 0, waiting: 0 });
    await c.dispose();
  });
});

describe.skipIf(!process.env.REDIS_URL)('budgets across instances (Redis)', () => {
  it('counts a key on every instance against one budget', async () => {
    const env = { ...ENV, REDIS_URL: process.env.REDIS_URL! };
    const one = await startTestServer({ env });
    const two = await startTestServer({ env, dbUrl: one.dbUrl });
    try {
      const a = await one.createOrg('redis-budget');
      const key = await one.createKey(a.orgId, 'VIEWER', 'both');
      const answers = (await Promise.all([burst(20, one.url, key.token), burst(20, two.url, key.token)])).flat();
      expect(served(answers)).toHaveLength(30);
      expect(refused(answers)).toHaveLength(10);
      expectRateLimited(refused(answers), /this API key's budget of requests/);
      // and an organization over all its keys and instances
      const mate = await one.createKey(a.orgId, 'ADMIN', 'mate');
      const more = (await Promise.all([burst(20, one.url, mate.token), burst(20, two.url, mate.token)])).flat();
      expect(served(more)).toHaveLength(30);
      expectRateLimited(refused(more), /this organization's budget of requests/);
    } finally {
      await two.close();
      await one.close();
    }
  });
});

describe('budget settings', () => {
  it('reads BUDGET_<ROLE> and BUDGET_ORG as requests/s,points/s,concurrent and refuses anything else naming the variable', () => {
    const c = loadConfig({ BUDGET_AGENT: '7, 800,3', BUDGET_ORG: '9,900,4', BUDGET_QUEUE: '5', BUDGET_WINDOW_SECONDS: '2' });
    expect(c.budgets).toEqual({
      roles: {
        ...DEFAULT_BUDGETS.roles,
        AGENT: { requestsPerSecond: 7, pointsPerSecond: 800, concurrent: 3, bytesPerSecond: DEFAULT_BUDGETS.roles.AGENT.bytesPerSecond },
      },
      org: { requestsPerSecond: 9, pointsPerSecond: 900, concurrent: 4, bytesPerSecond: DEFAULT_BUDGETS.org.bytesPerSecond },
      queue: 5,
      windowSeconds: 2,
    });
    expect(loadConfig({ BUDGET_AGENT: '7,800,3,4096' }).budgets.roles.AGENT).toEqual({
      requestsPerSecond: 7,
      pointsPerSecond: 800,
      concurrent: 3,
      bytesPerSecond: 4096,
    });
    for (const [name, value] of [
      ['BUDGET_VIEWER', '1,2'],
      ['BUDGET_AGENT', '1,2,3,4,5'],
      ['BUDGET_AGENT', '1,2,3,0'],
      ['BUDGET_ADMIN', '0,10,1'],
      ['BUDGET_ORG', '1,x,1'],
      ['BUDGET_WINDOW_SECONDS', '0'],
      ['METRICS_TOKEN', 'short'],
    ]) {
      expect(() => loadConfig({ [name]: value }), name).toThrow(`invalid ${name}`);
    }
  });
});

describe('normal traffic under the default budgets', () => {
  it('serves an agent writing, a burst of writes, a dashboard refreshing its panels and a live feed, refusing nothing', async () => {
    const d = await startTestServer({ defaultBudgets: true });
    try {
      const org = await d.createOrg('normal');
      const agent = await d.createKey(org.orgId, 'AGENT', 'runtime');
      const viewer = await d.createKey(org.orgId, 'VIEWER', 'dashboard');
      const c = wsClient(d.wsUrl, viewer.token);
      const feed = wsSubscribe(c, FeedbackAddedDocument, {});
      // an agent runtime: episodes, more turns and a rating, one after another
      for (let i = 0; i < 15; i++) {
        const ep = (await gqlOk(d.url, RecordEpisodeDocument, { input: { agentId: 'agent-1' } }, agent.token)).recordEpisode;
        await gqlOk(
          d.url,
          AppendSegmentsDocument,
          { episodeId: ep.id, segments: [{ role: 'assistant', content: `turn ${i}` }] },
          agent.token,
        );
        await gqlOk(
          d.url,
          SubmitFeedbackDocument,
          { input: { episodeId: ep.id, feedbackType: 'RATING', rating: 1 + (i % 5) } },
          agent.token,
        );
      }
      // a burst of 30 writes at once waits for the key's running slots instead of failing
      await Promise.all(
        Array.from({ length: 30 }, (_, i) => gqlOk(d.url, RecordEpisodeDocument, { input: { agentId: `burst-${i}` } }, agent.token)),
      );
      // a dashboard: six panels at once, refreshed five times
      const panels = [
        () => gqlOk(d.url, ViewerDocument, {}, viewer.token),
        () => gqlOk(d.url, EpisodesDocument, { first: 20 }, viewer.token),
        () => gqlOk(d.url, EpisodesWithFeedbackDocument, { first: 10 }, viewer.token),
        () => gqlOk(d.url, FeedbackPageDocument, { first: 20 }, viewer.token),
        () => gqlOk(d.url, CanvasInsightsDocument, { agentId: 'agent-1' }, viewer.token),
        () => gqlOk(d.url, MemorySummaryDocument, {}, viewer.token),
      ];
      for (let r = 0; r < 5; r++) await Promise.all(panels.map((p) => p()));
      await feed.waitFor(15);
      expect(feed.errors).toEqual([]);
      expect(feed.events).toHaveLength(15);
      const text = await (await fetch(d.url.replace('/graphql', '/metrics'))).text();
      expect(text).not.toMatch(/^budget_refusals_total\{/m);
      await c.dispose();
    } finally {
      await d.close();
    }
  });
});

describe('budgets when Redis does not answer', () => {
  it('falls back to counting on this instance, so budgets still hold and requests are still served', async () => {
    // 30 requests and 3,000 points per 30 s window
    const settings = {
      ...DEFAULT_BUDGETS,
      roles: { ...DEFAULT_BUDGETS.roles, VIEWER: { requestsPerSecond: 1, pointsPerSecond: 100, concurrent: 1, bytesPerSecond: 1000 } },
      windowSeconds: 30,
    };
    const budgets = new Budgets(settings, budgetStore('redis://127.0.0.1:1', createLogger('silent')));
    try {
      const spender = { apiKeyId: 'k-no-redis', orgId: 'o-no-redis', role: 'VIEWER' as const };
      for (let i = 0; i < 30; i++) await budgets.request(spender);
      await expect(budgets.request(spender)).rejects.toMatchObject({ scope: 'key', kind: 'requests' });
      await budgets.charge(spender, 2900);
      await expect(budgets.charge(spender, 200)).rejects.toMatchObject({ scope: 'key', kind: 'points' });
    } finally {
      await budgets.close();
    }
  });
});

describe('budgets counted on this instance (no Redis)', () => {
  it('counts fixed windows from a key’s first spend, charges the organization only what its keys were allowed, and opens a new window when one ends', async () => {
    // keys: 2 requests per 1 s window; the organization: 3
    const settings = {
      ...DEFAULT_BUDGETS,
      roles: { ...DEFAULT_BUDGETS.roles, VIEWER: { requestsPerSecond: 2, pointsPerSecond: 100, concurrent: 1, bytesPerSecond: 1000 } },
      org: { ...DEFAULT_BUDGETS.org, requestsPerSecond: 3 },
      windowSeconds: 1,
    };
    const budgets = new Budgets(settings, null);
    const a = { apiKeyId: 'k-a', orgId: 'o-1', role: 'VIEWER' as const };
    const b = { apiKeyId: 'k-b', orgId: 'o-1', role: 'VIEWER' as const };
    const other = { apiKeyId: 'k-c', orgId: 'o-2', role: 'VIEWER' as const };
    await budgets.request(a);
    await budgets.request(a);
    const refused = await budgets.request(a).catch((e: unknown) => e);
    expect(refused).toMatchObject({ scope: 'key', kind: 'requests' });
    const wait = (refused as { retryAfterMs: number }).retryAfterMs;
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(1000);
    // the refused request never reached the organization: it has spent 2 of its 3
    await budgets.request(b);
    await expect(budgets.request(b)).rejects.toMatchObject({ scope: 'org', kind: 'requests' });
    // another organization has its own windows
    await budgets.request(other);
    // points are a budget of their own
    await budgets.charge(a, 100);
    await expect(budgets.charge(a, 1)).rejects.toMatchObject({ scope: 'key', kind: 'points' });
    // once the window has ended, a new one opens with the whole budget
    await new Promise((r) => setTimeout(r, wait + 50));
    await budgets.request(a);
    await budgets.request(a);
    await expect(budgets.request(a)).rejects.toMatchObject({ scope: 'key', kind: 'requests' });
    await budgets.close();
  });
});
