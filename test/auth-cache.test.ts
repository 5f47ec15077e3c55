import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyCache } from '../src/modules/orgs/key-cache';
import type { Viewer } from '../src/modules/orgs/orgs.service';
import { EpisodesDocument, RevokeApiKeyDocument, ViewerDocument } from './generated/graphql';
import { codeOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

const viewer = (apiKeyId: string): Viewer => ({ apiKeyId, apiKeyName: 'k', orgId: 'o', orgName: 'org', role: 'VIEWER' });

/** Polls `fn` until it returns true (an event crossing instances through Redis), at most 5 s. */
async function eventually(fn: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('the key cache', () => {
  it('keeps a looked-up key until its time to live runs out', () => {
    let now = 1_000;
    const cache = new KeyCache(500, 10, () => now);
    cache.set('h1', viewer('k1'), cache.begin());
    expect(cache.get('h1')?.apiKeyId).toBe('k1');
    now += 499;
    expect(cache.get('h1')?.apiKeyId).toBe('k1');
    now += 1;
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('holds at most its number of entries, the oldest going first', () => {
    const cache = new KeyCache(60_000, 3);
    for (let i = 1; i <= 5; i++) cache.set(`h${i}`, viewer(`k${i}`), cache.begin());
    expect(cache.size).toBe(3);
    expect([1, 2, 3, 4, 5].map((i) => cache.get(`h${i}`)?.apiKeyId ?? null)).toEqual([null, null, 'k3', 'k4', 'k5']);
  });

  it('forgets every token of a revoked key, and drops the answer of a lookup that a revocation overtook', () => {
    const cache = new KeyCache(60_000);
    cache.set('h1', viewer('k1'), cache.begin());
    cache.set('h2', viewer('k2'), cache.begin());
    const running = cache.begin(); // a lookup of k1 starts before the revocation commits
    cache.forgetKeys(new Set(['k1']));
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h2')?.apiKeyId).toBe('k2');
    cache.set('h1', viewer('k1'), running);
    expect(cache.get('h1')).toBeUndefined();
  });

  it('keeps nothing with a time to live of 0', () => {
    const cache = new KeyCache(0);
    cache.set('h1', viewer('k1'), cache.begin());
    expect(cache.get('h1')).toBeUndefined();
  });
});

describe('authentication through the key cache', () => {
  let s: TestServer;
  let orgA: { orgId: string; token: string };
  let orgB: { orgId: string; token: string };
  beforeAll(async () => {
    s = await startTestServer({ env: { KEY_CACHE_TTL_MS: '60000' } });
    orgA = await s.createOrg('cache A');
    orgB = await s.createOrg('cache B');
  });
  afterAll(() => s?.close());

  it('looks a busy key up once: its next requests run no authentication statement', async () => {
    const key = await s.createKey(orgA.orgId, 'VIEWER');
    s.sql.reset();
    await gqlOk(s.url, ViewerDocument, {}, key.token);
    expect(s.sql.count).toBe(1);
    s.sql.reset();
    for (let i = 0; i < 3; i++) await gqlOk(s.url, ViewerDocument, {}, key.token);
    expect(s.sql.count).toBe(0);
  });

  it('answers each organization as itself when their keys alternate', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await gqlOk(s.url, ViewerDocument, {}, orgA.token)).viewer.orgId).toBe(orgA.orgId);
      expect((await gqlOk(s.url, ViewerDocument, {}, orgB.token)).viewer.orgId).toBe(orgB.orgId);
    }
    const mine = await gqlOk(s.url, EpisodesDocument, { first: 5 }, orgB.token);
    expect(mine.episodes.edges).toEqual([]);
  });

  it('refuses a revoked key on the very next request, over HTTP and WebSocket', async () => {
    const key = await s.createKey(orgA.orgId, 'AGENT');
    await gqlOk(s.url, ViewerDocument, {}, key.token); // now cached
    await gqlOk(s.url, RevokeApiKeyDocument, { id: key.id }, orgA.token);
    const r = await gql(s.url, ViewerDocument, {}, key.token);
    expect([r.status, codeOf(r)]).toEqual([401, 'UNAUTHENTICATED']);
    expect((await wsClient(s.wsUrl, key.token).closed).code).toBe(4403);
  });

  it('does not let another organization revoke a key, cached or not', async () => {
    const key = await s.createKey(orgA.orgId, 'VIEWER');
    await gqlOk(s.url, ViewerDocument, {}, key.token);
    const r = await gql(s.url, RevokeApiKeyDocument, { id: key.id }, orgB.token);
    expect(codeOf(r)).toBe('NOT_FOUND');
    expect((await gqlOk(s.url, ViewerDocument, {}, key.token)).viewer.apiKeyId).toBe(key.id);
  });
});

describe('a key revoked with SQL, behind every server', () => {
  it('is refused once the time to live runs out, and at once by a socket re-check', async () => {
    const s = await startTestServer({ env: { KEY_CACHE_TTL_MS: '300', KEY_RECHECK_MS: '60000' } });
    try {
      const org = await s.createOrg('ttl');
      const key = await s.createKey(org.orgId, 'VIEWER');
      await gqlOk(s.url, ViewerDocument, {}, key.token);
      await s.app.db.orm.em.fork().execute('UPDATE api_keys SET revoked_at = now() WHERE id = ?', [key.id]);
      await new Promise((r) => setTimeout(r, 350));
      expect(codeOf(await gql(s.url, ViewerDocument, {}, key.token))).toBe('UNAUTHENTICATED');
    } finally {
      await s.close();
    }
  });

  it('is forgotten by the WebSocket re-check that finds it revoked', async () => {
    const s = await startTestServer({ env: { KEY_CACHE_TTL_MS: '60000', KEY_RECHECK_MS: '200' } });
    try {
      const org = await s.createOrg('recheck');
      const key = await s.createKey(org.orgId, 'VIEWER');
      const c = wsClient(s.wsUrl, key.token);
      await wsOnce(c, ViewerDocument);
      await gqlOk(s.url, ViewerDocument, {}, key.token);
      await s.app.db.orm.em.fork().execute('UPDATE api_keys SET revoked_at = now() WHERE id = ?', [key.id]);
      expect((await c.closed).code).toBe(4403);
      expect(codeOf(await gql(s.url, ViewerDocument, {}, key.token))).toBe('UNAUTHENTICATED');
    } finally {
      await s.close();
    }
  });
});

describe.skipIf(!process.env.REDIS_URL)('revocation across instances (Redis)', () => {
  it('reaches the key cache of every instance', async () => {
    const env = { REDIS_URL: process.env.REDIS_URL!, KEY_CACHE_TTL_MS: '60000', KEY_RECHECK_MS: '60000' };
    const a = await startTestServer({ env });
    const b = await startTestServer({ env, dbUrl: a.dbUrl });
    try {
      const org = await a.createOrg('two instances');
      const key = await a.createKey(org.orgId, 'AGENT');
      await gqlOk(b.url, ViewerDocument, {}, key.token); // cached on b
      b.sql.reset();
      await gqlOk(b.url, ViewerDocument, {}, key.token);
      expect(b.sql.count).toBe(0);
      await gqlOk(a.url, RevokeApiKeyDocument, { id: key.id }, org.token);
      expect(await eventually(async () => codeOf(await gql(b.url, ViewerDocument, {}, key.token)) === 'UNAUTHENTICATED')).toBe(true);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
