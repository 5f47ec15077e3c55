import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

// One database, two servers: queries run through compiled plans on one and through graphql-js on
// the other. Every answer, data and errors, must be the same byte for byte.
let compiled: TestServer;
let interpreted: TestServer;
let org: { orgId: string; token: string };
let viewerToken: string;
let episodeId: string;

const BIG = 40 * 1024;

beforeAll(async () => {
  const env = { MAX_RESPONSE_BYTES: String(64 * 1024) };
  compiled = await startTestServer({ env });
  interpreted = await startTestServer({ env: { ...env, COMPILED_EXECUTION: 'false' }, dbUrl: compiled.dbUrl });
  org = await compiled.createOrg('compiled');
  const other = await compiled.createOrg('bystander');
  viewerToken = (await compiled.createKey(org.orgId, 'VIEWER')).token;
  await compiled.app.db.orm.em.fork().execute(
    `WITH e AS (
       INSERT INTO episodes (id, org_id, agent_id, session_id, topic, title, created_at, updated_at, canvas_action_count, feedback_count)
       SELECT gen_random_uuid(), o, 'agent', 's' || (g % 3), 'topic', 'episode ' || g, now() - g * interval '1 minute', now(), 1, 1
         FROM generate_series(1, 12) g, unnest(ARRAY[?::uuid, ?::uuid]) o RETURNING id, org_id),
     s AS (INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at)
       SELECT gen_random_uuid(), e.org_id, e.id, k, 'user', 'turn ' || k, k, now() FROM e, generate_series(1, 3) k RETURNING 1),
     c AS (INSERT INTO canvas_audits (id, org_id, created_at, agent_id, episode_id, canvas_type, component_type, action, metadata, canvas_id)
       SELECT gen_random_uuid(), e.org_id, now(), 'agent', e.id, 'charts', 'line', 'PRESENT', '{"n": 1.5}', 'c1' FROM e RETURNING 1)
     INSERT INTO feedback (id, org_id, created_at, episode_id, agent_id, actor_id, feedback_type, rating, score, accepted)
       SELECT gen_random_uuid(), e.org_id, now(), e.id, 'agent', gen_random_uuid(), 'RATING', 4, 0.5, true FROM e`,
    [org.orgId, other.orgId],
  );
  const [row] = await compiled.app.db.orm.em
    .fork()
    .execute(`SELECT id FROM episodes WHERE org_id = ? ORDER BY created_at DESC LIMIT 1`, [org.orgId]);
  episodeId = row.id;
  await compiled.app.db.orm.em
    .fork()
    .execute(`UPDATE episode_segments SET content = repeat('x', ?) WHERE episode_id = ? AND seq = 1`, [BIG, episodeId]);
});
afterAll(async () => {
  await interpreted?.close();
  await compiled?.close();
});

async function executions(s: TestServer): Promise<Record<string, number>> {
  const metric = await s.app.server.metrics.registry.getSingleMetric('graphql_executions_total')!.get();
  return Object.fromEntries(metric.values.map((v) => [String(v.labels.plan), v.value]));
}

const sent = new Set<string>();

/**
 * Asks both servers the same thing; expects the same status and body, and returns the body. A
 * document is compiled when it comes a second time: the first time it is sent to the compiled
 * server is a warm-up, so the compared answer is the compiled one.
 */
async function same(query: string, variables: Record<string, unknown> = {}, token = org.token) {
  if (!sent.has(query)) {
    sent.add(query);
    await gql(compiled.url, query, variables, token);
  }
  const [a, b] = [await gql(compiled.url, query, variables, token), await gql(interpreted.url, query, variables, token)];
  // request ids differ by design; nothing else may
  const strip = (r: unknown) => JSON.parse(JSON.stringify(r).replace(/"requestId":"[^"]*"/g, '"requestId":"-"'));
  expect(strip(a)).toEqual(strip(b));
  expect(JSON.stringify(strip(a))).toBe(JSON.stringify(strip(b)));
  return a;
}

const PAGE = `
  query Page($first: Int!, $withCanvas: Boolean!, $skipFeedback: Boolean = false, $after: String) {
    viewer { orgName role __typename }
    episodes(first: $first, after: $after, filter: { agentId: "agent" }) {
      __typename
      pageInfo { hasNextPage endCursor }
      edges {
        cursor
        node {
          ...Head
          ... on Episode { sessionId topic }
          canvas: canvasContext(limit: 2) @include(if: $withCanvas) { id canvasType componentType action metadata createdAt }
          charts: canvasContext(canvasType: "charts") { id }
          ...Feedback @skip(if: $skipFeedback)
          segments(limit: 2) { seq role content tokenEstimate createdAt }
          outputs { id }
          facts { id }
        }
      }
    }
  }
  fragment Head on Episode { id agentId title createdAt canvasActionCount feedbackCount aggregateFeedbackScore __typename }
  fragment Feedback on Episode { feedbackContext { id feedbackType rating score accepted corrections meta createdAt } }`;

const ONE = `query One($id: ID!) { episode(id: $id) { id title segments(limit: 1) { seq } feedbackContext { score } } missing: episode(id: "00000000-0000-4000-8000-000000000000") { id } }`;
const VIEWER = `{ __typename viewer { orgId apiKeyName } }`;

describe('queries through compiled plans', () => {
  it('run on graphql-js the first time a document comes, and compiled from the second', async () => {
    const query = `{ viewer { role } first: __typename }`;
    const before = await executions(compiled);
    await gql(compiled.url, query, {}, org.token);
    const once = await executions(compiled);
    expect([(once.interpreted ?? 0) - (before.interpreted ?? 0), (once.compiled ?? 0) - (before.compiled ?? 0)]).toEqual([1, 0]);
    await gql(compiled.url, query, {}, org.token);
    const twice = await executions(compiled);
    expect([(twice.interpreted ?? 0) - (once.interpreted ?? 0), (twice.compiled ?? 0) - (once.compiled ?? 0)]).toEqual([0, 1]);
  });

  it('answer pages, fragments, aliases, directives and variables exactly as graphql-js does, and run compiled', async () => {
    const before = await executions(compiled);
    const first = await same(PAGE, { first: 5, withCanvas: true });
    expect((first.data as { episodes: { edges: unknown[] } }).episodes.edges).toHaveLength(5);
    const cursor = (first.data as { episodes: { pageInfo: { endCursor: string } } }).episodes.pageInfo.endCursor;
    await same(PAGE, { first: 5, withCanvas: false, skipFeedback: true, after: cursor });
    await same(ONE, { id: episodeId });
    await same(VIEWER);
    const after = await executions(compiled);
    expect((after.compiled ?? 0) - (before.compiled ?? 0)).toBe(4); // the warm-ups ran on graphql-js
    expect(after.interpreted_after_error ?? 0).toBe(before.interpreted_after_error ?? 0);
    // the other server really interprets: the comparison is between two executors
    expect((await executions(interpreted)).compiled ?? 0).toBe(0);
  });

  it('answer bad variables, refused fields and missing arguments with graphql-js errors', async () => {
    const before = await executions(compiled);
    const bad = await same(PAGE, { first: 'five', withCanvas: true });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    await same(PAGE, { first: 5 });
    const refused = await same(
      `query Mixed($start: DateTime!, $end: DateTime!) { viewer { role } learningAnalytics(startDate: $start, endDate: $end) { eventsByType { eventType count } } }`,
      { start: '2026-01-01T00:00:00Z', end: '2026-02-01T00:00:00Z' },
      viewerToken,
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(refused.data).toBeNull(); // learningAnalytics is non-null: the refusal takes data with it
    const partial = await same(`{ viewer { role } bad: layoutProfile(layoutFingerprint: "nope") { seenCount } }`);
    expect(partial.data).toEqual({ viewer: { role: 'ADMIN' }, bad: null });
    expect(partial.errors?.[0]?.path).toEqual(['bad']);
    await same(`{ episodes(first: 500) { edges { cursor } } }`);
    const after = await executions(compiled);
    expect((after.interpreted_after_error ?? 0) - (before.interpreted_after_error ?? 0)).toBeGreaterThanOrEqual(2);
  });

  it('count the response budget of a query run again after an error from zero', async () => {
    // about 40 KB of values under a 64 KB budget, and a field in error: the second run must not
    // add its 40 KB to the first run's
    const r = await same(
      `query Big($id: ID!) { episode(id: $id) { segments { content } } bad: layoutProfile(layoutFingerprint: "nope") { seenCount } }`,
      { id: episodeId },
    );
    expect(r.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    expect((r.data as { episode: { segments: { content: string }[] } }).episode.segments[0].content).toHaveLength(BIG);
  });

  it('count values read straight off objects against the response budget, as graphql-js does', async () => {
    // each alias carries the 40 KB segment: one fits the 64 KB budget, two do not, however the
    // values are reached (through a fragment, a list, an object without resolvers)
    const query = `query Two($id: ID!) { episode(id: $id) { a: segments { content } ...B } } fragment B on Episode { b: segments { seq content } }`;
    const before = await executions(compiled);
    const over = await same(query, { id: episodeId });
    expect(over.data ?? null).toBeNull();
    expect(over.errors?.map((e) => e.extensions?.code)).toEqual(['RESPONSE_TOO_LARGE']);
    const fits = await same(`query One($id: ID!) { episode(id: $id) { ...B } } fragment B on Episode { b: segments { seq content } }`, {
      id: episodeId,
    });
    expect(fits.errors).toBeUndefined();
    // two aliases inside one root field: root fields run side by side on their own connections, so
    // which of two would cross the budget first is a race between round trips, not a rule to compare
    const page = await same(
      `{ episodes(first: 12) { ...P } } fragment P on EpisodeConnection { edges { node { title segments { content } } } again: edges { node { title segments { content } } } pageInfo { endCursor } }`,
    );
    expect(page.errors?.map((e) => e.extensions?.code)).toEqual(['RESPONSE_TOO_LARGE']);
    const after = await executions(compiled);
    // the plans that went over were run again by graphql-js; the one that fits stayed compiled
    expect((after.interpreted_after_error ?? 0) - (before.interpreted_after_error ?? 0)).toBe(2);
    expect((after.compiled ?? 0) - (before.compiled ?? 0)).toBe(1);
  });

  it('answer without an ETag (no hash of every answer body)', async () => {
    const res = await fetch(compiled.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${org.token}` },
      body: JSON.stringify({ query: '{ viewer { role } }' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeNull();
  });

  it('keep mutations on graphql-js', async () => {
    const before = await executions(compiled);
    const r = await gql(compiled.url, `mutation { createApiKey(name: "k", role: VIEWER) { token } }`, {}, org.token);
    expect(r.errors).toBeUndefined();
    const after = await executions(compiled);
    expect((after.interpreted ?? 0) - (before.interpreted ?? 0)).toBe(1);
    expect(after.compiled ?? 0).toBe(before.compiled ?? 0);
  });
});
