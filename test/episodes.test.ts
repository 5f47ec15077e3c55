import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppendSegmentsDocument, EpisodeDocument, EpisodesDocument, type EpisodesQuery, RecordEpisodeDocument } from './generated/graphql';
import { codeOf, fieldOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let a: { orgId: string; token: string };
let b: { orgId: string; token: string };
let agentA: string;
const count = async (table: string, orgId: string) =>
  (await s.app.db.orm.em.fork().execute(`SELECT count(*)::int AS n FROM ${table} WHERE org_id = ?`, [orgId]))[0].n;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createOrg('A');
  b = await s.createOrg('B');
  agentA = (await s.createKey(a.orgId, 'AGENT')).token;
});
afterAll(() => s?.close());

describe('recordEpisode', () => {
  it('records an episode with segments, outputs, facts and execution ids', async () => {
    const { recordEpisode: ep } = await gqlOk(
      s.url,
      RecordEpisodeDocument,
      {
        input: {
          agentId: 'tutor',
          sessionId: 's-1',
          title: 'Photosynthesis quiz',
          task: 'Write 2 questions on photosynthesis',
          topic: 'biology',
          executionIds: ['run-1'],
          metadata: { source: 'test' },
          segments: [
            { role: 'user', content: 'Please write questions' },
            { role: 'assistant', content: 'Here they are', tokenEstimate: 7 },
          ],
          outputs: [{ kind: 'mcq', content: { q: 'What do plants make?' }, qualityScore: 0.8 }],
          factExternalIds: ['FACT_a1b2c3d4'],
        },
      },
      agentA,
    );
    expect(ep).toMatchObject({
      agentId: 'tutor',
      topic: 'biology',
      executionIds: ['run-1'],
      canvasActionCount: 0,
      feedbackCount: 0,
      aggregateFeedbackScore: null,
      accepted: null,
    });
    expect(ep.segments.map((x) => [x.seq, x.role, x.tokenEstimate])).toEqual([
      [1, 'user', 6],
      [2, 'assistant', 7],
    ]);
    expect(ep.outputs[0]).toMatchObject({ kind: 'mcq', content: { q: 'What do plants make?' }, qualityScore: 0.8, regenerationRound: 0 });
    // an unknown external id becomes a stub fact in the agent's bank
    expect(ep.facts).toEqual([expect.objectContaining({ externalId: 'FACT_a1b2c3d4', bankId: 'tutor', text: '' })]);
    expect(ep.decayScore).toBeCloseTo(1, 3);
  });

  it('links facts by id, and refuses a fact of another organization as not found, writing nothing', async () => {
    const first = await gqlOk(s.url, RecordEpisodeDocument, { input: { agentId: 'x', factExternalIds: ['F-shared'] } }, a.token);
    const factId = first.recordEpisode.facts[0].id;
    const ok = await gqlOk(s.url, RecordEpisodeDocument, { input: { agentId: 'x', factIds: [factId] } }, a.token);
    expect(ok.recordEpisode.facts.map((f) => f.id)).toEqual([factId]);
    const before = await count('episodes', b.orgId);
    const r = await gql(s.url, RecordEpisodeDocument, { input: { agentId: 'x', factIds: [factId] } }, b.token);
    expect(codeOf(r)).toBe('NOT_FOUND');
    expect(fieldOf(r)).toBe('input.factIds.0');
    expect(await count('episodes', b.orgId)).toBe(before);
  });

  it.each([
    [{ agentId: '' }, 'input.agentId'],
    [{ agentId: 'x', metadata: { big: 'x'.repeat(11_000) } }, 'input.metadata'],
    [{ agentId: 'x', segments: [{ role: 'wizard', content: 'hi' }] }, 'input.segments.0.role'],
    [{ agentId: 'x', overallScore: 1.5 }, 'input.overallScore'],
    [{ agentId: 'x', occurredAt: new Date(Date.now() + 3_600_000).toISOString() }, 'input.occurredAt'],
    [{ agentId: 'x', factIds: ['not-an-id'] }, 'input.factIds.0'],
  ])('refuses %o with BAD_USER_INPUT on %s and writes nothing', async (input, field) => {
    const before = await count('episodes', a.orgId);
    const r = await gql(s.url, RecordEpisodeDocument, { input }, a.token);
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(fieldOf(r)).toBe(field);
    expect(await count('episodes', a.orgId)).toBe(before);
  });

  it('refuses an embedding whose dimension differs from the organization', async () => {
    await gqlOk(s.url, RecordEpisodeDocument, { input: { agentId: 'emb', embedding: [0.1, 0.2, 0.3] } }, b.token);
    const r = await gql(s.url, RecordEpisodeDocument, { input: { agentId: 'emb', embedding: [0.1, 0.2] } }, b.token);
    expect(fieldOf(r)).toBe('input.embedding');
  });

  it('refuses writes to VIEWER and OPERATOR keys', async () => {
    for (const role of ['VIEWER', 'OPERATOR'] as const) {
      const key = await s.createKey(a.orgId, role);
      expect(codeOf(await gql(s.url, RecordEpisodeDocument, { input: { agentId: 'x' } }, key.token))).toBe('FORBIDDEN');
    }
  });

  it('creates one episode for 5 concurrent repeats of one idempotency key, and refuses the key with another input', async () => {
    const input = { agentId: 'idem', title: 'once', idempotencyKey: 'ep-key-1', segments: [{ role: 'user', content: 'hello' }] };
    const results = await Promise.all(Array.from({ length: 5 }, () => gqlOk(s.url, RecordEpisodeDocument, { input }, a.token)));
    expect(new Set(results.map((r) => r.recordEpisode.id)).size).toBe(1);
    const [{ n }] = await s.app.db.orm.em
      .fork()
      .execute("SELECT count(*)::int AS n FROM episodes WHERE org_id = ? AND agent_id = 'idem'", [a.orgId]);
    expect(n).toBe(1);
    const r = await gql(s.url, RecordEpisodeDocument, { input: { ...input, title: 'twice' } }, a.token);
    expect(codeOf(r)).toBe('CONFLICT');
  });
});

describe('appendSegments', () => {
  it('numbers 20 concurrent appends without gaps or duplicates', async () => {
    const { recordEpisode: ep } = await gqlOk(
      s.url,
      RecordEpisodeDocument,
      { input: { agentId: 'chat', segments: [{ role: 'user', content: 'start' }] } },
      a.token,
    );
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        gqlOk(s.url, AppendSegmentsDocument, { episodeId: ep.id, segments: [{ role: 'assistant', content: `turn ${i}` }] }, a.token),
      ),
    );
    const { episode } = await gqlOk(s.url, EpisodeDocument, { id: ep.id }, a.token);
    expect(episode?.segments.map((x) => x.seq)).toEqual([20, 21]);
    const [{ seqs }] = await s.app.db.orm.em
      .fork()
      .execute('SELECT array_agg(seq ORDER BY seq) AS seqs FROM episode_segments WHERE episode_id = ?', [ep.id]);
    expect(seqs).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
  });

  it('treats an episode of another organization as not found', async () => {
    const { recordEpisode: ep } = await gqlOk(s.url, RecordEpisodeDocument, { input: { agentId: 'chat' } }, a.token);
    const r = await gql(s.url, AppendSegmentsDocument, { episodeId: ep.id, segments: [{ role: 'user', content: 'x' }] }, b.token);
    expect(codeOf(r)).toBe('NOT_FOUND');
    expect(fieldOf(r)).toBe('episodeId');
    expect((await gqlOk(s.url, EpisodeDocument, { id: ep.id }, b.token)).episode).toBeNull();
  });
});

describe('episodes connection', () => {
  it('pages newest first by keyset without gaps or repeats, with filters', async () => {
    const o = await s.createOrg('paging');
    const em = s.app.db.orm.em.fork();
    await em.execute(
      `INSERT INTO episodes (id, org_id, agent_id, topic, created_at, updated_at)
       SELECT gen_random_uuid(), ?, 'pager', CASE WHEN g % 2 = 0 THEN 'even' ELSE 'odd' END, now() - g * interval '1 minute', now()
         FROM generate_series(1, 45) g`,
      [o.orgId],
    );
    // rows sharing a timestamp are ordered by id
    await em.execute(
      `INSERT INTO episodes (id, org_id, agent_id, topic, created_at, updated_at) SELECT gen_random_uuid(), ?, 'pager', 'tie', '2020-01-01', now() FROM generate_series(1, 5)`,
      [o.orgId],
    );
    const seen: string[] = [];
    let after: string | null | undefined = null;
    for (;;) {
      const page: EpisodesQuery = await gqlOk(s.url, EpisodesDocument, { first: 20, after }, o.token);
      const { episodes } = page;
      seen.push(...episodes.edges.map((e) => e.node.id));
      if (!episodes.pageInfo.hasNextPage) break;
      after = episodes.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(50);
    expect(new Set(seen).size).toBe(50);
    const even = await gqlOk(s.url, EpisodesDocument, { filter: { topic: 'even', timeRange: '1d' }, first: 100 }, o.token);
    expect(even.episodes.edges).toHaveLength(22);
    const times = even.episodes.edges.map((e) => e.node.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it.each([
    [{ first: 101 }, 'first'],
    [{ after: 'garbage' }, 'after'],
    [{ filter: { timeRange: '30x' } }, 'filter.timeRange'],
    [{ filter: { canvasType: 'Not A Type' } }, 'filter.canvasType'],
  ])('refuses %o naming %s', async (vars, field) => {
    const r = await gql(s.url, EpisodesDocument, vars, a.token);
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(fieldOf(r)).toBe(field);
  });

  it("never shows another organization's episodes", async () => {
    const { episodes } = await gqlOk(s.url, EpisodesDocument, { first: 100 }, b.token);
    expect(episodes.edges.every((e) => e.node.agentId === 'emb')).toBe(true);
  });

  it('keeps organizations apart over WebSocket too', async () => {
    const { recordEpisode: ep } = await gqlOk(s.url, RecordEpisodeDocument, { input: { agentId: 'ws-private' } }, a.token);
    const c = wsClient(s.wsUrl, b.token);
    expect((await wsOnce(c, EpisodeDocument, { id: ep.id })).data?.episode).toBeNull();
    const list = await wsOnce(c, EpisodesDocument, { filter: { agentId: 'ws-private' } });
    expect(list.data?.episodes.edges).toEqual([]);
    const append = await wsOnce(c, AppendSegmentsDocument, { episodeId: ep.id, segments: [{ role: 'user', content: 'x' }] });
    expect(append.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    await c.dispose();
  });
});
