import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedbackAddedDocument, RecordEpisodeDocument, RevokeApiKeyDocument, SubmitFeedbackDocument } from './generated/graphql';
import { gqlOk, wsClient, wsSubscribe } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

// subscribers sharing one stream: the same operation, organization and role
let s: TestServer;
let a: { orgId: string; token: string };
let b: { orgId: string; token: string };

beforeAll(async () => {
  s = await startTestServer({ env: { KEY_RECHECK_MS: '60000' } });
  a = await s.createOrg('A');
  b = await s.createOrg('B');
});
afterAll(() => s?.close());

type Sub = ReturnType<typeof wsSubscribe<unknown, unknown>>;
interface Event {
  feedbackAdded: {
    feedback: { id: string; feedbackType?: string; agentId?: string | null; rating?: number | null };
    episode?: { id: string; feedbackCount: number } | null;
  };
}
const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));
const episode = (agentId: string, token = a.token, url = s.url) =>
  gqlOk(url, RecordEpisodeDocument, { input: { agentId } }, token).then((r) => r.recordEpisode);
const feedback = (episodeId: string, token = a.token, url = s.url, rating?: number) =>
  gqlOk(
    url,
    SubmitFeedbackDocument,
    { input: { episodeId, ...(rating ? { feedbackType: 'RATING', rating } : { feedbackType: 'THUMBS_UP' }) } },
    token,
  ).then((r) => r.submitFeedback.feedback.id);
const ids = (sub: Sub) => sub.events.map((e) => (e.data as Event | undefined)?.feedbackAdded.feedback.id);
const all = (subs: Sub[], n: number) => Promise.all(subs.map((x) => x.waitFor(n)));
/** statements since the last reset, without the periodic API key re-check of open sockets */
const reads = (t: TestServer) => t.sql.statements.filter((q) => !/FROM api_keys WHERE id = ANY/i.test(q)).length;
const metric = async (t: TestServer, name: string) => {
  const text = await (await fetch(t.url.replace('/graphql', '/metrics'))).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
};
/** waits until the server has this many subscriptions open and this many shared streams receiving events */
const ready = async (t: TestServer, subscriptions: number, streams: number) => {
  let seen: number[] = [];
  for (let i = 0; i < 500; i++) {
    seen = [await metric(t, 'graphql_subscriptions_open'), await metric(t, 'graphql_subscription_streams_open')];
    if (seen[0] === subscriptions && seen[1] === streams) return settle(200);
    await settle(20);
  }
  throw new Error(`expected ${subscriptions} subscriptions on ${streams} streams, the server has ${seen.join(' on ')}`);
};
const ALT = 'subscription Alt { feedbackAdded { feedback { id rating } } }';

describe('feedbackAdded fan-out', () => {
  it('delivers every event exactly once to each subscriber of one operation; leaving ends only the one that leaves', async () => {
    const ep = await episode('fan');
    const clients = Array.from({ length: 10 }, () => wsClient(s.wsUrl, a.token));
    // three subscriptions per socket: 30 subscribers of one operation
    const subs = clients.flatMap((c) =>
      Array.from({ length: 3 }, () => wsSubscribe(c, FeedbackAddedDocument, { episodeId: ep.id }) as Sub),
    );
    await ready(s, 30, 1);
    const sent: string[] = [];
    for (let k = 1; k <= 3; k++) {
      sent.push(await feedback(ep.id));
      await all(subs, k);
    }
    await settle();
    for (const sub of subs) {
      expect(sub.errors).toEqual([]);
      expect(ids(sub)).toEqual(sent);
      // each event as committed: the k-th shows the episode with k feedback
      expect(sub.events.map((e) => (e.data as Event).feedbackAdded.episode)).toEqual(
        [1, 2, 3].map((n) => expect.objectContaining({ id: ep.id, feedbackCount: n })),
      );
    }
    expect(new Set(subs.map((x) => JSON.stringify(x.events))).size).toBe(1);

    // one subscription completes, one socket closes: the other 26 go on
    subs[0].dispose();
    await clients[1].dispose();
    await ready(s, 26, 1);
    sent.push(await feedback(ep.id));
    const rest = subs.filter((_, i) => i !== 0 && Math.floor(i / 3) !== 1);
    await all(rest, 4);
    await settle();
    for (const sub of rest) expect(ids(sub)).toEqual(sent);
    for (const gone of [subs[0], subs[3], subs[4], subs[5]]) expect(ids(gone)).toEqual(sent.slice(0, 3));

    await Promise.all(clients.map(async (c) => c.dispose()));
    await ready(s, 0, 0);
  });

  it('gives other variables and other selections only their own events', async () => {
    const ep1 = await episode('x');
    const ep2 = await episode('y');
    const c1 = wsClient(s.wsUrl, a.token);
    const c2 = wsClient(s.wsUrl, a.token);
    const twice = (f: (c: ReturnType<typeof wsClient>) => Sub) => [f(c1), f(c2)];
    const everything = twice((c) => wsSubscribe(c, FeedbackAddedDocument, {}));
    const byEpisode = twice((c) => wsSubscribe(c, FeedbackAddedDocument, { episodeId: ep1.id }));
    const byAgent = twice((c) => wsSubscribe(c, FeedbackAddedDocument, { agentId: 'y' }));
    const ratings = twice((c) => wsSubscribe(c, FeedbackAddedDocument, { types: ['RATING'] }));
    const alt = twice((c) => wsSubscribe(c, ALT));
    await ready(s, 10, 5);
    const f1 = await feedback(ep1.id);
    const f2 = await feedback(ep2.id, a.token, s.url, 5);
    const f3 = await feedback(ep2.id);
    await all([...everything, ...alt], 3);
    await settle();
    for (const x of everything) expect(ids(x)).toEqual([f1, f2, f3]);
    for (const x of byEpisode) expect(ids(x)).toEqual([f1]);
    for (const x of byAgent) expect(ids(x)).toEqual([f2, f3]);
    for (const x of ratings) expect(ids(x)).toEqual([f2]);
    for (const x of alt)
      expect(x.events.map((e) => e.data)).toEqual(
        [f1, f2, f3].map((id, i) => ({ feedbackAdded: { feedback: { id, rating: i === 1 ? 5 : null } } })),
      );
    await Promise.all([c1.dispose(), c2.dispose()]);
    await ready(s, 0, 0);
  });

  it('never lets an event cross organizations, even for byte-identical documents and variables', async () => {
    const epA = await episode('same', a.token);
    const epB = await episode('same', b.token);
    const clients: ReturnType<typeof wsClient>[] = [];
    const open = (token: string, variables: object) =>
      Array.from({ length: 4 }, () => {
        clients.push(wsClient(s.wsUrl, token));
        return wsSubscribe(clients.at(-1)!, FeedbackAddedDocument, variables);
      });
    // org B subscribes with org A's episode id: the same bytes as org A's subscribers
    const [aAll, aEp, bAll, bEp] = [
      open(a.token, {}),
      open(a.token, { episodeId: epA.id }),
      open(b.token, {}),
      open(b.token, { episodeId: epA.id }),
    ];
    await ready(s, 16, 4);
    const [fromA, fromB] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, () => feedback(epA.id, a.token))),
      Promise.all(Array.from({ length: 3 }, () => feedback(epB.id, b.token))),
    ]);
    await all([...aAll, ...aEp], 5);
    await all(bAll, 3);
    await settle();
    const sorted = (xs: unknown[]) => [...xs].sort();
    for (const x of [...aAll, ...aEp]) expect(sorted(ids(x))).toEqual(sorted(fromA));
    for (const x of bAll) expect(sorted(ids(x))).toEqual(sorted(fromB));
    for (const x of bEp) expect(x.events).toEqual([]);
    await Promise.all(clients.map(async (c) => c.dispose()));
    await ready(s, 0, 0);
  });

  it('closes the socket of a revoked key; other subscribers of the same operation keep receiving', async () => {
    const ep = await episode('revoke');
    const k1 = await s.createKey(a.orgId, 'VIEWER', 'dash-1');
    const k2 = await s.createKey(a.orgId, 'VIEWER', 'dash-2');
    // the revoked key's subscriber is the one that opened the shared stream
    const c1 = wsClient(s.wsUrl, k1.token);
    const first = wsSubscribe(c1, FeedbackAddedDocument, { episodeId: ep.id }) as Sub;
    await ready(s, 1, 1);
    const c2 = wsClient(s.wsUrl, k2.token);
    const others = [
      wsSubscribe(c2, FeedbackAddedDocument, { episodeId: ep.id }) as Sub,
      wsSubscribe(c2, FeedbackAddedDocument, { episodeId: ep.id }) as Sub,
    ];
    await ready(s, 3, 1);
    const f1 = await feedback(ep.id);
    await all([first, ...others], 1);
    await gqlOk(s.url, RevokeApiKeyDocument, { id: k1.id }, a.token);
    expect((await c1.closed).code).toBe(4403);
    await ready(s, 2, 1);
    const f2 = await feedback(ep.id);
    await all(others, 2);
    await settle();
    expect(ids(first)).toEqual([f1]);
    for (const x of others) expect(ids(x)).toEqual([f1, f2]);
    await c2.dispose();
    await ready(s, 0, 0);
  });

  it('reads the feedback and episode once per event, however many subscribers and selections', async () => {
    const ep = await episode('count');
    // statements of one event: its write, and every subscriber's delivery of it
    const measure = async (subs: Sub[]) => {
      const before = subs.map((x) => x.events.length);
      s.sql.reset();
      await feedback(ep.id);
      await Promise.all(subs.map((x, i) => x.waitFor(before[i] + 1)));
      await settle(100);
      return reads(s);
    };
    const withNone = await measure([]);
    const c = wsClient(s.wsUrl, a.token);
    const one = [wsSubscribe(c, FeedbackAddedDocument, { episodeId: ep.id }) as Sub];
    await ready(s, 1, 1);
    const withOne = await measure(one);
    const clients = Array.from({ length: 5 }, () => wsClient(s.wsUrl, a.token));
    const many = [
      ...one,
      ...clients.flatMap((x) => Array.from({ length: 5 }, () => wsSubscribe(x, FeedbackAddedDocument, { episodeId: ep.id }) as Sub)),
    ];
    await ready(s, 26, 1);
    const withMany = await measure(many);
    // another selection of the same event reads nothing more either
    const alt: Sub = wsSubscribe(c, ALT);
    await ready(s, 27, 2);
    const withAlt = await measure([...many, alt]);
    console.log(
      `statements per event: mutation only ${withNone}, 1 subscriber ${withOne}, 26 subscribers ${withMany}, and a second selection ${withAlt}`,
    );
    expect(withOne - withNone).toBe(2); // the feedback and its episode
    expect(withMany).toBe(withOne);
    expect(withAlt).toBe(withOne);
    expect(one[0].events).toHaveLength(3);
    expect(many.slice(1).every((x) => x.events.length === 2 && !x.errors.length)).toBe(true);
    expect(alt.events).toHaveLength(1);
    await Promise.all([c, ...clients].map(async (x) => x.dispose()));
    await ready(s, 0, 0);
  });

  it.skipIf(!process.env.REDIS_URL)('shares streams on each instance through Redis and keeps organizations apart', async () => {
    const env = { REDIS_URL: process.env.REDIS_URL!, KEY_RECHECK_MS: '60000' };
    const one = await startTestServer({ env });
    const two = await startTestServer({ env, dbUrl: one.dbUrl });
    try {
      const orgA = await one.createOrg('redis-A');
      const orgB = await one.createOrg('redis-B');
      const ep = await episode('r', orgA.token, one.url);
      const epB = await episode('r', orgB.token, one.url);
      const clients: ReturnType<typeof wsClient>[] = [];
      const open = (t: TestServer, token: string, n: number) =>
        Array.from({ length: n }, () => {
          clients.push(wsClient(t.wsUrl, token));
          return wsSubscribe(clients.at(-1)!, FeedbackAddedDocument, {});
        });
      const first = open(two, orgA.token, 1);
      await ready(two, 1, 1);
      two.sql.reset();
      const f1 = await feedback(ep.id, orgA.token, one.url);
      await all(first, 1);
      await settle(100);
      const withOne = reads(two);
      // the same bytes from another organization on both instances, and more of org A
      const aTwo = [...first, ...open(two, orgA.token, 19)];
      const aOne = open(one, orgA.token, 5);
      const bTwo = open(two, orgB.token, 10);
      await ready(two, 30, 2);
      await ready(one, 5, 1);
      two.sql.reset();
      const f2 = await feedback(ep.id, orgA.token, one.url);
      await all(first, 2);
      await all([...aTwo.slice(1), ...aOne], 1);
      await settle(100);
      const withMany = reads(two);
      const g1 = await feedback(epB.id, orgB.token, one.url);
      await all(bTwo, 1);
      await settle();
      expect(withOne).toBeGreaterThan(0);
      expect(withMany).toBe(withOne);
      expect(ids(first[0])).toEqual([f1, f2]);
      for (const x of aTwo.slice(1)) expect(ids(x)).toEqual([f2]);
      for (const x of aOne) expect(ids(x)).toEqual([f2]);
      for (const x of bTwo) expect(ids(x)).toEqual([g1]);
      await Promise.all(clients.map(async (c) => c.dispose()));
    } finally {
      await two.close();
      await one.close();
    }
  });
});
