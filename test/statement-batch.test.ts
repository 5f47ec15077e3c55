import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let org: { orgId: string; token: string };
let other: { orgId: string; token: string };

const LISTS = {
  segments: 'segments(limit: 3) { id episodeId seq role content tokenEstimate createdAt }',
  outputs: 'outputs(limit: 5) { id episodeId kind content difficulty qualityScore regenerationRound createdAt }',
  // usefulness is decayed to the moment of each request, so it is left out of the comparison
  facts: 'facts(limit: 5) { id bankId text kind externalId status confidence supportCount signalCount lastSignalAt createdAt updatedAt }',
  canvasContext: 'canvasContext(limit: 5) { id agentId canvasId canvasType componentType action metadata episodeId createdAt }',
  charts: 'charts: canvasContext(canvasType: "charts", limit: 1) { id createdAt }',
  feedbackContext:
    'feedbackContext(limit: 5) { id episodeId agentId actorId actorUserId feedbackType rating score corrections before after meta accepted reason createdAt }',
} as const;
const page = (lists: string[]) => `{ episodes(first: 30) { edges { node { id ${lists.join(' ')} } } } }`;
/** The same page with its lists under a directive: read after the page, not ahead of it. */
const pageThenLists = (lists: string[]) =>
  `{ episodes(first: 30) { edges { node { id ... @include(if: true) { ${lists.join(' ')} } } } } }`;
type Page = { episodes: { edges: { node: Record<string, unknown> }[] } };

beforeAll(async () => {
  s = await startTestServer();
  org = await s.createOrg('batched');
  other = await s.createOrg('bystander');
  // every column type the context lists carry: numeric, real, int, jsonb, text, timestamps with microseconds, nulls
  await s.app.db.orm.em.fork().execute(
    `WITH e AS (
       INSERT INTO episodes (id, org_id, agent_id, created_at, updated_at, canvas_action_count, feedback_count)
       SELECT gen_random_uuid(), o, 'agent', now() - g * interval '1.000123 second', now(), 2, 2
         FROM generate_series(1, 30) g, unnest(ARRAY[?::uuid, ?::uuid]) o RETURNING id, org_id),
     s AS (INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at)
       SELECT gen_random_uuid(), e.org_id, e.id, k, 'user', 'turn ' || k || ' of ' || e.id, k * 3, clock_timestamp() FROM e, generate_series(1, 5) k RETURNING 1),
     c AS (INSERT INTO canvas_audits (id, org_id, created_at, agent_id, episode_id, canvas_type, component_type, action, metadata, canvas_id)
       SELECT gen_random_uuid(), e.org_id, clock_timestamp(), 'agent', e.id, t, CASE WHEN t = 'charts' THEN 'line' END, 'PRESENT',
              jsonb_build_object('n', 1.25, 'nested', jsonb_build_object('deep', ARRAY[1, 2])), 'canvas-' || t
         FROM e, unnest(ARRAY['charts', 'docs']) t RETURNING 1),
     f AS (INSERT INTO feedback (id, org_id, created_at, episode_id, agent_id, actor_id, feedback_type, rating, score, corrections, before, after, meta, accepted, reason)
       SELECT gen_random_uuid(), e.org_id, clock_timestamp(), e.id, 'agent', gen_random_uuid(), 'RATING', 4, 0.5, 'fix it', '{"a": 1}', '{"a": 2}', NULL, k = 1, NULL
         FROM e, generate_series(1, 2) k RETURNING 1),
     ou AS (INSERT INTO episode_outputs (id, org_id, episode_id, created_at, updated_at, kind, content, difficulty, quality_score, regeneration_round)
       SELECT gen_random_uuid(), e.org_id, e.id, clock_timestamp(), now(), 'mcq', '{"q": "why not", "options": [1.5, null, "x"]}', 'hard', 0.875, 2 FROM e RETURNING 1),
     fa AS (INSERT INTO facts (id, org_id, bank_id, text, kind, created_at, updated_at, confidence, usefulness, signal_count, last_signal_at)
       SELECT gen_random_uuid(), o, 'bank', 'a fact', 'note', now(), now(), 0.9, 0.3, 2, now() - interval '2 days' FROM unnest(ARRAY[?::uuid, ?::uuid]) o RETURNING id, org_id)
     INSERT INTO episode_facts (episode_id, fact_id, org_id, created_at) SELECT e.id, fa.id, e.org_id, now() FROM e JOIN fa ON fa.org_id = e.org_id`,
    [org.orgId, other.orgId, org.orgId, other.orgId],
  );
});
afterAll(() => s?.close());

describe('context lists read together', () => {
  it('sends the page and the loaders of its episodes as one statement', async () => {
    await gqlOk(s.url, '{ viewer { orgId } }', {}, org.token); // the key is cached from here on
    s.sql.reset();
    await gqlOk<Page, unknown>(s.url, page(Object.values(LISTS)), {}, org.token);
    expect(s.sql.count, s.sql.statements.join('\n')).toBe(1);
    expect(s.sql.statements[0]).toMatch(/WITH q\d AS MATERIALIZED \(select .* from "episodes" as "e" where/);
    for (const table of ['episode_segments', 'episode_outputs', 'episode_facts', 'canvas_audits', 'feedback']) {
      expect(s.sql.statements[0]).toMatch(new RegExp(`from "?${table}"?`, 'i'));
    }
  });

  it('writes the page size into the page statement (one plan kept for it) and reads each list per episode with a limit', async () => {
    await gqlOk(s.url, '{ viewer { orgId } }', {}, org.token); // the key is cached from here on
    s.sql.reset();
    await gqlOk<Page, unknown>(s.url, page([LISTS.segments, LISTS.canvasContext, LISTS.feedbackContext]), {}, org.token);
    expect(s.sql.count, s.sql.statements.join('\n')).toBe(1);
    const [text] = s.sql.statements;
    // first: 30 reads 31 rows, the extra one telling that another page follows
    expect(text).toMatch(/WITH q\d AS MATERIALIZED \(select .* from "episodes" as "e" where .* limit 31\)/s);
    for (const table of ['episode_segments', 'canvas_audits', 'feedback']) {
      expect(text).toMatch(
        new RegExp(`inner join lateral \\(select .*? from "${table}" as "\\w+" where .*? limit .*?\\) as "x" on true`, 's'),
      );
    }
    expect(text).not.toMatch(/row_number/);
  });

  it('sends the page, then every context list at once, when the lists wait for their episodes', async () => {
    s.sql.reset();
    const after = await gqlOk<Page, unknown>(s.url, pageThenLists(Object.values(LISTS)), {}, org.token);
    expect(s.sql.count, s.sql.statements.join('\n')).toBe(2);
    expect(s.sql.statements[0]).not.toMatch(/json_agg/);
    expect(s.sql.statements[1]).toMatch(/json_agg/);
    expect(after).toEqual(await gqlOk<Page, unknown>(s.url, page(Object.values(LISTS)), {}, org.token));
  });

  it('reads ahead the lists of the page it answers only: any size, after a cursor, filtered', async () => {
    const lists = Object.values(LISTS).join(' ');
    const query = (args: string, ahead: boolean) =>
      `{ episodes(${args}) { edges { cursor node { id ${ahead ? lists : `... @include(if: true) { ${lists} }`} } } pageInfo { hasNextPage endCursor } } }`;
    let after: string | null = null;
    for (const first of [1, 7, 30]) {
      const args: string = `first: ${first}${after ? `, after: "${after}"` : ''}, filter: { agentId: "agent" }`;
      s.sql.reset();
      const ahead: { episodes: Page['episodes'] & { pageInfo: { endCursor: string | null } } } = await gqlOk(
        s.url,
        query(args, true),
        {},
        org.token,
      );
      expect(s.sql.count, s.sql.statements.join('\n')).toBe(1);
      expect(ahead).toEqual(await gqlOk(s.url, query(args, false), {}, org.token));
      after = ahead.episodes.pageInfo.endCursor;
    }
  });

  it('reports a refused argument of a list of the page at its own path, as when the lists wait for their episodes', async () => {
    const lists = 'segments(limit: 0) { seq } canvasContext(limit: 1) { action }';
    const answer = async (query: string) => {
      const res = await fetch(s.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${org.token}` },
        body: JSON.stringify({ query }),
      });
      const body = (await res.json()) as {
        data: unknown;
        errors: { message: string; path: unknown[]; extensions: { code: string; field?: string } }[];
      };
      // the request id and the location in the text differ between the two documents
      return {
        data: body.data,
        errors: body.errors.map(({ message, path, extensions: { code, field } }) => ({ message, path, code, field })),
      };
    };
    const ahead = await answer(`{ episodes(first: 2) { edges { node { id ${lists} } } } }`);
    expect(ahead.errors.map((e) => [e.path, e.code, e.field])).toEqual([
      [['episodes', 'edges', 0, 'node', 'segments'], 'BAD_USER_INPUT', 'limit'],
    ]);
    expect(ahead).toEqual(await answer(`{ episodes(first: 2) { edges { node { id ... @include(if: true) { ${lists} } } } } }`));
  });

  it('answers exactly as each list read on its own', async () => {
    const together = await gqlOk<Page, unknown>(s.url, page(Object.values(LISTS)), {}, org.token);
    expect(together.episodes.edges).toHaveLength(30);
    for (const [name, selection] of Object.entries(LISTS)) {
      s.sql.reset();
      const alone = await gqlOk<Page, unknown>(s.url, pageThenLists([selection]), {}, org.token);
      // one loader alone, after the page, is sent as its own statement, with the driver's own row types
      expect(s.sql.statements.some((q) => /json_agg/.test(q))).toBe(false);
      expect(together.episodes.edges.map((e) => e.node[name])).toEqual(alone.episodes.edges.map((e) => e.node[name]));
    }
    const first = together.episodes.edges[0].node as Record<string, { [k: string]: unknown }[]>;
    expect(first.segments.map((x) => x.seq)).toEqual([3, 4, 5]);
    expect(first.outputs[0]).toMatchObject({
      qualityScore: 0.875,
      regenerationRound: 2,
      content: { q: 'why not', options: [1.5, null, 'x'] },
    });
    expect(first.feedbackContext.map((x) => [x.score, x.rating, x.accepted, x.meta])).toEqual([
      [0.5, 4, true, null],
      [0.5, 4, false, null],
    ]);
    expect(first.canvasContext[0].metadata).toEqual({ n: 1.25, nested: { deep: [1, 2] } });
    expect(first.charts).toHaveLength(1);
  });

  it('reads only the columns a list selects, and answers them as a read of every column does', async () => {
    const full = await gqlOk<Page, unknown>(s.url, page([LISTS.canvasContext, LISTS.feedbackContext, LISTS.segments]), {}, org.token);
    s.sql.reset();
    const FEW = ['canvasContext(limit: 5) { action }', 'feedbackContext(limit: 5) { score reason }', 'segments(limit: 3) { seq }'];
    const few = await gqlOk<Page, unknown>(s.url, page(FEW), {}, org.token);
    expect(s.sql.count).toBe(1);
    const lists = s.sql.statements[0].slice(s.sql.statements[0].indexOf(' AS r0,'));
    expect(lists).not.toMatch(/metadata|agent_id|actor_id|feedback_type|canvas_type|content|role|token_estimate/);
    expect(lists).toMatch(/episode_segments/);
    const pick = (p: Page, list: string, fields: string[]) =>
      p.episodes.edges.map((e) => (e.node[list] as Record<string, unknown>[]).map((x) => Object.fromEntries(fields.map((f) => [f, x[f]]))));
    expect(pick(few, 'canvasContext', ['action'])).toEqual(pick(full, 'canvasContext', ['action']));
    expect(pick(few, 'feedbackContext', ['score', 'reason'])).toEqual(pick(full, 'feedbackContext', ['score', 'reason']));
    expect(pick(few, 'feedbackContext', ['score', 'reason']).flat()).toHaveLength(60);
    expect(pick(few, 'segments', ['seq'])).toEqual(pick(full, 'segments', ['seq']));
    expect(pick(few, 'segments', ['seq']).flat().length).toBeGreaterThan(0);
    // the same over WebSocket, and for one episode read ahead of its lists; another organization's token sees none of it
    const one = `query ($id: ID!) { episode(id: $id) { ${FEW.join(' ')} } }`;
    const id = few.episodes.edges[3].node.id as string;
    for (const [token, expected] of [
      [
        org.token,
        {
          canvasContext: few.episodes.edges[3].node.canvasContext,
          feedbackContext: few.episodes.edges[3].node.feedbackContext,
          segments: few.episodes.edges[3].node.segments,
        },
      ],
      [other.token, null],
    ] as const) {
      const client = wsClient(s.wsUrl, token);
      try {
        expect(await wsOnce(client, page(FEW), {})).toEqual({
          data: token === org.token ? few : expect.anything(),
        });
        expect(await wsOnce(client, one, { id })).toEqual({ data: { episode: expected } });
      } finally {
        await client.dispose();
      }
    }
  });

  it('answers an episode read alone (a batch of one, its id bound by itself) exactly as the page does', async () => {
    const together = await gqlOk<Page, unknown>(s.url, page(Object.values(LISTS)), {}, org.token);
    for (const { node } of [together.episodes.edges[0], together.episodes.edges[17]]) {
      s.sql.reset();
      const alone = await gqlOk<{ episode: Record<string, unknown> }, unknown>(
        s.url,
        `query ($id: ID!) { episode(id: $id) { id ${Object.values(LISTS).join(' ')} } }`,
        { id: node.id },
        org.token,
      );
      expect(alone.episode).toEqual(node);
      // the episode and its lists in one statement, the id bound as a uuid, not as an array of one:
      // PostgreSQL keeps a plan for that statement
      expect(s.sql.count, s.sql.statements.join('\n')).toBe(1);
      expect(s.sql.statements[0]).not.toMatch(/= any\(/i);
    }
  });

  it("never mixes organizations: each page's lists hold only its own rows", async () => {
    const mine = await gqlOk<Page, unknown>(s.url, page(Object.values(LISTS)), {}, org.token);
    const theirs = await gqlOk<Page, unknown>(s.url, page(Object.values(LISTS)), {}, other.token);
    const ids = (p: Page) => new Set(p.episodes.edges.map((e) => e.node.id as string));
    const [a, b] = [ids(mine), ids(theirs)];
    expect([...a].some((id) => b.has(id))).toBe(false);
    for (const [p, own] of [
      [mine, a],
      [theirs, b],
    ] as const) {
      for (const { node } of p.episodes.edges) {
        for (const list of ['segments', 'outputs', 'canvasContext', 'feedbackContext'] as const) {
          for (const item of node[list] as { episodeId: string }[]) expect(own.has(item.episodeId)).toBe(true);
        }
      }
    }
  });
});
