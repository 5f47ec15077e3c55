import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppendSegmentsDocument, ForgetEpisodesDocument, MemoryContextDocument, RecordEpisodeDocument } from './generated/graphql';
import { gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

// memoryContext answers from a per-instance cache of candidate lists; these tests pin that it is
// never stale (writes on any instance), never shared between organizations, and that a cached
// answer costs one statement that reads no segment
let s: TestServer;
let two: TestServer;
let a: { orgId: string; token: string };
let b: { orgId: string; token: string };

const DAY = 86_400_000;
const record = (url: string, token: string, agentId: string, contents: string[], at?: Date) =>
  gqlOk(
    url,
    RecordEpisodeDocument,
    {
      input: {
        agentId,
        sessionId: 'chat',
        ...(at ? { occurredAt: at.toISOString() } : {}),
        segments: contents.map((content) => ({ role: 'user', content })),
      },
    },
    token,
  ).then((r) => r.recordEpisode.id);
/** every candidate (RECENT with a budget larger than all of them), oldest first */
const contents = (url: string, token: string, agentId = 'assistant', extra: Record<string, unknown> = {}) =>
  gqlOk(url, MemoryContextDocument, { input: { agentId, tokenBudget: 1_000_000, mode: 'RECENT', ...extra } }, token).then((r) =>
    r.memoryContext.entries.map((e) => e.content),
  );
const cacheOf = (t: TestServer) => t.app.memoryCache;
/** statements of the last request besides authentication, and whether any read segments */
const work = (t: TestServer) => ({ statements: t.sql.besidesAuth, readSegments: t.sql.statements.some((q) => /episode_segments/.test(q)) });
const measured = async <T>(t: TestServer, run: () => Promise<T>) => {
  t.sql.reset();
  const value = await run();
  return { value, ...work(t) };
};

beforeAll(async () => {
  s = await startTestServer();
  two = await startTestServer({ dbUrl: s.dbUrl });
  a = await s.createOrg('cache-a');
  b = await s.createOrg('cache-b');
  await record(s.url, a.token, 'assistant', ['alpha one', 'alpha two'], new Date(Date.now() - 2 * DAY));
  await record(s.url, b.token, 'assistant', ['bravo one']);
});
afterAll(async () => {
  await two?.close();
  await s?.close();
});

describe('memoryContext candidate cache', () => {
  it('answers a repeated request from the cache: one statement besides authentication, reading no segment', async () => {
    const first = await measured(s, () => contents(s.url, a.token));
    expect(first.value).toEqual(['alpha one', 'alpha two']);
    const builds = cacheOf(s).builds;
    const again = await measured(s, () => contents(s.url, a.token));
    expect(again).toEqual({ value: ['alpha one', 'alpha two'], statements: 1, readSegments: false });
    expect(cacheOf(s).builds).toBe(builds);
    // another policy, budget and query over the same candidates: still cached
    const relevant = await measured(s, () =>
      gqlOk(s.url, MemoryContextDocument, { input: { agentId: 'assistant', query: 'TWO', tokenBudget: 5, mode: 'RELEVANT' } }, a.token),
    );
    expect(relevant.value.memoryContext.entries.map((e) => e.content)).toEqual(['alpha two']);
    expect(relevant.readSegments).toBe(false);
  });

  it('sees a segment appended or an episode recorded on this or another instance in the very next request', async () => {
    await contents(s.url, a.token);
    await contents(two.url, a.token);
    const [episodeId] = (
      await gqlOk(s.url, MemoryContextDocument, { input: { agentId: 'assistant', tokenBudget: 100, mode: 'RECENT' } }, a.token)
    ).memoryContext.entries.map((e) => e.episodeId);
    await gqlOk(two.url, AppendSegmentsDocument, { episodeId, segments: [{ role: 'assistant', content: 'alpha three' }] }, a.token);
    for (const t of [s, two]) {
      const next = await measured(t, () => contents(t.url, a.token));
      expect(next.value).toEqual(['alpha one', 'alpha two', 'alpha three']);
      expect(next.readSegments).toBe(true);
    }
    await record(s.url, a.token, 'assistant', ['alpha four']);
    for (const t of [two, s]) expect(await contents(t.url, a.token)).toEqual(['alpha one', 'alpha two', 'alpha three', 'alpha four']);
    // and cached again after that
    expect(await measured(two, () => contents(two.url, a.token))).toMatchObject({ statements: 1, readSegments: false });
  });

  it('drops a forgotten episode from the very next request on every instance', async () => {
    const org = await s.createOrg('cache-forget');
    await record(s.url, org.token, 'assistant', ['stale setup'], new Date(Date.now() - 200 * DAY));
    await record(s.url, org.token, 'assistant', ['fresh turn']);
    for (const t of [s, two]) expect(await contents(t.url, org.token)).toEqual(['stale setup', 'fresh turn']);
    const forgot = await gqlOk(two.url, ForgetEpisodesDocument, { input: {} }, org.token);
    expect(forgot.forgetEpisodes.deleted).toBe(1);
    for (const t of [s, two]) expect(await contents(t.url, org.token)).toEqual(['fresh turn']);
  });

  it('keeps one list per organization, session and size: the same agent id of another organization shares nothing, over HTTP and WebSocket', async () => {
    expect(await contents(s.url, b.token)).toEqual(['bravo one']);
    const wsA = wsClient(s.wsUrl, a.token);
    const wsB = wsClient(s.wsUrl, b.token);
    try {
      const viaWs = async (client: typeof wsA) =>
        (
          (await wsOnce(client, MemoryContextDocument, { input: { agentId: 'assistant', tokenBudget: 1_000_000, mode: 'RECENT' } })).data
            ?.memoryContext.entries ?? []
        ).map((e) => e.content);
      expect(await viaWs(wsB)).toEqual(['bravo one']);
      expect(await viaWs(wsA)).toEqual(['alpha one', 'alpha two', 'alpha three', 'alpha four']);
      // a write in one organization leaves the other's list cached
      await record(s.url, b.token, 'assistant', ['bravo two']);
      expect(await viaWs(wsB)).toEqual(['bravo one', 'bravo two']);
      expect(await measured(s, () => contents(s.url, a.token))).toMatchObject({ statements: 1, readSegments: false });
      expect(await viaWs(wsA)).not.toContain('bravo two');
    } finally {
      await Promise.all([wsA.dispose(), wsB.dispose()]);
    }
    expect(await contents(s.url, a.token, 'assistant', { sessionId: 'other' })).toEqual([]);
    expect(await contents(s.url, a.token, 'assistant', { sessionId: 'chat' })).toEqual([
      'alpha one',
      'alpha two',
      'alpha three',
      'alpha four',
    ]);
    expect(await contents(s.url, a.token, 'assistant', { maxCandidates: 3 })).toEqual(['alpha one', 'alpha two', 'alpha three']);
  });

  it('keeps nothing with MEMORY_CACHE_MAX_MB=0 and still answers', async () => {
    const off = await startTestServer({ dbUrl: s.dbUrl, env: { MEMORY_CACHE_MAX_MB: '0' } });
    try {
      for (let i = 0; i < 2; i++)
        expect(await measured(off, () => contents(off.url, b.token))).toEqual({
          value: ['bravo one', 'bravo two'],
          statements: 1,
          readSegments: true,
        });
      expect(cacheOf(off).size).toBe(0);
    } finally {
      await off.close();
    }
  });
});
