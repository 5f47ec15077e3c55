import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

/**
 * `episode(id)` starts the reads of the context lists it selects before the episode is read, so the
 * episode and its lists reach PostgreSQL as one statement. Nothing else may change: the answer is
 * the one the lists give when read after the episode (a field under a directive waits for its
 * episode), errors included, and another organization's episode stays invisible with its lists.
 */
let s: TestServer;
let a: { orgId: string; token: string };
let b: { orgId: string; token: string };
let idA: string;
let idB: string;

async function seedEpisode(orgId: string): Promise<string> {
  const rows = await s.app.db.orm.em.fork().execute(
    `WITH e AS (
       INSERT INTO episodes (id, org_id, agent_id, title, created_at, updated_at, canvas_action_count, feedback_count, feedback_score_sum, feedback_score_count)
       VALUES (gen_random_uuid(), ?, 'agent', 'prefetched', now(), now(), 2, 2, 0.5, 2) RETURNING id, org_id),
     s AS (INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at)
       SELECT gen_random_uuid(), e.org_id, e.id, k, 'user', 'turn ' || k, 2, now() FROM e, generate_series(1, 3) k RETURNING 1),
     c AS (INSERT INTO canvas_audits (id, org_id, created_at, agent_id, episode_id, canvas_type, action, metadata)
       SELECT gen_random_uuid(), e.org_id, now() + k * interval '1 ms', 'agent', e.id, 'charts', 'PRESENT', '{"k": 1}' FROM e, generate_series(1, 2) k RETURNING 1),
     fb AS (INSERT INTO feedback (id, org_id, episode_id, agent_id, actor_id, feedback_type, rating, score, meta, created_at)
       SELECT gen_random_uuid(), e.org_id, e.id, 'agent', gen_random_uuid(), t, 4, 0.25, '{"m": 2}', now() + k * interval '1 ms'
         FROM e, unnest(ARRAY['RATING', 'THUMBS_UP']) WITH ORDINALITY AS x(t, k) RETURNING 1),
     ou AS (INSERT INTO episode_outputs (id, org_id, episode_id, created_at, updated_at, kind, content)
       SELECT gen_random_uuid(), e.org_id, e.id, now(), now(), 'mcq', '{"q": 1}' FROM e RETURNING 1),
     f AS (INSERT INTO facts (id, org_id, bank_id, text, created_at, updated_at) SELECT gen_random_uuid(), e.org_id, 'bank', 'a fact', now(), now() FROM e RETURNING id, org_id)
     INSERT INTO episode_facts (episode_id, fact_id, org_id, created_at) SELECT e.id, f.id, e.org_id, now() FROM e, f RETURNING episode_id`,
    [orgId],
  );
  return (rows[0] as { episode_id: string }).episode_id;
}

const LISTS = `segments(limit: $limit) { seq content } canvasContext { id action metadata } feedbackContext(types: [RATING, THUMBS_UP]) { id feedbackType score meta }
  outputs { kind content } facts { text }`;
/** the same lists, each under a directive: read after the episode, as lists always were */
const LISTS_AFTER = LISTS.split(/\n/)
  .join(' ')
  .replace(/(segments|canvasContext|feedbackContext|outputs|facts)(\([^)]*\))? \{/g, '$1$2 @include(if: true) {');

const query = (lists: string) =>
  `query One($id: ID!, $limit: Int) { episode(id: $id) { id title feedbackCount aggregateFeedbackScore ${lists} } }`;

/** The answer over HTTP and the statements it ran besides authentication. */
async function ask(text: string, variables: Record<string, unknown>, token = a.token) {
  await gql(s.url, text, variables, token); // the key is then in the key cache
  s.sql.reset();
  const r = await gql(s.url, text, variables, token);
  // where an error is written differs between the two texts of a query, and each request has its own id
  const errors = r.errors?.map(({ message, path, extensions }) => ({ message, path, code: extensions?.code, field: extensions?.field }));
  return { body: { data: r.data, errors }, statements: s.sql.besidesAuth };
}

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createOrg('prefetch-a');
  b = await s.createOrg('prefetch-b');
  idA = await seedEpisode(a.orgId);
  idB = await seedEpisode(b.orgId);
});
afterAll(() => s?.close());

describe('episode(id) with its context lists', () => {
  it('reads the episode and every list it selects in one statement, with the answer they give when read after it', async () => {
    const ahead = await ask(query(LISTS), { id: idA, limit: 2 });
    const after = await ask(query(LISTS_AFTER), { id: idA, limit: 2 });
    expect(ahead.statements).toBe(1);
    expect(after.statements).toBe(2);
    expect(ahead.body).toEqual(after.body);
    const ep = (ahead.body.data as { episode: Record<string, unknown[]> }).episode;
    expect(ep.segments).toEqual([
      { seq: 2, content: 'turn 2' },
      { seq: 3, content: 'turn 3' },
    ]);
    expect(ep.canvasContext).toHaveLength(2);
    expect(ep.feedbackContext).toHaveLength(2);
    expect(ep.outputs).toHaveLength(1);
    expect(ep.facts).toEqual([{ text: 'a fact' }]);
  });

  it('reads ahead through fragments, and answers an id in capitals as the same episode', async () => {
    const text = `query One($id: ID!) { episode(id: $id) { id ...Lists ... on Episode { canvasContext { id } } } }
      fragment Lists on Episode { segments { seq } feedbackContext { score } }`;
    const upper = await ask(text, { id: idA.toUpperCase() });
    const lower = await ask(text, { id: idA });
    expect(upper.statements).toBe(1);
    expect(upper.body).toEqual(lower.body);
    expect((upper.body.data as { episode: { id: string } }).episode.id).toBe(idA);
  });

  it('reports a refused argument of a list at its own path, as when the list is read after the episode', async () => {
    const ahead = await ask(query(LISTS), { id: idA, limit: 0 });
    const after = await ask(query(LISTS_AFTER), { id: idA, limit: 0 });
    expect(ahead.body.errors?.[0]).toMatchObject({ path: ['episode', 'segments'], code: 'BAD_USER_INPUT', field: 'limit' });
    expect(ahead.body).toEqual(after.body);
  });

  it("answers null for another organization's episode and for no episode, over HTTP and WebSocket", async () => {
    for (const id of [idB, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const r = await ask(query(LISTS), { id, limit: 2 });
      expect(r.body).toEqual({ data: { episode: null }, errors: undefined });
      const client = wsClient(s.wsUrl, a.token);
      try {
        expect(await wsOnce(client, query(LISTS), { id, limit: 2 })).toEqual({ data: { episode: null } });
      } finally {
        await client.dispose();
      }
    }
    // and its owner sees it, lists and all, over WebSocket too
    const client = wsClient(s.wsUrl, b.token);
    try {
      const r = (await wsOnce(client, query(LISTS), { id: idB, limit: 2 })) as { data: { episode: { id: string; segments: unknown[] } } };
      expect(r.data.episode.id).toBe(idB);
      expect(r.data.episode.segments).toHaveLength(2);
    } finally {
      await client.dispose();
    }
  });
});
