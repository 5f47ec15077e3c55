import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLICIES } from '../src/modules/memory/policies';
import { MemoryContextDocument, RecordEpisodeDocument, ViewerDocument } from './generated/graphql';
import { codeOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { type Entry, foveated, mixedPolicy, recentPolicy, relevantPolicy } from './memory-reference';
import { seededRandom } from './helpers/random';
import { startTestServer, type TestServer } from './helpers/server';
import { tcpProxy, type TcpProxy } from './helpers/tcp-proxy';

// Long segments (over 512 bytes) are chosen on the distinct words stored when they were written and
// only the chosen ones' texts are read: these tests pin that the choice is still the reference's,
// whether the words were stored by the server or by SQL, and that what a request reads from
// PostgreSQL is bounded by what it selects, not by the texts of its candidates.
let s: TestServer;
let proxied: TestServer;
let proxy: TcpProxy;
let a: { orgId: string; token: string };
let b: { orgId: string; token: string };
const exec = (sqlText: string, params: unknown[] = []) => s.app.db.orm.em.fork().execute(sqlText, params);

const BIG_SEGMENTS = 200;
const BIG_WORDS = 20_000; // about 100 KB each, 20 MB in all

beforeAll(async () => {
  s = await startTestServer();
  proxy = await tcpProxy(s.dbUrl);
  proxied = await startTestServer({ dbUrl: proxy.url });
  a = await s.createOrg('long-a');
  b = await s.createOrg('long-b');
  // every 50th turn claims 10 tokens, so a small budget still selects (and reads) a few long texts;
  // their stored words are given as the server would store them (the SQL function is tested below)
  await exec(
    `WITH e AS (INSERT INTO episodes (id, org_id, agent_id, session_id, created_at, updated_at)
                SELECT gen_random_uuid(), ?, 'big', 's', now() - interval '1 day' + g * interval '1 second', now()
                  FROM generate_series(1, ${BIG_SEGMENTS}) g RETURNING id, org_id, created_at)
     INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at, terms)
     SELECT gen_random_uuid(), e.org_id, e.id, 1, 'user', repeat('Word ', ${BIG_WORDS}) || t.topic,
            CASE WHEN extract(epoch FROM e.created_at)::bigint % 50 = 0 THEN 10 ELSE ${BIG_WORDS * 5 + 6} / 4 END, e.created_at,
            array_to_tsvector(ARRAY['word', t.topic])
       FROM e, LATERAL (SELECT 'topic' || (extract(epoch FROM e.created_at)::bigint % 7) AS topic) t`,
    [a.orgId],
  );
});
afterAll(async () => {
  await proxied?.close();
  await proxy?.close();
  await s?.close();
});

/**
 * The agent's segments in chronological order as the reference sees them; `tail` keeps only the last
 * 20 characters of each text after 'Word ' (the same distinct words for the seeded 100 KB texts).
 */
async function referenceEntries(orgId: string, agentId: string, tail = false): Promise<Entry[]> {
  const rows = await exec(
    `SELECT g.id, ${tail ? `'Word ' || right(g.content, 20)` : 'g.content'} AS content, g.token_estimate FROM episode_segments g JOIN episodes e ON e.org_id = g.org_id AND e.id = g.episode_id
      WHERE g.org_id = ? AND e.agent_id = ? ORDER BY g.created_at, e.created_at, g.seq`,
    [orgId, agentId],
  );
  return rows.map((r, i) => ({
    entry_id: r.id as string,
    text: r.content as string,
    token_estimate: Number(r.token_estimate),
    created_at: i,
  }));
}

const reference = (policy: string, memories: Entry[], query: string | null, budget: number) =>
  ({
    FOVEATED: () => foveated(memories, query, budget),
    RECENT: () => recentPolicy(memories, budget),
    RELEVANT: () => relevantPolicy(memories, query, budget),
    MIXED: () => mixedPolicy(memories, query, budget),
  })[policy]!().map((m) => m.entry_id);

const ids = (r: { memoryContext: { entries: { id: string }[] } }) => r.memoryContext.entries.map((e) => e.id);

describe('memoryContext over long segments', () => {
  it('selects exactly what the reference selects from texts written by the server, with any case, whitespace, script and word length', async () => {
    const rnd = seededRandom(11);
    const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
    const long = 'x'.repeat(2100);
    const vocab = ['Postgres', 'postgres', 'INDEX', 'slow', 'ΟΔΟΣ', 'οδος', 'Ünïcode', 'ünïcode', 'é', '数据库', 'a\u001cb'];
    const word = () => (rnd() < 0.02 ? pick([long, long.toUpperCase()]) : pick(vocab));
    const spaces = [' ', '  ', '\t', '\n', '\u00a0', '\u3000', ' \r\n'];
    for (let c = 0; c < 4; c++) {
      const agentId = `mixed-${c}`;
      const segments = Array.from({ length: 12 + Math.floor(rnd() * 10) }, () => {
        const n = rnd() < 0.3 ? 1 + Math.floor(rnd() * 6) : 80 + Math.floor(rnd() * 150);
        const content = Array.from({ length: n }, word).join(pick(spaces));
        return { role: 'user', content, tokenEstimate: 1 + Math.floor(rnd() * 80) };
      });
      await gqlOk(s.url, RecordEpisodeDocument, { input: { agentId, sessionId: 'x', segments } }, a.token);
      const memories = await referenceEntries(a.orgId, agentId);
      for (const query of [null, 'postgres ΟΔΟΣ', `${long} slow ünïcode`, `数据库 a\u001cb INDEX é`]) {
        const budget = 20 + Math.floor(rnd() * 900);
        for (const mode of POLICIES) {
          const r = await gqlOk(s.url, MemoryContextDocument, { input: { agentId, query, tokenBudget: budget, mode } }, a.token);
          expect(ids(r), `${agentId} ${mode} ${query}`).toEqual(reference(mode, memories, query, budget));
        }
      }
    }
    // long texts have stored words; for ASCII ones exactly what the SQL function would store
    const [check] = await exec(
      `SELECT count(*) FILTER (WHERE octet_length(content) > 512 AND terms IS NULL)::int AS missing,
              count(*) FILTER (WHERE content !~ '[^\\x01-\\x7f]' AND terms IS DISTINCT FROM segment_terms(content))::int AS differ,
              count(*) FILTER (WHERE octet_length(content) > 512)::int AS long
         FROM episode_segments WHERE org_id = ? AND episode_id IN (SELECT id FROM episodes WHERE agent_id LIKE 'mixed-%')`,
      [a.orgId],
    );
    expect(check).toMatchObject({ missing: 0, differ: 0 });
    expect(check.long).toBeGreaterThan(20);
  });

  it('reads the stored words of ASCII texts written by SQL, and a text PostgreSQL cannot lower-case as the server does whole', async () => {
    const texts = [
      `${'Alpha beta\tGAMMA\u000bdelta\fEPSILON '.repeat(30)}${'Q'.repeat(2500)}`,
      'short turn about gamma',
      `${'Ünïcode gamma '.repeat(60)}`,
      `${'gamma '.repeat(200)}tail`,
    ];
    await exec(
      `WITH e AS (INSERT INTO episodes (id, org_id, agent_id, session_id, created_at, updated_at)
                  VALUES (gen_random_uuid(), ?, 'sql-written', 's', now(), now()) RETURNING id, org_id)
       INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at)
       SELECT gen_random_uuid(), e.org_id, e.id, t.n, 'user', t.content, 40, now() FROM e, jsonb_array_elements_text(?::jsonb) WITH ORDINALITY t(content, n)`,
      [a.orgId, JSON.stringify(texts)],
    );
    const stored = await exec(
      `SELECT terms IS NOT NULL AS has_terms FROM episode_segments WHERE org_id = ? AND episode_id IN (SELECT id FROM episodes WHERE agent_id = 'sql-written') ORDER BY seq`,
      [a.orgId],
    );
    expect(stored.map((r) => r.has_terms)).toEqual([true, false, false, true]);
    const memories = await referenceEntries(a.orgId, 'sql-written');
    for (const query of ['gamma', 'epsilon delta', 'q'.repeat(2500), 'ünïcode tail'])
      for (const mode of POLICIES) {
        const r = await gqlOk(s.url, MemoryContextDocument, { input: { agentId: 'sql-written', query, tokenBudget: 90, mode } }, a.token);
        expect(ids(r), `${mode} ${query}`).toEqual(reference(mode, memories, query, 90));
      }
  });

  it('reads from PostgreSQL what it selects, not the 20 MB of its candidates, over HTTP and WebSocket, while another organization is answered', async () => {
    const memories = await referenceEntries(a.orgId, 'big', true);
    const input = { agentId: 'big', query: 'word topic3', tokenBudget: 50, maxCandidates: 10_000 };
    const expected = reference('FOVEATED', memories, input.query, input.tokenBudget);
    expect(expected.length).toBeGreaterThan(0);
    const selectedBytes = expected.length * (BIG_WORDS * 5 + 6);
    const ws = wsClient(proxied.wsUrl, a.token);
    const wsB = wsClient(proxied.wsUrl, b.token);
    try {
      for (const [i, run] of [
        () => gqlOk(proxied.url, MemoryContextDocument, { input: { ...input, maxCandidates: 9_999 } }, a.token),
        async () => (await wsOnce(ws, MemoryContextDocument, { input })).data!,
      ].entries()) {
        const before = proxy.received;
        // another organization's requests run alongside and see only their own
        const [r, ...viewers] = await Promise.all([
          run(),
          ...Array.from({ length: 5 }, () => gqlOk(proxied.url, ViewerDocument, {}, b.token)),
          wsOnce(wsB, ViewerDocument, {}).then((v) => v.data!),
          wsOnce(wsB, MemoryContextDocument, { input }).then((v) => v.data!),
        ]);
        const read = proxy.received - before;
        expect(ids(r), `run ${i}`).toEqual(expected);
        expect(r.memoryContext.candidatesConsidered).toBe(BIG_SEGMENTS);
        expect(read).toBeLessThan(selectedBytes + 200_000);
        expect(read).toBeLessThan((BIG_SEGMENTS * BIG_WORDS * 5) / 20);
        const other = viewers[viewers.length - 1] as { memoryContext: { entries: unknown[] } };
        expect(other.memoryContext.entries).toEqual([]);
        for (const v of viewers.slice(0, -1) as { viewer: { orgId: string } }[]) expect(v.viewer.orgId).toBe(b.orgId);
      }
    } finally {
      await Promise.all([ws.dispose(), wsB.dispose()]);
    }
  });

  it('prices each memoryContext at its maxCandidates, so aliases that would read 50,000 candidates are refused before running, over HTTP and WebSocket', async () => {
    const alias = (n: number, max: number) =>
      `query { ${Array.from({ length: n }, (_, i) => `m${i}: memoryContext(input: { agentId: "big", tokenBudget: 50, maxCandidates: ${max} }) { memoriesSelected }`).join(' ')} }`;
    const refused = await gql(s.url, alias(5, 10_000), {}, a.token);
    expect(refused.status).toBe(400);
    expect(codeOf(refused)).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(refused.errors![0].message).toMatch(/complexity 50005 exceeds/);
    const ws = wsClient(s.wsUrl, a.token);
    try {
      expect(codeOf(await wsOnce(ws, alias(5, 10_000)))).toBe('GRAPHQL_VALIDATION_FAILED');
      const fine = await wsOnce<{ m0: { memoriesSelected: number } }, unknown>(ws, alias(4, 10_000));
      expect(fine.errors).toBeUndefined();
      expect(fine.data!.m0.memoriesSelected).toBeGreaterThan(0);
    } finally {
      await ws.dispose();
    }
    expect((await gql(s.url, alias(20, 2000), {}, a.token)).errors).toBeUndefined();
  });
});
