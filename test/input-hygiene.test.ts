import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { codeOf, fieldOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let org: { orgId: string; token: string };
let ws: Client;

beforeAll(async () => {
  s = await startTestServer();
  org = await s.createOrg('hygiene');
  ws = wsClient(s.wsUrl, org.token);
});
afterAll(async () => {
  await ws?.dispose();
  await s?.close();
});

const RECORD = 'mutation($input: RecordEpisodeInput!) { recordEpisode(input: $input) { id title } }';
const rows = async () => {
  const [r] = await s.app.db.orm.em
    .fork()
    .execute(
      `SELECT (SELECT count(*) FROM episodes WHERE org_id = ?)::int + (SELECT count(*) FROM episode_segments WHERE org_id = ?)::int AS n`,
      [org.orgId, org.orgId],
    );
  return r.n as number;
};
let nested: Record<string, unknown> = { leaf: 1 };
for (let i = 0; i < 1000; i++) nested = { child: nested };
const cursor = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
const id = '6f1c4d3e-2b1a-4c5d-8e9f-0a1b2c3d4e5f';
const EPISODES_AFTER = 'query($after: String) { episodes(after: $after) { edges { node { id } } } }';

/** [what, document, variables, field]: refused with BAD_USER_INPUT on that field. */
const refused: [string, string, Record<string, unknown>, string][] = [
  ['a NUL character in a string argument', RECORD, { input: { agentId: 'a', title: 'x\u0000y' } }, 'input.title'],
  ['an unpaired surrogate in a string argument', RECORD, { input: { agentId: 'a', title: 'x\ud800y' } }, 'input.title'],
  ['an unpaired low surrogate in a list item', RECORD, { input: { agentId: 'a', executionIds: ['ok', '\udc00'] } }, 'input.executionIds.1'],
  [
    'a NUL character in segment content',
    RECORD,
    { input: { agentId: 'a', segments: [{ role: 'user', content: 'a\u0000' }] } },
    'input.segments.0.content',
  ],
  ['a NUL character in a JSON value', RECORD, { input: { agentId: 'a', metadata: { note: 'a\u0000' } } }, 'input.metadata'],
  ['a NUL character in a JSON key', RECORD, { input: { agentId: 'a', metadata: { 'k\u0000': 1 } } }, 'input.metadata'],
  ['JSON nested 1,000 deep', RECORD, { input: { agentId: 'a', metadata: nested } }, 'input.metadata'],
  ['a float beyond 1e15', RECORD, { input: { agentId: 'a', overallScore: 1e300 } }, 'input.overallScore'],
  ['an embedding holding 1e200', RECORD, { input: { agentId: 'a', embedding: [1e200, 1] } }, 'input.embedding'],
  [
    'a 10,001-character filter string',
    EPISODES_AFTER.replace('episodes(after: $after)', 'episodes(after: $after, filter: { agentId: $a })').replace(
      '$after: String',
      '$after: String, $a: String',
    ),
    { a: 'x'.repeat(10_001) },
    'filter.agentId',
  ],
  [
    'a 10,001-character argument',
    'query($a: String!) { recallEpisodes(agentId: $a, query: "q") { finalScore } }',
    { a: 'x'.repeat(10_001) },
    'agentId',
  ],
  [
    'a 100,001-character segment',
    RECORD,
    { input: { agentId: 'a', segments: [{ role: 'user', content: 'x'.repeat(100_001) }] } },
    'input.segments.0.content',
  ],
  [
    'a float literal that overflows to Infinity',
    '{ recall(input: { bankId: "b", query: "q", queryEmbedding: [1, 1e400] }) { finalScore } }',
    {},
    'input.queryEmbedding',
  ],
  ['a cursor that is not base64 JSON', EPISODES_AFTER, { after: 'not a cursor!' }, 'after'],
  ['a cursor with a time PostgreSQL cannot read', EPISODES_AFTER, { after: cursor(['Tue, 01 Jan 2030 10:00:00 GMT', id]) }, 'after'],
  ['a cursor on the 31st of February', EPISODES_AFTER, { after: cursor(['2026-02-31T10:00:00.000000Z', id]) }, 'after'],
  ['a cursor in year 0', EPISODES_AFTER, { after: cursor(['0000-01-01T00:00:00.000000Z', id]) }, 'after'],
  ['a cursor whose id is no UUID', EPISODES_AFTER, { after: cursor(['2026-01-01T00:00:00.000000Z', '-'.repeat(36)]) }, 'after'],
  ['a cursor holding a number', EPISODES_AFTER, { after: cursor([1e308, id]) }, 'after'],
  ['a variable of the wrong type', 'mutation($r: Role!) { createApiKey(name: "x", role: $r) { token } }', { r: 'EMPEROR' }, 'r'],
];

describe('bad input is refused at the edge with BAD_USER_INPUT and its field, the same on HTTP and WebSocket, and changes nothing', () => {
  for (const [what, query, variables, field] of refused) {
    it(what, async () => {
      const before = await rows();
      const r = await gql(s.url, query, variables, org.token);
      expect([r.status, codeOf(r), fieldOf(r)]).toEqual([400, 'BAD_USER_INPUT', field]);
      expect(r.data ?? null).toBeNull();
      const w = await wsOnce(ws, query, variables);
      expect([codeOf(w), fieldOf(w)]).toEqual(['BAD_USER_INPUT', field]);
      expect(w.errors?.[0].message).toBe(r.errors?.[0].message);
      expect(await rows()).toBe(before);
    });
  }

  it('refuses a JSON body whose string escapes make an unpaired surrogate', async () => {
    const before = await rows();
    const res = await fetch(s.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${org.token}` },
      body: `{"query":${JSON.stringify(RECORD)},"variables":{"input":{"agentId":"a","title":"x\\udfff"}}}`,
    });
    const body = (await res.json()) as { errors: { extensions: { code: string; field: string } }[] };
    expect([res.status, body.errors[0].extensions.code, body.errors[0].extensions.field]).toEqual([400, 'BAD_USER_INPUT', 'input.title']);
    expect(await rows()).toBe(before);
  });
});

describe('everyday input is untouched', () => {
  it('takes accents, emoji, CJK, 100,000-character segments, 20,000-character tasks and nested JSON over HTTP and WebSocket', async () => {
    const title = 'Crème brûlée 🍮 日本語 — ok';
    const deep = { a: { b: { c: { d: { e: { f: { g: { h: { i: 'j' } } } } } } } } };
    const input = {
      agentId: 'a',
      title,
      task: 't'.repeat(20_000),
      metadata: deep,
      embedding: [0.5, -1e-300, 1e15],
      segments: [{ role: 'user', content: '🙂'.repeat(50_000) }],
    };
    const http = await gqlOk<{ recordEpisode: { id: string; title: string } }, unknown>(s.url, RECORD, { input }, org.token);
    expect(http.recordEpisode.title).toBe(title);
    const w = await wsOnce<{ recordEpisode: { id: string; title: string } }, unknown>(ws, RECORD, { input });
    expect(w.errors).toBeUndefined();
    expect(w.data?.recordEpisode.title).toBe(title);
    const [row] = await s.app.db.orm.em.fork().execute('SELECT title, metadata FROM episodes WHERE id = ?', [http.recordEpisode.id]);
    expect(row).toEqual({ title, metadata: deep });
  });

  it('pages through episodes with the cursors it hands out', async () => {
    const first = await gqlOk<{ episodes: { edges: { cursor: string }[]; pageInfo: { endCursor: string } } }, unknown>(
      s.url,
      'query { episodes(first: 1) { edges { cursor } pageInfo { endCursor } } }',
      {},
      org.token,
    );
    const next = await gql(s.url, EPISODES_AFTER, { after: first.episodes.pageInfo.endCursor }, org.token);
    expect(next.errors).toBeUndefined();
  });
});
