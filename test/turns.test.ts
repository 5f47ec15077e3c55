import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { jsonInTurns } from '../src/core/json-in-turns';
import { turns, Turns } from '../src/core/turns';
import { wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

const pass = () => new Promise((r) => setImmediate(r));

describe('turns on the event loop', () => {
  it('gives one turn per pass of the loop, round the waiting organizations', async () => {
    const t = new Turns();
    const woke: string[] = [];
    const wait = (key: string, name: string) => t.next(key).then(() => void woke.push(name));
    const all = [wait('heavy', 'h1'), wait('heavy', 'h2'), wait('heavy', 'h3'), wait('quiet', 'q1')];
    expect(t.waiting()).toBe(4);
    await pass();
    expect(woke).toEqual(['h1']);
    await pass();
    // the quiet organization's turn comes before the heavy one's second, though it asked after it
    expect(woke).toEqual(['h1', 'q1']);
    await Promise.all(all);
    expect(woke).toEqual(['h1', 'q1', 'h2', 'h3']);
    expect(t.waiting()).toBe(0);
    expect(t.given).toBe(4);
  });

  it('writes JSON as JSON.stringify does, character for character, in slices with turns between them', async () => {
    const values: unknown[] = [
      { data: { a: [1, 2, 3], b: null, c: undefined, d: () => 1, e: [undefined, () => 1, NaN, -0, Infinity], f: 'x"\u2028\ud83d\ude00' } },
      Object.assign(Object.create(null) as object, { data: Object.assign(Object.create(null) as object, { list: [{ id: 'é' }] }) }),
      {
        when: new Date(0),
        wrapped: { toJSON: (k: string) => `key ${k}` },
        items: [{ toJSON: (k: string) => `item ${k}` }],
        map: new Map([[1, 2]]),
      },
      {
        data: {
          page: Array.from({ length: 40 }, (_, i) => ({
            id: `e${i}`,
            parts: Array.from({ length: 20 }, (__, j) => ({ j, text: 'w'.repeat(j) })),
          })),
        },
      },
      [[[[]]], [{ deep: [1, [2, [3, { x: [4] }]]] }]],
      'text',
      7,
      null,
    ];
    let deep: Record<string, unknown> = {};
    const top = deep;
    for (let i = 0; i < 60; i++) deep = deep.next = {};
    values.push(top);
    const before = turns.given;
    for (const v of values) for (const chars of [0, 1, 64, 1 << 20]) expect(await jsonInTurns(v, 'org', chars)).toBe(JSON.stringify(v));
    expect(turns.given).toBeGreaterThan(before + 50);
  });

  it('reads SLICE_OBJECTS (default 1,000) and SLICE_CHARS (default 256 KiB), 0 for one piece, and refuses anything else naming the variable', () => {
    expect(loadConfig({}).slices).toEqual({ objects: 1000, chars: 256 * 1024 });
    expect(loadConfig({ SLICE_OBJECTS: '0', SLICE_CHARS: '0' }).slices).toEqual({ objects: 0, chars: 0 });
    expect(() => loadConfig({ SLICE_OBJECTS: '-1' })).toThrow('invalid SLICE_OBJECTS');
    expect(() => loadConfig({ SLICE_CHARS: 'many' })).toThrow('invalid SLICE_CHARS');
  });
});

describe('a quiet organization beside a heavy page completed and written in slices', () => {
  let s: TestServer;
  let whole: TestServer;
  let heavy: { orgId: string; token: string };
  let quiet: { orgId: string; token: string };
  const PAGE = '{ episodes(first: 40) { edges { node { id title segments { id seq role content } } } } }';
  const VIEWER = '{ viewer { orgId } }';

  beforeAll(async () => {
    // small slices: the page below (40 episodes of 50 segments) takes dozens of turns
    s = await startTestServer({ env: { SLICE_OBJECTS: '50', SLICE_CHARS: '4096' } });
    whole = await startTestServer({ dbUrl: s.dbUrl, env: { SLICE_OBJECTS: '0', SLICE_CHARS: '0' } });
    heavy = await s.createOrg('heavy');
    quiet = await s.createOrg('quiet');
    const db = new pg.Client({ connectionString: s.dbUrl });
    await db.connect();
    try {
      await db.query(
        `INSERT INTO episodes (id, org_id, created_at, updated_at, agent_id, session_id, title, task, execution_ids, metadata)
         SELECT gen_random_uuid(), $1, now() - g * interval '1 minute', now(), 'agent', 's', 'Episode ' || g || ' ü', 't', ARRAY[]::text[], '{}'::jsonb
           FROM generate_series(1, 40) g`,
        [heavy.orgId],
      );
      await db.query(
        `INSERT INTO episode_segments (id, org_id, created_at, episode_id, seq, role, content, token_estimate)
         SELECT gen_random_uuid(), e.org_id, e.created_at, e.id, k, 'assistant', 'turn ' || k || ' of ' || e.title || ' 😀', 5
           FROM episodes e CROSS JOIN generate_series(0, 49) k WHERE e.org_id = $1`,
        [heavy.orgId],
      );
    } finally {
      await db.end();
    }
  });
  afterAll(async () => {
    await whole?.close();
    await s?.close();
  });

  const post = (url: string, token: string, query: string) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query }),
    }).then(async (r) => ({ status: r.status, text: await r.text() }));

  /** Turns given to each organization while `run` runs. */
  const turnsDuring = async <T>(run: () => Promise<T>): Promise<{ result: T; heavy: number; quiet: number }> => {
    let h = 0;
    let q = 0;
    const stop = turns.watch((key) => (key === heavy.orgId ? h++ : key === quiet.orgId ? q++ : 0));
    try {
      const result = await run();
      return { result, heavy: h, quiet: q };
    } finally {
      stop();
    }
  };

  it('over HTTP: the answer is the same, byte for byte, as the one made in one piece', async () => {
    // the first run of a document is interpreted, the next ones run its compiled plan: both are paced
    for (let i = 0; i < 3; i++) {
      const sliced = await turnsDuring(() => post(s.url, heavy.token, PAGE));
      const inOne = await turnsDuring(() => post(whole.url, heavy.token, PAGE));
      expect(sliced.result.status).toBe(200);
      expect(sliced.result.text).toBe(inOne.result.text);
      expect(sliced.result.text).toContain('😀');
      expect(JSON.parse(sliced.result.text).data.episodes.edges).toHaveLength(40);
      expect(sliced.heavy).toBeGreaterThan(20);
      expect(inOne.heavy).toBe(0);
    }
  });

  it('over HTTP: the quiet organization is answered while the heavy page waits for its turns, and takes none', async () => {
    expect((await post(s.url, quiet.token, VIEWER)).status).toBe(200); // the key is known: its lookup is not what waits
    const order: string[] = [];
    let quietAnswer: Promise<void> | undefined;
    const { heavy: h, quiet: q } = await turnsDuring(async () => {
      const stop = turns.watch((key) => {
        if (key !== heavy.orgId || quietAnswer) return;
        // the heavy page has done one slice of its work: the quiet request comes now
        quietAnswer = post(s.url, quiet.token, VIEWER).then((r) => {
          expect(r).toEqual({ status: 200, text: `{"data":{"viewer":{"orgId":"${quiet.orgId}"}}}\n` });
          order.push('quiet');
        });
      });
      const page = await post(s.url, heavy.token, PAGE);
      order.push('heavy');
      stop();
      expect(page.status).toBe(200);
      await quietAnswer;
    });
    expect(order).toEqual(['quiet', 'heavy']);
    expect(h).toBeGreaterThan(20);
    expect(q).toBe(0);
  });

  it('over WebSocket: the same answer as in one piece, and the quiet organization is answered first', async () => {
    const hs = wsClient(s.wsUrl, heavy.token);
    const hw = wsClient(whole.wsUrl, heavy.token);
    const qs = wsClient(s.wsUrl, quiet.token);
    try {
      const sliced = await turnsDuring(() => wsOnce(hs, PAGE));
      expect(sliced.result).toEqual(await wsOnce(hw, PAGE));
      expect(JSON.stringify(sliced.result)).toContain('😀');
      expect(sliced.heavy).toBeGreaterThan(20);
      expect(await wsOnce(qs, VIEWER)).toEqual({ data: { viewer: { orgId: quiet.orgId } } });
      const order: string[] = [];
      let quietAnswer: Promise<void> | undefined;
      const { quiet: q } = await turnsDuring(async () => {
        const stop = turns.watch((key) => {
          if (key !== heavy.orgId || quietAnswer) return;
          quietAnswer = wsOnce(qs, VIEWER).then((r) => {
            expect(r).toEqual({ data: { viewer: { orgId: quiet.orgId } } });
            order.push('quiet');
          });
        });
        const page = await wsOnce(hs, PAGE);
        order.push('heavy');
        stop();
        expect((page.data as { episodes: { edges: unknown[] } }).episodes.edges).toHaveLength(40);
        await quietAnswer;
      });
      expect(order).toEqual(['quiet', 'heavy']);
      expect(q).toBe(0);
    } finally {
      await Promise.all([hs.dispose(), hw.dispose(), qs.dispose()]);
    }
  });
});
