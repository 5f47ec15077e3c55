import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ViewerDocument } from './generated/graphql';
import { codeOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { cloneDatabase } from './helpers/db';
import { startTestServer, type TestServer } from './helpers/server';
import { tcpProxy, type TcpProxy } from './helpers/tcp-proxy';

let s: TestServer;
let proxy: TcpProxy;
let org: { orgId: string; token: string };
let other: { orgId: string; token: string };

beforeAll(async () => {
  // the server reaches its database through a relay the test can cut, as a network or server outage
  proxy = await tcpProxy(await cloneDatabase());
  s = await startTestServer({ dbUrl: proxy.url });
  org = await s.createOrg('outage');
  other = await s.createOrg('bystander');
});
afterAll(async () => {
  await proxy?.restore().catch(() => {});
  await s?.close();
  await proxy?.close();
});

const RECORD = 'mutation($input: RecordEpisodeInput!) { recordEpisode(input: $input) { id title } }';
const EPISODES = '{ episodes(first: 5) { edges { node { id title } } } }';
const base = () => s.url.replace('/graphql', '');
const episodesOf = async (orgId: string) => {
  const [r] = await s.app.db.orm.em.fork().execute('SELECT count(*)::int AS n FROM episodes WHERE org_id = ?', [orgId]);
  return r.n as number;
};

/** Retries `fn` until it stops throwing (the pool reconnecting), at most `attempts` times. */
async function eventually<T>(fn: () => Promise<T>, attempts = 50): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (i >= attempts) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('while the database is unreachable', () => {
  it('answers SERVICE_UNAVAILABLE (HTTP 503) on HTTP and WebSocket, /readyz says so, and a retried write lands once afterwards', async () => {
    const input = { agentId: 'a', title: 'written after the outage', idempotencyKey: 'outage-write-1' };
    const open = wsClient(s.wsUrl, org.token);
    expect((await wsOnce(open, ViewerDocument)).data?.viewer.role).toBe('ADMIN');
    // a key never used before the outage cannot be authenticated from the key cache
    const unseen = await s.createKey(org.orgId, 'VIEWER');
    const logged = s.logs.length;

    await proxy.cut();
    try {
      const read = await gql(s.url, EPISODES, {}, org.token);
      expect([read.status, codeOf(read)]).toEqual([503, 'SERVICE_UNAVAILABLE']);
      expect(read.errors?.[0].message).toMatch(/retry/);
      const unauthenticated = await gql(s.url, ViewerDocument, {}, unseen.token);
      expect([unauthenticated.status, codeOf(unauthenticated)]).toEqual([503, 'SERVICE_UNAVAILABLE']);
      // a key authenticated moments ago is served from the key cache: `viewer` needs no database
      expect((await gqlOk(s.url, ViewerDocument, {}, org.token)).viewer.role).toBe('ADMIN');
      expect(read.errors?.[0].message).toMatch(/retry/);
      const write = await gql(s.url, RECORD, { input }, org.token);
      expect([write.status, codeOf(write)]).toEqual([503, 'SERVICE_UNAVAILABLE']);

      const ready = await fetch(`${base()}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([503, { status: 'database unreachable' }]);
      expect((await fetch(`${base()}/healthz`)).status).toBe(200);

      // a socket authenticated before the outage gets the code on its operations
      const overWs = await wsOnce(open, EPISODES);
      expect(codeOf(overWs)).toBe('SERVICE_UNAVAILABLE');
      // a new socket of an unseen key cannot be authenticated: closed with 1013 (try again later), not 4403
      const late = wsClient(s.wsUrl, unseen.token);
      expect((await late.closed).code).toBe(1013);
    } finally {
      await proxy.restore();
    }

    const replay = await eventually(() => gqlOk<{ recordEpisode: { id: string } }, unknown>(s.url, RECORD, { input }, org.token));
    const again = await gqlOk<{ recordEpisode: { id: string } }, unknown>(s.url, RECORD, { input }, org.token);
    expect(again.recordEpisode.id).toBe(replay.recordEpisode.id);
    expect(await episodesOf(org.orgId)).toBe(1);
    expect(await episodesOf(other.orgId)).toBe(0);
    expect((await wsOnce(open, EPISODES)).errors).toBeUndefined();
    expect((await fetch(`${base()}/readyz`)).status).toBe(200);
    await open.dispose();

    // the outage is a warning, not an unexpected error
    const during = s.logs.slice(logged);
    expect(during.some((l) => l.msg === 'database unavailable')).toBe(true);
    expect(during.filter((l) => l.msg === 'unexpected error')).toEqual([]);
  });
});
