import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBenchData } from '../bench/data';
import { compareAnswers, difference } from '../bench/answers';
import { startRawServer, type RawServer } from '../bench/raw-server';
import { scenarios, type BenchData } from '../bench/scenarios';
import { BENCH_WRITER_AGENT, seed, type SeedResult } from '../bench/seed';
import { RecallDocument, RecallEpisodesDocument, type RecallInput } from './generated/graphql';
import { gql, gqlOk } from './helpers/client';
import { cloneDatabase, sqlClient } from './helpers/db';
import { startTestServer } from './helpers/server';

// Smoke run of the benchmark's seeder and raw baseline at scale 0.01 (no load, no timings).
describe('benchmark smoke run (scale 0.01)', () => {
  let url: string;
  let db: pg.Client;
  let seeded: SeedResult;
  let data: BenchData;
  let raw: RawServer;
  const token = `ml_${randomBytes(24).toString('hex')}`;

  beforeAll(async () => {
    url = await cloneDatabase();
    seeded = await seed(url, 0.01);
    data = await loadBenchData(url, seeded);
    db = await sqlClient(url);
    await db.query(
      `INSERT INTO api_keys (id, org_id, name, role, token_hash, token_prefix) VALUES (gen_random_uuid(), $1, 'bench', 'ADMIN', $2, $3)`,
      [seeded.orgId, createHash('sha256').update(token, 'utf8').digest('hex'), token.slice(0, 9)],
    );
    raw = await startRawServer({ databaseUrl: url, poolMax: 4 });
  });

  afterAll(async () => {
    await raw?.close();
    await db?.end();
  });

  const count = async (table: string, orgId: string, where = 'true') =>
    Number((await db.query(`SELECT count(*) AS n FROM ${table} WHERE org_id = $1 AND ${where}`, [orgId])).rows[0].n);

  it('seeds the planned row counts into the benchmark organization', async () => {
    const p = seeded.plan;
    expect(p).toMatchObject({ episodes: 100, corrections: 1000, layouts: 5, facts: 1000, embeddingDim: 64, recallEpisodes: 100 });
    const o = seeded.orgId;
    expect(await count('episodes', o, `agent_id <> '${seeded.recallAgentId}'`)).toBe(100);
    // the recall agent's episodes: embeddings of the bench's dimension, no segments
    expect(
      await count('episodes', o, `agent_id = '${seeded.recallAgentId}' AND array_length(embedding, 1) = 64 AND embedding_norm_sq > 0`),
    ).toBe(100);
    expect(await count('episode_segments', o)).toBe(100 * 10);
    expect(await count('canvas_audits', o)).toBe(100 * 5);
    expect(await count('feedback', o, 'episode_id IS NOT NULL')).toBe(100 * 3);
    expect(await count('feedback', o, 'episode_id IS NULL')).toBe(1000);
    expect(await count('layout_profiles', o)).toBe(5);
    expect(await count('facts', o, `bank_id = '${seeded.bankId}' AND array_length(embedding, 1) = 64`)).toBe(1000);
    // signal history: a query context per signalled fact, and as many logged signals as it counts
    const signalled = await count('facts', o, 'signal_count > 0');
    expect(signalled).toBeGreaterThan(800);
    expect(await count('fact_query_contexts', o, 'array_length(query_embedding, 1) = 64')).toBe(signalled);
    expect(await count('fact_signals', o)).toBe(
      Number((await db.query('SELECT sum(signal_count) AS n FROM facts WHERE org_id = $1', [o])).rows[0].n),
    );
    expect(Number((await db.query(`SELECT count(DISTINCT agent_id) n FROM episodes WHERE org_id = $1`, [o])).rows[0].n)).toBe(10 + 1);
    expect(
      Number(
        (await db.query(`SELECT count(*) n FROM organizations WHERE id = ANY($1::uuid[])`, [`{${o},${seeded.otherOrgId}}`])).rows[0].n,
      ),
    ).toBe(2);
    expect(await count('episodes', seeded.otherOrgId)).toBe(10);
  });

  it('keeps the episode counters consistent with the seeded rows', async () => {
    const drift = await db.query(
      `SELECT e.id FROM episodes e
        WHERE e.canvas_action_count <> (SELECT count(*) FROM canvas_audits c WHERE c.org_id = e.org_id AND c.episode_id = e.id)
           OR e.feedback_count <> (SELECT count(*) FROM feedback f WHERE f.org_id = e.org_id AND f.episode_id = e.id)
           OR e.feedback_score_count <> (SELECT count(score) FROM feedback f WHERE f.org_id = e.org_id AND f.episode_id = e.id)
           OR abs(e.feedback_score_sum - (SELECT COALESCE(sum(score), 0) FROM feedback f WHERE f.org_id = e.org_id AND f.episode_id = e.id)) > 1e-9`,
    );
    expect(drift.rowCount).toBe(0);
    const e = (
      await db.query(
        `SELECT canvas_action_count, feedback_count, feedback_score_count FROM episodes WHERE org_id = $1 AND agent_id <> $2 LIMIT 1`,
        [seeded.orgId, seeded.recallAgentId],
      )
    ).rows[0];
    expect(e).toEqual({ canvas_action_count: 5, feedback_count: 3, feedback_score_count: 3 });
  });

  const post = async (id: string, body: unknown, auth = `Bearer ${token}`) => {
    const res = await fetch(`http://127.0.0.1:${raw.port}/${id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: auth },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  };

  it('answers every scenario from the raw baseline (those it has)', async () => {
    for (const s of scenarios.filter((x) => x.raw !== false)) {
      const before = raw.statements();
      const { status, json } = await post(s.id, { query: s.query, variables: s.variables(data, 1) });
      expect({ id: s.id, status, errors: json.errors }).toEqual({ id: s.id, status: 200, errors: undefined });
      expect(json.data, s.id).toBeTruthy();
      expect(raw.statements() - before, s.id).toBeGreaterThanOrEqual(s.id === 'viewer' ? 1 : 2); // authentication + the scenario's SQL
    }
  });

  it('returns plausible answers from the raw baseline', async () => {
    const v = (id: string) => scenarios.find((s) => s.id === id)!.variables(data, 3);
    const eps = (await post('episodes', { variables: v('episodes') })).json.data;
    expect(eps.edges).toHaveLength(20);
    expect(eps.pageInfo.hasNextPage).toBe(true);
    // the newest seeded episode (the write scenarios above recorded newer ones); 10 turns and 3
    // feedback seeded, plus any the write scenarios added to it
    const ep = eps.edges.map((e: { node: unknown }) => e.node).find((e: { agentId: string }) => e.agentId !== BENCH_WRITER_AGENT);
    const n = async (table: string) => (await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE episode_id = $1`, [ep.id])).rows[0].n;
    const [segCount, fbCount] = [await n('episode_segments'), await n('feedback')];
    expect(segCount).toBeGreaterThanOrEqual(10);
    expect(ep.segments).toHaveLength(segCount);
    expect(ep.canvasContext).toHaveLength(5);
    expect(fbCount).toBeGreaterThanOrEqual(3);
    expect(ep.feedbackContext).toHaveLength(fbCount);
    const counters = `SELECT feedback_count, feedback_score_count, feedback_score_sum FROM episodes WHERE id = $1`;
    const was = (await db.query(counters, [data.hotEpisodeId])).rows[0];
    const fb = (await post('feedback-hot', { variables: v('feedback-hot') })).json.data; // RATING 4 -> +0.5
    expect(fb.episode.feedbackCount).toBe(was.feedback_count + 1);
    expect((await db.query(counters, [data.hotEpisodeId])).rows[0]).toEqual({
      feedback_count: was.feedback_count + 1,
      feedback_score_count: was.feedback_score_count + 1,
      feedback_score_sum: was.feedback_score_sum + 0.5,
    });
    const few = (await post('few-shot', { variables: v('few-shot') })).json.data;
    expect(few.examples).toHaveLength(3);
    const recall = (await post('recall', { variables: v('recall') })).json.data;
    expect(recall).toHaveLength(10);
    expect(recall[0].finalScore).toBeGreaterThanOrEqual(recall[9].finalScore);
    const mem = (await post('memory-context', { variables: v('memory-context') })).json.data;
    expect(mem.candidatesConsidered).toBe(100); // agent-0 has 10 episodes x 10 segments at this scale
    expect(mem.tokenEstimate).toBeLessThanOrEqual(4000);
    const an = (await post('analytics', { variables: v('analytics') })).json.data;
    expect(an.eventsByType.reduce((a: number, r: any) => a + r.count, 0)).toBe(1000);
  });

  it('recalls what the server recalls: the seeded embeddings count, with the same ranking', async () => {
    expect((await db.query('SELECT dimension FROM fact_embedding_dimensions WHERE org_id = $1', [seeded.orgId])).rows).toEqual([
      { dimension: 64 },
    ]);
    const variables = scenarios.find((s) => s.id === 'recall')!.variables(data, 5) as { input: RecallInput };
    const server = await startTestServer({ dbUrl: url });
    try {
      const got = (await gqlOk(server.url, RecallDocument, variables, token)).recall;
      const want = (await post('recall', { variables })).json.data;
      expect(got.map((r) => r.fact.id)).toEqual(want.map((r: any) => r.fact.id));
      got.forEach((r, i) => expect(r.finalScore).toBeCloseTo(want[i].finalScore, 6)); // usefulness decays between the two calls
      // a cosine with the fact's embedding, not the word similarity of the query text
      const [{ embedding }] = (await db.query('SELECT embedding FROM facts WHERE id = $1', [got[0].fact.id])).rows;
      const e = (embedding as string[]).map(Number);
      const q = variables.input.queryEmbedding!;
      const dot = e.reduce((a, x, k) => a + x * q[k], 0);
      const cosine = dot / Math.sqrt(e.reduce((a, x) => a + x * x, 0) * q.reduce((a, x) => a + x * x, 0));
      expect(got[0].semanticScore).toBeCloseTo(Math.max(0, cosine), 12);
    } finally {
      await server.close();
    }
  });

  it("ranks the recall agent's episodes as the server does, by cosine with their embeddings", async () => {
    const variables = scenarios.find((s) => s.id === 'recall-episodes')!.variables(data, 4) as {
      agentId: string;
      query: string;
      emb: number[];
    };
    expect(variables.agentId).toBe(seeded.recallAgentId);
    const server = await startTestServer({ dbUrl: url });
    try {
      const got = (
        await gqlOk(
          server.url,
          RecallEpisodesDocument,
          { agentId: variables.agentId, query: variables.query, queryEmbedding: variables.emb },
          token,
        )
      ).recallEpisodes;
      const want = (await post('recall-episodes', { variables })).json.data as { episode: { id: string }; relevance: number }[];
      expect(got).toHaveLength(10);
      expect(got.map((r) => r.episode.id)).toEqual(want.map((r) => r.episode.id));
      got.forEach((r, i) => expect(r.relevance).toBeCloseTo(want[i].relevance, 12));
      const [{ embedding }] = (await db.query('SELECT embedding FROM episodes WHERE id = $1', [got[0].episode.id])).rows;
      const e = (embedding as string[]).map(Number);
      const q = variables.emb;
      const dot = e.reduce((a, x, k) => a + x * q[k], 0);
      expect(got[0].relevance).toBeCloseTo(
        Math.max(0, dot / Math.sqrt(e.reduce((a, x) => a + x * x, 0) * q.reduce((a, x) => a + x * x, 0))),
        12,
      );
    } finally {
      await server.close();
    }
  });

  it('runs every scenario through the GraphQL server in a fixed number of statements, as many for 1 result as for 100', async () => {
    // the scenario's own statements: the key was authenticated by the warm-up request below and is
    // then found in the key cache, as it is on every request of a busy key
    const expected: Record<string, number> = {
      // the page, then its context lists' loaders together in one statement
      viewer: 0,
      episodes: 1,
      // the episode with its context lists, read ahead of it, in one statement
      episode: 1,
      // a scored feedback on an episode: BEGIN, the write, the credit plan of its facts, COMMIT
      'feedback-spread': 4,
      'feedback-hot': 4,
      'few-shot': 1,
      analytics: 3,
      // once the bank is in the vector index: the candidates read with the organization's change log
      // (and its embedding dimension, which the raw baseline takes as given) in one statement
      recall: 1,
      'recall-1': 1,
      'memory-context': 1,
      'upsert-facts': 6,
      'submit-signals': 11,
      'append-segments': 7,
      'memory-context-1': 1,
      'recall-episodes': 1,
      'recall-episodes-1': 1,
      'record-episode': 7, // begin, dimension, episode, segments, session links, commit
    };
    const server = await startTestServer({ dbUrl: url });
    const run = async (query: string, variables: Record<string, unknown>) => {
      server.sql.reset();
      const r = await gql(server.url, query, variables, token);
      expect(r.errors).toBeUndefined();
      return server.sql.count;
    };
    try {
      const counts: Record<string, number> = {};
      // the first recall of a bank reads it into the vector index
      await run(scenarios.find((s) => s.id === 'recall')!.query, scenarios.find((s) => s.id === 'recall')!.variables(data, 1));
      for (const s of scenarios) counts[s.id] = await run(s.query, s.variables(data, 2));
      expect(counts).toEqual(expected);
      // a page of 100 fits the cost limit when its context lists ask for 10 items instead of their default 100;
      // a page of 1 or 100 is one statement with its lists
      const episodes = scenarios
        .find((s) => s.id === 'episodes')!
        .query.replace(/(canvasContext|feedbackContext|segments) \{/g, '$1(limit: 10) {');
      expect([await run(episodes, { first: 1 }), await run(episodes, { first: 100 })]).toEqual([1, 1]);
    } finally {
      await server.close();
    }
  });

  it('refuses a request without a valid token', async () => {
    expect((await post('viewer', {}, 'Bearer ml_nope')).status).toBe(401);
  });

  it('answers every scenario as the GraphQL server does: every value of the reads, the shape of the writes', async () => {
    const server = await startTestServer({ dbUrl: url });
    try {
      const targets = [
        {
          name: 'graphql' as const,
          url: server.url,
          headers: { authorization: `Bearer ${token}` },
          stats: () => Promise.resolve({ statements: 0, cpuMs: 0 }),
        },
        {
          name: 'raw' as const,
          url: `http://127.0.0.1:${raw.port}/x`,
          headers: { authorization: `Bearer ${token}` },
          stats: () => Promise.resolve({ statements: 0, cpuMs: 0 }),
        },
      ];
      const agreements: Record<string, unknown> = {};
      for (const s of scenarios.filter((x) => x.raw !== false)) {
        targets[1].url = `http://127.0.0.1:${raw.port}/${s.id}`;
        const a = await compareAnswers(s, targets, (i) => JSON.stringify({ query: s.query, variables: s.variables(data, i) }), 3);
        agreements[s.id] = a.firstDifference ?? a.same;
      }
      expect(agreements).toEqual(Object.fromEntries(scenarios.filter((x) => x.raw !== false).map((s) => [s.id, s.write ? 1 : 3])));
    } finally {
      await server.close();
    }
  });

  it('finds a difference in a value, a length, a type or a missing field, and none within the tolerance', () => {
    expect(difference({ a: [{ b: 1 }] }, { a: [{ b: 1 + 1e-9 }] }, false)).toBeNull();
    expect(difference({ a: [{ b: 1 }] }, { a: [{ b: 1.01 }] }, false)).toBe('.a[0].b: 1 vs 1.01');
    expect(difference({ a: [1, 2] }, { a: [1] }, false)).toBe('.a: 2 items vs 1');
    expect(difference({ a: 'x' }, { a: 1 }, true)).toBe('.a: "x" vs 1');
    expect(difference({ a: 'x' }, { a: 'y' }, true)).toBeNull();
    expect(difference({ a: 1 }, { a: 1, b: 2 }, false)).toBe('.b: missing in the GraphQL answer');
  });
});
