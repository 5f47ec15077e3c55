import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, fieldOf, gql, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

/**
 * Every condition of `episodes(filter:)`, alone, together and across pages, against the episodes a
 * plain reading of the condition keeps, over HTTP and over WebSocket; another organization's
 * episodes, which match every condition too, never appear.
 */
let s: TestServer;
let a: { orgId: string; token: string };
let b: { orgId: string; token: string };
const FACT = '0b0b0b0b-0000-4000-8000-000000000001';

const PAGE = `query Page($filter: EpisodeFilter, $first: Int, $after: String) {
  episodes(filter: $filter, first: $first, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`;

interface Page {
  episodes: { edges: { cursor: string; node: { id: string } }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

const sqlRows = async (text: string, params: unknown[] = []) => s.app.db.orm.em.fork().execute(text, params);

/** Both organizations get the same 40 episodes (attributes cycle), canvas actions and fact links, in set-based statements. */
async function seed(orgId: string): Promise<void> {
  await sqlRows(
    `INSERT INTO episodes (id, org_id, agent_id, session_id, topic, intent, accepted, created_at, updated_at,
                           canvas_action_count, feedback_count, feedback_score_sum, feedback_score_count)
     SELECT gen_random_uuid(), ?, 'agent-' || (i % 3), 'session-' || (i % 2), 'topic-' || (i % 4), 'intent-' || (i % 5),
            CASE i % 3 WHEN 0 THEN true WHEN 1 THEN false END,
            timestamptz '2026-01-01 00:00:00+00' + i * interval '1 day', now(),
            CASE WHEN i % 2 = 0 THEN 1 ELSE 0 END, i % 4, (i % 4) * ((i % 7) / 3.0 - 1), i % 4
       FROM generate_series(0, 39) i`,
    [orgId],
  );
  await sqlRows(
    `INSERT INTO canvas_audits (id, org_id, agent_id, episode_id, canvas_type, action, created_at)
     SELECT gen_random_uuid(), e.org_id, e.agent_id, e.id, CASE WHEN e.topic = 'topic-0' THEN 'charts' ELSE 'docs' END,
            CASE WHEN e.intent = 'intent-0' THEN 'CLOSE' ELSE 'PRESENT' END, e.created_at
       FROM episodes e WHERE e.org_id = ? AND e.canvas_action_count > 0`,
    [orgId],
  );
  await sqlRows(
    `INSERT INTO episode_facts (episode_id, fact_id, org_id) SELECT e.id, ?, e.org_id FROM episodes e WHERE e.org_id = ? AND e.session_id = 'session-1' AND e.topic = 'topic-1'`,
    [FACT, orgId],
  );
}

/** The ids `where` keeps of the organization's episodes, newest first (an independent reading of each condition). */
const expected = async (orgId: string, where: string, params: unknown[] = []) =>
  (
    await sqlRows(`SELECT e.id FROM episodes e WHERE e.org_id = ? AND (${where}) ORDER BY e.created_at DESC, e.id DESC`, [orgId, ...params])
  ).map((r) => (r as { id: string }).id);

const ids = (p: Page) => p.episodes.edges.map((e) => e.node.id);

const CASES: [string, Record<string, unknown>, string, unknown[]][] = [
  ['agentId', { agentId: 'agent-1' }, `e.agent_id = 'agent-1'`, []],
  ['sessionId', { sessionId: 'session-0' }, `e.session_id = 'session-0'`, []],
  ['topic', { topic: 'topic-2' }, `e.topic = 'topic-2'`, []],
  ['intent', { intent: 'intent-3' }, `e.intent = 'intent-3'`, []],
  ['accepted true', { accepted: true }, `e.accepted`, []],
  ['accepted false', { accepted: false }, `e.accepted = false`, []],
  ['minFeedbackScore', { minFeedbackScore: 0 }, `e.feedback_score_count > 0 AND e.feedback_score_sum / e.feedback_score_count >= 0`, []],
  [
    'maxFeedbackScore',
    { maxFeedbackScore: -0.5 },
    `e.feedback_score_count > 0 AND e.feedback_score_sum / e.feedback_score_count <= -0.5`,
    [],
  ],
  ['createdAfter', { createdAfter: '2026-01-20T00:00:00.000Z' }, `e.created_at >= '2026-01-20T00:00:00Z'`, []],
  ['createdBefore', { createdBefore: '2026-01-11T00:00:00.000Z' }, `e.created_at < '2026-01-11T00:00:00Z'`, []],
  ['hasCanvas true', { hasCanvas: true }, `e.canvas_action_count > 0`, []],
  ['hasCanvas false', { hasCanvas: false }, `e.canvas_action_count = 0`, []],
  [
    'canvasType',
    { canvasType: 'charts' },
    `EXISTS (SELECT 1 FROM canvas_audits c WHERE c.episode_id = e.id AND c.canvas_type = 'charts')`,
    [],
  ],
  [
    'canvasAction',
    { canvasAction: 'CLOSE' },
    `EXISTS (SELECT 1 FROM canvas_audits c WHERE c.episode_id = e.id AND c.action = 'CLOSE')`,
    [],
  ],
  ['factId', { factId: FACT }, `EXISTS (SELECT 1 FROM episode_facts f WHERE f.episode_id = e.id AND f.fact_id = ?)`, [FACT]],
  [
    'several together',
    { agentId: 'agent-0', hasCanvas: true, topic: 'topic-0', createdAfter: '2026-01-05T00:00:00.000Z' },
    `e.agent_id = 'agent-0' AND e.canvas_action_count > 0 AND e.topic = 'topic-0' AND e.created_at >= '2026-01-05T00:00:00Z'`,
    [],
  ],
  [
    'canvasType and canvasAction',
    { canvasType: 'docs', canvasAction: 'CLOSE' },
    `EXISTS (SELECT 1 FROM canvas_audits c WHERE c.episode_id = e.id AND c.canvas_type = 'docs' AND c.action = 'CLOSE')`,
    [],
  ],
];

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createOrg('filters-a');
  b = await s.createOrg('filters-b');
  await seed(a.orgId);
  await seed(b.orgId);
});
afterAll(() => s?.close());

describe('episodes(filter:)', () => {
  it.each(CASES)('keeps what %s keeps, over HTTP and WebSocket', async (_name, filter, where, params) => {
    const want = await expected(a.orgId, where, params);
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(40);
    const http = await gql<Page, unknown>(s.url, PAGE, { filter, first: 100 }, a.token);
    expect(http.errors).toBeUndefined();
    expect(ids(http.data!)).toEqual(want);
    const client = wsClient(s.wsUrl, a.token);
    try {
      const ws = (await wsOnce<Page, unknown>(client, PAGE, { filter, first: 100 })) as { data?: Page };
      expect(ids(ws.data!)).toEqual(want);
    } finally {
      await client.dispose();
    }
    // the other organization's copies match too, and stay its own
    const other = await gql<Page, unknown>(s.url, PAGE, { filter, first: 100 }, b.token);
    expect(ids(other.data!)).toEqual(await expected(b.orgId, where, params));
    expect(ids(other.data!).some((id) => want.includes(id))).toBe(false);
  });

  it('pages through a filter by cursor, every episode once, newest first', async () => {
    const filter = { hasCanvas: true, sessionId: 'session-0' };
    const want = await expected(a.orgId, `e.canvas_action_count > 0 AND e.session_id = 'session-0'`);
    const seen: string[] = [];
    let after: string | null = null;
    for (let k = 0; k < 20; k++) {
      const r: { data?: Page | null } = await gql<Page, unknown>(s.url, PAGE, { filter, first: 3, after }, a.token);
      seen.push(...ids(r.data!));
      if (!r.data!.episodes.pageInfo.hasNextPage) break;
      after = r.data!.episodes.pageInfo.endCursor;
    }
    expect(seen).toEqual(want);
  });

  it('refuses a bad value naming it, a value of the filter before first', async () => {
    const bad = async (variables: Record<string, unknown>) => {
      const r = await gql<Page, unknown>(s.url, PAGE, variables, a.token);
      return [codeOf(r), fieldOf(r)];
    };
    expect(await bad({ filter: { minFeedbackScore: 2 } })).toEqual(['BAD_USER_INPUT', 'filter.minFeedbackScore']);
    expect(await bad({ filter: { factId: 'not-an-id' } })).toEqual(['BAD_USER_INPUT', 'filter.factId']);
    expect(await bad({ filter: { canvasType: 'Not A Type' } })).toEqual(['BAD_USER_INPUT', 'filter.canvasType']);
    expect(await bad({ filter: { timeRange: 'forever' } })).toEqual(['BAD_USER_INPUT', 'filter.timeRange']);
    expect(await bad({ filter: { maxFeedbackScore: -3 }, first: 0 })).toEqual(['BAD_USER_INPUT', 'filter.maxFeedbackScore']);
    expect(await bad({ first: 0 })).toEqual(['BAD_USER_INPUT', 'first']);
    expect(await bad({ after: 'junk' })).toEqual(['BAD_USER_INPUT', 'after']);
  });
});
