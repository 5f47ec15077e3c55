import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CanvasAuditsDocument,
  CanvasInsightsDocument,
  EnrichedEpisodesDocument,
  EpisodeDocument,
  EpisodesByCanvasTypeDocument,
  EpisodesDocument,
  LinkSessionRecordsDocument,
  RecordCanvasActionDocument,
  RecordEpisodeDocument,
} from './generated/graphql';
import { codeOf, fieldOf, gql, gqlOk } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let a: { orgId: string; token: string };
let b: { orgId: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createOrg('A');
  b = await s.createOrg('B');
});
afterAll(() => s?.close());

const record = (input: Record<string, unknown>, token = a.token) =>
  gqlOk(s.url, RecordEpisodeDocument, { input: input as never }, token).then((r) => r.recordEpisode);
const act = (input: Record<string, unknown>, token = a.token) =>
  gqlOk(s.url, RecordCanvasActionDocument, { input: input as never }, token).then((r) => r.recordCanvasAction);
// one fixed instant, so the spacing of events never depends on how fast the requests run
const BASE = Date.now();
const ago = (seconds: number) => new Date(BASE - seconds * 1000).toISOString();

describe('recordCanvasAction', () => {
  it('links to the episode given and counts exactly under 50 concurrent actions', async () => {
    const ep = await record({ agentId: 'canvas-agent' });
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        act({ agentId: 'canvas-agent', episodeId: ep.id, canvasType: 'sheets', action: 'UPDATE', metadata: { i } }),
      ),
    );
    const { episode } = await gqlOk(s.url, EpisodeDocument, { id: ep.id }, a.token);
    expect(episode?.canvasActionCount).toBe(50);
    const [{ n }] = await s.app.db.orm.em.fork().execute('SELECT count(*)::int AS n FROM canvas_audits WHERE episode_id = ?', [ep.id]);
    expect(n).toBe(50);
  });

  it('given only a session, links to the latest episode of the same agent and session', async () => {
    await record({ agentId: 'sess-agent', sessionId: 'S1', title: 'older', occurredAt: ago(60) });
    const latest = await record({ agentId: 'sess-agent', sessionId: 'S1', title: 'latest' });
    const audit = await act({ agentId: 'sess-agent', sessionId: 'S1', canvasType: 'docs', action: 'PRESENT' });
    expect(audit.episodeId).toBe(latest.id);
    const other = await act({ agentId: 'other-agent', sessionId: 'S1', canvasType: 'docs', action: 'PRESENT' });
    expect(other.episodeId).toBeNull();
  });

  it('backfills same-session audits into a later episode, and linkSessionRecords links stragglers', async () => {
    await act({ agentId: 'late', sessionId: 'S2', canvasType: 'form', action: 'PRESENT' });
    await act({ agentId: 'late', sessionId: 'S2', canvasType: 'form', action: 'SUBMIT' });
    const ep = await record({ agentId: 'late', sessionId: 'S2' });
    expect(ep.canvasActionCount).toBe(2);
    // an audit written by another path with no episode, then linked explicitly
    await s.app.db.orm.em
      .fork()
      .execute(
        "INSERT INTO canvas_audits (id, org_id, created_at, agent_id, session_id, canvas_type, action) VALUES (gen_random_uuid(), ?, now(), 'late', 'S2', 'form', 'CLOSE')",
        [a.orgId],
      );
    const linked = await gqlOk(s.url, LinkSessionRecordsDocument, { episodeId: ep.id }, a.token);
    expect(linked.linkSessionRecords.canvasActionCount).toBe(3);
    expect(codeOf(await gql(s.url, LinkSessionRecordsDocument, { episodeId: ep.id }, b.token))).toBe('NOT_FOUND');
  });

  it.each([
    [{ canvasType: 'Charts' }, 'input.canvasType'],
    [{ canvasType: 'x'.repeat(65) }, 'input.canvasType'],
    [{ canvasType: 'charts', metadata: { blob: 'x'.repeat(11_000) } }, 'input.metadata'],
  ])('refuses %o on %s and writes nothing', async (extra, field) => {
    const [{ n: before }] = await s.app.db.orm.em.fork().execute('SELECT count(*)::int AS n FROM canvas_audits');
    const r = await gql(s.url, RecordCanvasActionDocument, { input: { agentId: 'bad', action: 'PRESENT', ...extra } as never }, a.token);
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(fieldOf(r)).toBe(field);
    const [{ n: after }] = await s.app.db.orm.em.fork().execute('SELECT count(*)::int AS n FROM canvas_audits');
    expect(after).toBe(before);
  });

  it('refuses an unknown action and an episode of another organization', async () => {
    const r = await gql(
      s.url,
      RecordCanvasActionDocument,
      { input: { agentId: 'x', canvasType: 'docs', action: 'DANCE' } as never },
      a.token,
    );
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    const epB = await record({ agentId: 'b-agent' }, b.token);
    const r2 = await gql(
      s.url,
      RecordCanvasActionDocument,
      { input: { agentId: 'x', canvasType: 'docs', action: 'PRESENT', episodeId: epB.id } },
      a.token,
    );
    expect(codeOf(r2)).toBe('NOT_FOUND');
    expect(fieldOf(r2)).toBe('input.episodeId');
  });
});

describe('canvas scenarios: presentation preferences and engagement', () => {
  it('presentation preferences: charts are closed quickly, markdown engages, and episodes are found by canvas type', async () => {
    const o = await s.createOrg('prefs');
    const ep1 = await record({ agentId: 'analyst', title: 'sales chart' }, o.token);
    const ep2 = await record({ agentId: 'analyst', title: 'sales summary' }, o.token);
    // a line chart closed after 3 s, a bar chart after 5 s; markdown read for 40 s
    const events: [string, string, string, string, number][] = [
      [ep1.id, 'c1', 'charts', 'line_chart', 100],
      [ep1.id, 'c1', 'charts', 'line_chart', 97],
      [ep1.id, 'c2', 'charts', 'bar_chart', 90],
      [ep1.id, 'c2', 'charts', 'bar_chart', 85],
      [ep2.id, 'm1', 'markdown', 'text', 80],
      [ep2.id, 'm1', 'markdown', 'text', 40],
    ];
    for (const [i, [episodeId, canvasId, canvasType, componentType, secondsAgo]] of events.entries()) {
      await act(
        {
          agentId: 'analyst',
          episodeId,
          canvasId,
          canvasType,
          componentType,
          action: i % 2 === 0 ? 'PRESENT' : 'CLOSE',
          occurredAt: ago(secondsAgo),
        },
        o.token,
      );
    }
    const { canvasInsights: ins } = await gqlOk(s.url, CanvasInsightsDocument, { agentId: 'analyst', timeRange: '1d' }, o.token);
    expect(ins.closesQuickly).toEqual(['charts']);
    expect(ins.engages).toEqual(['markdown']);
    const charts = ins.byType.find((t) => t.canvasType === 'charts')!;
    expect(charts).toMatchObject({ presentations: 2, closes: 2, submits: 0 });
    expect(charts.avgEngagementSeconds).toBeCloseTo(4, 1);
    const line = ins.byComponent.find((c) => c.componentType === 'line_chart')!;
    const bar = ins.byComponent.find((c) => c.componentType === 'bar_chart')!;
    expect(line.avgEngagementSeconds).toBeCloseTo(3, 1);
    expect(bar.avgEngagementSeconds).toBeCloseTo(5, 1);
    const { episodesByCanvasType } = await gqlOk(
      s.url,
      EpisodesByCanvasTypeDocument,
      { agentId: 'analyst', canvasType: 'markdown', timeRange: '1d' },
      o.token,
    );
    expect(episodesByCanvasType.map((e) => e.title)).toEqual(['sales summary']);
    const filtered = await gqlOk(
      s.url,
      EpisodesDocument,
      { filter: { agentId: 'analyst', canvasType: 'charts', canvasAction: 'CLOSE' } },
      o.token,
    );
    expect(filtered.episodes.edges.map((e) => e.node.id)).toEqual([ep1.id]);
    // another organization sees none of it
    const other = await gqlOk(s.url, CanvasInsightsDocument, { agentId: 'analyst', timeRange: '1d' }, b.token);
    expect(other.canvasInsights.byType).toEqual([]);
  });

  it('form workflow: forms presented and submitted show up as a submit pattern', async () => {
    const o = await s.createOrg('forms');
    for (let i = 0; i < 3; i++) {
      const ep = await record({ agentId: 'onboarder', sessionId: `form-${i}` }, o.token);
      await act(
        { agentId: 'onboarder', episodeId: ep.id, canvasId: `f${i}`, canvasType: 'form', action: 'PRESENT', occurredAt: ago(60) },
        o.token,
      );
      await act(
        {
          agentId: 'onboarder',
          episodeId: ep.id,
          canvasId: `f${i}`,
          canvasType: 'form',
          action: i < 2 ? 'SUBMIT' : 'CLOSE',
          occurredAt: ago(30),
        },
        o.token,
      );
    }
    const { canvasInsights: ins } = await gqlOk(s.url, CanvasInsightsDocument, { agentId: 'onboarder', timeRange: '7d' }, o.token);
    expect(ins.submits).toEqual(['form']);
    expect(ins.byType[0]).toMatchObject({ canvasType: 'form', presentations: 3, submits: 2, closes: 1 });
    const page = await gqlOk(s.url, CanvasAuditsDocument, { filter: { agentId: 'onboarder', action: 'SUBMIT' }, first: 1 }, o.token);
    expect(page.canvasAudits.edges).toHaveLength(1);
    expect(page.canvasAudits.pageInfo.hasNextPage).toBe(true);
    const next = await gqlOk(
      s.url,
      CanvasAuditsDocument,
      { filter: { agentId: 'onboarder', action: 'SUBMIT' }, first: 1, after: page.canvasAudits.pageInfo.endCursor },
      o.token,
    );
    expect(next.canvasAudits.edges[0].node.id).not.toBe(page.canvasAudits.edges[0].node.id);
    expect(next.canvasAudits.pageInfo.hasNextPage).toBe(false);
  });
});

describe('enriched episodes in one request', () => {
  it('runs the same number of SQL statements for 1 and 100 episodes with canvas context, segments, outputs and facts', async () => {
    const o = await s.createOrg('enriched');
    const em = s.app.db.orm.em.fork();
    await em.execute(
      `WITH e AS (
         INSERT INTO episodes (id, org_id, agent_id, created_at, updated_at, canvas_action_count)
         SELECT gen_random_uuid(), ?, 'bulk', now() - g * interval '1 second', now(), 2 FROM generate_series(1, 120) g RETURNING id, org_id),
       s AS (INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at)
         SELECT gen_random_uuid(), e.org_id, e.id, k, 'user', 'turn ' || k, 2, now() FROM e, generate_series(1, 3) k RETURNING 1),
       c AS (INSERT INTO canvas_audits (id, org_id, created_at, agent_id, episode_id, canvas_type, action)
         SELECT gen_random_uuid(), e.org_id, now(), 'bulk', e.id, t, 'PRESENT' FROM e, unnest(ARRAY['charts', 'docs']) t RETURNING 1),
       ou AS (INSERT INTO episode_outputs (id, org_id, episode_id, created_at, updated_at, kind, content)
         SELECT gen_random_uuid(), e.org_id, e.id, now(), now(), 'mcq', '{}' FROM e RETURNING 1),
       f AS (INSERT INTO facts (id, org_id, bank_id, text, created_at, updated_at) VALUES (gen_random_uuid(), ?, 'bulk', 'a fact', now(), now()) RETURNING id, org_id)
       INSERT INTO episode_facts (episode_id, fact_id, org_id, created_at) SELECT e.id, f.id, e.org_id, now() FROM e, f`,
      [o.orgId, o.orgId],
    );
    // both requests find the key in the key cache, so both count the same statements
    await gqlOk(s.url, EnrichedEpisodesDocument, { first: 1, limit: 10 }, o.token);
    s.sql.reset();
    const one = await gqlOk(s.url, EnrichedEpisodesDocument, { first: 1, limit: 10 }, o.token);
    const forOne = s.sql.count;
    s.sql.reset();
    // a page of 100 fits the cost limit with context lists of 10 items (their default is 100)
    const hundred = await gqlOk(s.url, EnrichedEpisodesDocument, { first: 100, limit: 10 }, o.token);
    const forHundred = s.sql.count;
    expect(one.episodes.edges).toHaveLength(1);
    expect(hundred.episodes.edges).toHaveLength(100);
    expect(forHundred).toBe(forOne);
    const node = hundred.episodes.edges[99].node;
    expect(node.segments.map((x) => x.seq)).toEqual([1, 2, 3]);
    expect(node.canvasContext).toHaveLength(2);
    expect(node.canvasIds).toEqual(node.canvasContext.map((c) => c.id));
    expect(node.charts).toHaveLength(1);
    expect(node.outputs).toHaveLength(1);
    expect(node.facts).toHaveLength(1);
    console.log(`statements: episodes(first: 1) ${forOne}, episodes(first: 100) ${forHundred}`);
  });
});
