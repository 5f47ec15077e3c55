import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeartbeatDocument, ViewerDocument } from './generated/graphql';
import { wsClient, wsOnce, wsSubscribe } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

// two sockets per key, three operations per key over all its sockets
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ env: { WS_SOCKETS_PER_KEY: '2', WS_SUBSCRIPTIONS_PER_KEY: '3' } });
});
afterAll(() => s?.close());

type Client = ReturnType<typeof wsClient>;
const metric = async (name: string) => {
  const text = await (await fetch(s.url.replace('/graphql', '/metrics'))).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
};
/** waits until the server counts `n` of a gauge (sockets or subscriptions close asynchronously) */
const until = async (name: string, n: number) => {
  for (let i = 0; i < 500; i++) {
    if ((await metric(name)) === n) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${name} never reached ${n}`);
};
const connected = async (c: Client, orgId: string) => expect((await wsOnce(c, ViewerDocument)).data?.viewer.orgId).toBe(orgId);

describe('WebSocket caps per API key', () => {
  it("closes a key's third socket with 1013; other keys and organizations connect, and a closed socket frees its place", async () => {
    const a = await s.createOrg('sockets-A');
    const b = await s.createOrg('sockets-B');
    const mate = await s.createKey(a.orgId, 'VIEWER', 'mate');
    const [c1, c2] = [wsClient(s.wsUrl, a.token), wsClient(s.wsUrl, a.token)];
    await connected(c1, a.orgId);
    await connected(c2, a.orgId);
    const c3 = wsClient(s.wsUrl, a.token);
    expect(await c3.closed).toEqual({ code: 1013, reason: 'too many sockets are open for this API key' });
    const others = [wsClient(s.wsUrl, mate.token), wsClient(s.wsUrl, b.token)];
    await connected(others[0], a.orgId);
    await connected(others[1], b.orgId);
    // the first two still work
    await connected(c1, a.orgId);
    await until('graphql_websockets_open', 4);
    await c2.dispose();
    await until('graphql_websockets_open', 3);
    const c4 = wsClient(s.wsUrl, a.token);
    await connected(c4, a.orgId);
    await Promise.all([c1, c4, ...others].map(async (c) => c.dispose()));
    await until('graphql_websockets_open', 0);
  });

  it("refuses a key's fourth subscription over its sockets with RATE_LIMITED; the sockets and other keys go on", async () => {
    const a = await s.createOrg('subs-A');
    const b = await s.createOrg('subs-B');
    const [c1, c2] = [wsClient(s.wsUrl, a.token), wsClient(s.wsUrl, a.token)];
    const beat = (c: Client) => wsSubscribe(c, HeartbeatDocument, { intervalSeconds: 3600 });
    const open = [beat(c1), beat(c1), beat(c2)];
    await Promise.all(open.map((x) => x.waitFor(1)));
    expect(open.every((x) => x.events.length === 1 && x.errors.length === 0)).toBe(true);
    const fourth = beat(c2);
    await fourth.waitFor(1);
    expect(fourth.events).toHaveLength(0);
    const [err] = fourth.errors[0] as { message: string; extensions: Record<string, unknown> }[];
    expect(err.message).toBe('at most 3 subscriptions may be open at once for one API key');
    expect(err.extensions).toMatchObject({ code: 'RATE_LIMITED', requestId: expect.any(String) });
    expect(err.extensions.retryAfterMs).toBeUndefined();
    // another organization's key has its own count
    const other = wsClient(s.wsUrl, b.token);
    const theirs = beat(other);
    await theirs.waitFor(1);
    expect(theirs.events).toHaveLength(1);
    // ending one subscription frees a place for the key, on either socket
    await until('graphql_subscriptions_open', 4);
    open[0].dispose();
    await until('graphql_subscriptions_open', 3);
    const again = beat(c2);
    await again.waitFor(1);
    expect(again.events).toHaveLength(1);
    // closing a socket frees the places of its subscriptions
    await c1.dispose();
    await until('graphql_subscriptions_open', 3);
    const more = [beat(c2), beat(c2)];
    await Promise.all(more.map((x) => x.waitFor(1)));
    expect(more.map((x) => x.events.length)).toEqual([1, 0]);
    await Promise.all([c2.dispose(), other.dispose()]);
    await until('graphql_subscriptions_open', 0);
  });

  it('refuses heartbeats more often than every 5 seconds with BAD_USER_INPUT and accepts 5', async () => {
    const a = await s.createOrg('beat');
    const c = wsClient(s.wsUrl, a.token);
    const fast = wsSubscribe(c, HeartbeatDocument, { intervalSeconds: 4 });
    await fast.waitFor(1);
    const errs = (fast.events[0]?.errors ?? fast.errors.flat()) as { message: string; extensions?: Record<string, unknown> }[];
    expect(errs[0]).toMatchObject({
      message: 'intervalSeconds must be 5..3600',
      extensions: { code: 'BAD_USER_INPUT', field: 'intervalSeconds' },
    });
    const ok = wsSubscribe(c, HeartbeatDocument, { intervalSeconds: 5 });
    await ok.waitFor(1);
    expect(ok.events[0]?.data?.heartbeat).toEqual(expect.any(String));
    await c.dispose();
  });
});
