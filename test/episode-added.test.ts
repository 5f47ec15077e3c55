import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WAITING_EVENTS } from '../src/core/event-bus';
import { RecordEpisodeDocument } from './generated/graphql';
import { gql, gqlOk, wsClient, wsOnce, wsSubscribe } from './helpers/client';
import { exportSpans, fixture, newTraceId, readableSpans } from './helpers/otlp';
import { startTestServer, type TestServer } from './helpers/server';

interface Added {
  episodeAdded: {
    id: string;
    agentId: string;
    sessionId: string | null;
    title: string | null;
    executionIds: string[];
    segments: { role: string }[];
  } | null;
}
const SUBSCRIBE = `subscription($agentId: String, $sessionId: String) { episodeAdded(agentId: $agentId, sessionId: $sessionId) {
  id agentId sessionId title executionIds segments(limit: 20) { role } } }`;
const EPISODES = `query { episodes(first: 50) { edges { node { id executionIds } } } }`;
type Page = { episodes: { edges: { node: { id: string; executionIds: string[] } }[] } };

let s: TestServer;
let base: string;
let a: { orgId: string; token: string };
let b: { orgId: string; token: string };

const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));
const weather = (traceId: string) => readableSpans(fixture('genai-current'), traceId);
const episodeIdsOf = async (token: string, traceId: string) =>
  (await gqlOk<Page, unknown>(s.url, EPISODES, {}, token)).episodes.edges
    .filter((e) => e.node.executionIds.includes(traceId))
    .map((e) => e.node.id);
const record = (agentId: string, sessionId: string | null, token = a.token) =>
  gqlOk(s.url, RecordEpisodeDocument, { input: { agentId, sessionId } }, token).then((r) => r.recordEpisode);

beforeAll(async () => {
  s = await startTestServer();
  base = s.url.replace(/\/graphql$/, '');
  a = await s.createOrg('episodes-a');
  b = await s.createOrg('episodes-b');
});
afterAll(() => s?.close());

describe('episodeAdded', () => {
  it("delivers the episode of an OTLP export within a second of the export's 200, once, and `episodes` shows it at the 200", async () => {
    const agent = (await s.createKey(a.orgId, 'AGENT')).token;
    const c = wsClient(s.wsUrl, a.token);
    const sub = wsSubscribe<Added, Record<string, never>>(c, SUBSCRIBE, {});
    await settle();
    const traceId = newTraceId();
    const spans = weather(traceId);
    expect((await exportSpans(base, agent, spans, { gzip: true })).code).toBe(0);
    const answered = Date.now();
    const ids = await episodeIdsOf(a.token, traceId);
    expect(ids).toHaveLength(1);
    await sub.waitFor(1, 1000);
    expect(sub.events).toHaveLength(1);
    expect(Date.now() - answered).toBeLessThan(1000);
    expect(sub.events[0].data?.episodeAdded).toMatchObject({
      id: ids[0],
      agentId: 'Weather Agent',
      sessionId: 'conv_5j66UpCpwteGg4YSxUnt7lPY',
      title: 'invoke_agent Weather Agent',
      executionIds: [traceId],
    });
    expect(sub.events[0].data?.episodeAdded?.segments.map((x) => x.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    // the same export again, and a later export that only adds turns to the episode: no new event
    expect((await exportSpans(base, agent, spans)).code).toBe(0);
    await settle();
    expect(sub.events).toHaveLength(1);
    const split = newTraceId();
    const parts = weather(split);
    expect((await exportSpans(base, agent, parts.slice(0, 2))).code).toBe(0);
    await sub.waitFor(2);
    expect((await exportSpans(base, agent, parts.slice(2))).code).toBe(0);
    await settle();
    expect(sub.events.map((e) => e.data?.episodeAdded?.executionIds)).toEqual([[traceId], [split]]);
    await c.dispose();
  });

  it('delivers episodes recorded through GraphQL, once for an idempotent repeat, none for a refused one, filtered by agent and session', async () => {
    const c = wsClient(s.wsUrl, a.token);
    const all = wsSubscribe<Added, Record<string, never>>(c, SUBSCRIBE, {});
    const byAgent = wsSubscribe<Added, { agentId: string }>(c, SUBSCRIBE, { agentId: 'agent-2' });
    const bySession = wsSubscribe<Added, { sessionId: string }>(c, SUBSCRIBE, { sessionId: 's-1' });
    const both = wsSubscribe<Added, { agentId: string; sessionId: string }>(c, SUBSCRIBE, { agentId: 'agent-2', sessionId: 's-1' });
    await settle();
    const e1 = await record('agent-1', 's-1');
    const e2 = await record('agent-2', 's-2');
    const e3 = await record('agent-2', 's-1');
    const input = { agentId: 'agent-3', idempotencyKey: 'episode-once' };
    const [first, again] = [
      await gqlOk(s.url, RecordEpisodeDocument, { input }, a.token),
      await gqlOk(s.url, RecordEpisodeDocument, { input }, a.token),
    ];
    expect(again.recordEpisode.id).toBe(first.recordEpisode.id);
    // a refused write publishes nothing
    const refused = await gql(s.url, RecordEpisodeDocument, { input: { agentId: '' } }, a.token);
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    await all.waitFor(4);
    await settle();
    const ids = (x: typeof all) => x.events.map((e) => e.data?.episodeAdded?.id);
    expect(all.events.every((e) => e.errors === undefined)).toBe(true);
    expect(ids(all)).toEqual([e1.id, e2.id, e3.id, first.recordEpisode.id]);
    expect(ids(byAgent)).toEqual([e2.id, e3.id]);
    expect(ids(bySession)).toEqual([e1.id, e3.id]);
    expect(ids(both)).toEqual([e3.id]);
    await c.dispose();
  });

  it("never delivers another organization's episodes, and its `episodes` never shows them (HTTP and WebSocket)", async () => {
    const agentA = (await s.createKey(a.orgId, 'AGENT')).token;
    const cb = wsClient(s.wsUrl, b.token);
    const subB = wsSubscribe<Added, Record<string, never>>(cb, SUBSCRIBE, {});
    const subBAgent = wsSubscribe<Added, { agentId: string }>(cb, SUBSCRIBE, { agentId: 'Weather Agent' });
    const ca = wsClient(s.wsUrl, a.token);
    const subA = wsSubscribe<Added, Record<string, never>>(ca, SUBSCRIBE, {});
    await settle();
    const traceId = newTraceId();
    expect((await exportSpans(base, agentA, weather(traceId))).code).toBe(0);
    await record('Weather Agent', 'conv_5j66UpCpwteGg4YSxUnt7lPY');
    await subA.waitFor(2);
    await settle();
    expect(subA.events).toHaveLength(2);
    expect(subB.events).toEqual([]);
    expect(subBAgent.events).toEqual([]);
    expect(await episodeIdsOf(b.token, traceId)).toEqual([]);
    const overWs = await wsOnce<Page, unknown>(cb, EPISODES, {});
    expect(overWs.data?.episodes.edges.filter((e) => e.node.executionIds.includes(traceId))).toEqual([]);
    // an episode of B reaches B only
    const own = await record('Weather Agent', null, b.token);
    await subB.waitFor(1);
    await settle();
    expect(subB.events.map((e) => e.data?.episodeAdded?.id)).toEqual([own.id]);
    expect(subA.events).toHaveLength(2);
    await Promise.all([ca.dispose(), cb.dispose()]);
  });

  it('lets a VIEWER subscribe (every role that reads episodes)', async () => {
    const viewer = (await s.createKey(a.orgId, 'VIEWER')).token;
    const c = wsClient(s.wsUrl, viewer);
    const sub = wsSubscribe<Added, { agentId: string }>(c, SUBSCRIBE, { agentId: 'watched' });
    await settle();
    const e = await record('watched', null);
    await sub.waitFor(1);
    expect(sub.errors).toEqual([]);
    expect(sub.events.map((x) => x.data?.episodeAdded?.id)).toEqual([e.id]);
    await c.dispose();
  });

  it('reads the episodes one export announces in one statement, for every subscriber', async () => {
    const agent = (await s.createKey(a.orgId, 'AGENT')).token;
    const ONE = `subscription { episodeAdded { id agentId executionIds } }`;
    type One = { episodeAdded: { id: string; agentId: string; executionIds: string[] } | null };
    const c1 = wsClient(s.wsUrl, a.token);
    const c2 = wsClient(s.wsUrl, a.token);
    const subs = [wsSubscribe<One, Record<string, never>>(c1, ONE, {}), wsSubscribe<One, Record<string, never>>(c2, ONE, {})];
    await settle();
    const traces = Array.from({ length: 6 }, () => newTraceId());
    s.sql.reset();
    expect(
      (
        await exportSpans(
          base,
          agent,
          traces.flatMap((t) => weather(t)),
        )
      ).code,
    ).toBe(0);
    for (const sub of subs) await sub.waitFor(6);
    await settle();
    for (const sub of subs) {
      expect(sub.errors).toEqual([]);
      expect(sub.events.map((e) => e.data?.episodeAdded?.executionIds[0]).sort()).toEqual([...traces].sort());
    }
    // one read of the six episodes by id (one per event before), shared by both subscribers
    const reads = s.sql.statements.filter((q) => /from "episodes" as "e"/i.test(q) && /"e"\."id" = /i.test(q));
    expect(reads).toHaveLength(1);
    await c1.dispose();
    await c2.dispose();
  });

  it('ends a subscription whose events pile up past 10,000 with an error, and the server goes on', async () => {
    const c = wsClient(s.wsUrl, a.token);
    const sub = wsSubscribe<Added, { agentId: string }>(c, SUBSCRIBE, { agentId: 'watched-flood' });
    await settle();
    // published in one turn of the event loop: the subscription's source takes none of them before the last
    for (let i = 0; i < MAX_WAITING_EVENTS + 10; i++) {
      s.app.bus.pubsub.publish('episodeAdded', { orgId: a.orgId, episodeId: randomUUID(), agentId: 'another', sessionId: null });
    }
    await sub.waitFor(1);
    expect(sub.events).toEqual([]);
    expect(sub.errors).toEqual([
      [
        expect.objectContaining({
          message: expect.stringContaining('events behind on this subscription; subscribe again'),
          extensions: expect.objectContaining({ code: 'FELL_BEHIND' }),
        }),
      ],
    ]);
    // the server and a new subscription go on
    const again = wsSubscribe<Added, { agentId: string }>(c, SUBSCRIBE, { agentId: 'watched-flood' });
    await settle();
    const e = await record('watched-flood', null);
    await again.waitFor(1);
    expect(again.events.map((x) => x.data?.episodeAdded?.id)).toEqual([e.id]);
    await c.dispose();
  });

  it('is not served over HTTP', async () => {
    const r = await gql(s.url, SUBSCRIBE, {}, a.token);
    expect(r.errors?.length).toBeGreaterThan(0);
    expect(r.data ?? null).toBeNull();
  });

  it.skipIf(!process.env.REDIS_URL)('reaches subscribers of another server instance through Redis', async () => {
    const env = { REDIS_URL: process.env.REDIS_URL! };
    const one = await startTestServer({ env });
    const two = await startTestServer({ env, dbUrl: one.dbUrl });
    try {
      const orgA = await one.createOrg('redis-episodes-A');
      const orgB = await one.createOrg('redis-episodes-B');
      const agent = (await one.createKey(orgA.orgId, 'AGENT')).token;
      const ca = wsClient(two.wsUrl, orgA.token);
      const cb = wsClient(two.wsUrl, orgB.token);
      const subA = wsSubscribe<Added, Record<string, never>>(ca, SUBSCRIBE, {});
      const subB = wsSubscribe<Added, Record<string, never>>(cb, SUBSCRIBE, {});
      await settle(500);
      const traceId = newTraceId();
      expect((await exportSpans(one.url.replace(/\/graphql$/, ''), agent, weather(traceId))).code).toBe(0);
      const answered = Date.now();
      await subA.waitFor(1, 1000);
      expect(Date.now() - answered).toBeLessThan(1000);
      expect(subA.events.map((e) => e.data?.episodeAdded?.executionIds)).toEqual([[traceId]]);
      await settle();
      expect(subB.events).toEqual([]);
      await Promise.all([ca.dispose(), cb.dispose()]);
    } finally {
      await two.close();
      await one.close();
    }
  });
});
