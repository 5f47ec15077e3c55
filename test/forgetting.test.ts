import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decayScore } from '../src/modules/episodes/decay';
import { addEventCounts } from '../src/modules/shared/learning-event-counts';
import { DECAY_SQL } from '../src/modules/memory/lifecycle.service';
import {
  EpisodeDocument,
  ForgetEpisodesDocument,
  MemorySummaryDocument,
  PurgeExpiredFeedbackDocument,
  SimilarEpisodesDocument,
  TopicPerformanceDocument,
  TopicTrendDocument,
} from './generated/graphql';
import { codeOf, fieldOf, gql, gqlOk } from './helpers/client';
import { runCli } from './helpers/process';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
const sql = (q: string, p: unknown[] = []) => s.app.db.orm.em.fork().execute(q, p);

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

/** Inserts one episode `days` old with a segment, an output, a fact link, a judgement, a rating and a canvas action. */
async function seedEpisode(orgId: string, days: number, accepted: boolean | null, score: number | null, title: string): Promise<string> {
  const [{ id }] = await sql(
    `WITH e AS (INSERT INTO episodes (id, org_id, agent_id, title, topic, created_at, updated_at, accepted, overall_score, feedback_count, feedback_score_sum, feedback_score_count, canvas_action_count)
                VALUES (gen_random_uuid(), ?, 'a', ?, 'math', now() - ?::int * interval '1 day', now(), ?, ?, 2, 1, 1, 1) RETURNING id, org_id),
     f AS (INSERT INTO facts (id, org_id, bank_id, text, created_at, updated_at) SELECT gen_random_uuid(), org_id, 'a', 'fact', now(), now() FROM e RETURNING id),
     l AS (INSERT INTO episode_facts (episode_id, fact_id, org_id, created_at) SELECT e.id, f.id, e.org_id, now() FROM e, f),
     g AS (INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at) SELECT gen_random_uuid(), org_id, id, 1, 'user', 'hi', 1, now() FROM e),
     o AS (INSERT INTO episode_outputs (id, org_id, episode_id, created_at, updated_at, kind, content) SELECT gen_random_uuid(), org_id, id, now(), now(), 'mcq', '{}' FROM e),
     j AS (INSERT INTO feedback (id, org_id, created_at, episode_id, actor_id, feedback_type, accepted) SELECT gen_random_uuid(), org_id, now(), id, gen_random_uuid(), 'JUDGEMENT', ? FROM e),
     r AS (INSERT INTO feedback (id, org_id, created_at, episode_id, actor_id, feedback_type, rating, score) SELECT gen_random_uuid(), org_id, now(), id, gen_random_uuid(), 'RATING', 5, 1 FROM e),
     c AS (INSERT INTO canvas_audits (id, org_id, created_at, agent_id, episode_id, canvas_type, action) SELECT gen_random_uuid(), org_id, now(), 'a', id, 'docs', 'PRESENT' FROM e)
     SELECT id FROM e`,
    [orgId, title, days, accepted, score, accepted],
  );
  return id;
}

describe('decay', () => {
  it('is the same in SQL and TypeScript, penalties included', async () => {
    const lambda = s.config.decayLambda;
    for (const [days, accepted, score] of [
      [0, null, null],
      [10, false, null],
      [30, true, 0.3],
      [90, false, 0.2],
      [3.5, null, 0.9],
    ] as const) {
      const [row] = await sql(
        `SELECT ${DECAY_SQL} AS d FROM (SELECT now() - ?::float8 * interval '1 day' AS created_at, ?::boolean AS accepted, ?::float8 AS overall_score) e`,
        [lambda, days, accepted, score],
      );
      const ts = decayScore({ createdAt: new Date(Date.now() - days * 86_400_000), accepted, overallScore: score }, lambda);
      expect(Number(row.d)).toBeCloseTo(ts, 5);
    }
    expect(decayScore({ createdAt: new Date(), accepted: false, overallScore: 0.2 }, 0.05)).toBeCloseTo(0.42, 10);
  });
});

describe('forgetEpisodes', () => {
  it('keeps preserved and fresh episodes, deletes decayed and stale ones with their parts, and unlinks the rest', async () => {
    const o = await s.createOrg('forget');
    const keep = await seedEpisode(o.orgId, 200, true, 0.9, 'excellent and old');
    const fresh = await seedEpisode(o.orgId, 1, null, null, 'fresh');
    const stale = await seedEpisode(o.orgId, 100, null, null, 'stale');
    const decayed = await seedEpisode(o.orgId, 50, false, 0.2, 'decayed');
    const acceptedOld = await seedEpisode(o.orgId, 40, true, 0.6, 'accepted, middling');
    const dry = (await gqlOk(s.url, ForgetEpisodesDocument, { input: { dryRun: true } }, o.token)).forgetEpisodes;
    expect(dry).toMatchObject({ examined: 5, deleted: 2, preserved: 1 });
    expect(new Set(dry.deletedIds)).toEqual(new Set([stale, decayed]));
    expect((await sql('SELECT count(*)::int AS n FROM episodes WHERE org_id = ?', [o.orgId]))[0].n).toBe(5);

    const viewer = await s.createKey(o.orgId, 'INTEGRATOR');
    expect(codeOf(await gql(s.url, ForgetEpisodesDocument, {}, viewer.token))).toBe('FORBIDDEN');
    expect((await sql('SELECT count(*)::int AS n FROM episodes WHERE org_id = ?', [o.orgId]))[0].n).toBe(5);

    const run = (await gqlOk(s.url, ForgetEpisodesDocument, {}, o.token)).forgetEpisodes;
    expect(run).toMatchObject({ examined: 5, deleted: 2, preserved: 1, deletedIds: [] });
    for (const id of [keep, fresh, acceptedOld]) expect((await gqlOk(s.url, EpisodeDocument, { id }, o.token)).episode?.id).toBe(id);
    for (const id of [stale, decayed]) expect((await gqlOk(s.url, EpisodeDocument, { id }, o.token)).episode).toBeNull();
    const gone = [stale, decayed];
    const left = async (table: string, col = 'episode_id') =>
      (await sql(`SELECT count(*)::int AS n FROM ${table} WHERE ${col} = ANY(?::uuid[])`, [`{${gone.join(',')}}`]))[0].n;
    expect(await left('episode_segments')).toBe(0);
    expect(await left('episode_outputs')).toBe(0);
    expect(await left('episode_facts')).toBe(0);
    expect(await left('feedback')).toBe(0);
    expect(await left('canvas_audits')).toBe(0);
    // the ratings and canvas audits stay, unlinked; the judgements went with their episodes
    const [{ ratings, judgements, audits }] = await sql(
      `SELECT count(*) FILTER (WHERE feedback_type = 'RATING' AND episode_id IS NULL)::int AS ratings,
              count(*) FILTER (WHERE feedback_type = 'JUDGEMENT')::int AS judgements,
              (SELECT count(*) FROM canvas_audits WHERE org_id = ? AND episode_id IS NULL)::int AS audits
         FROM feedback WHERE org_id = ?`,
      [o.orgId, o.orgId],
    );
    expect({ ratings, judgements, audits }).toEqual({ ratings: 2, judgements: 3, audits: 2 });
    expect(fieldOf(await gql(s.url, ForgetEpisodesDocument, { input: { decayThreshold: 2 } }, o.token))).toBe('input.decayThreshold');
    expect(fieldOf(await gql(s.url, ForgetEpisodesDocument, { input: { maxAgeDays: -1 } }, o.token))).toBe('input.maxAgeDays');
  });

  it('forgets 100,000 of 200,000 seeded episodes in batches while reads keep being served, touching no other organization', async () => {
    const o = await s.createOrg('bulk');
    const other = await s.createOrg('bystander');
    await sql(
      `INSERT INTO episodes (id, org_id, agent_id, created_at, updated_at, accepted)
       SELECT gen_random_uuid(), ?, 'bulk', now() - CASE WHEN g % 2 = 0 THEN 200 ELSE 1 END * interval '1 day', now(), NULL FROM generate_series(1, 200000) g`,
      [o.orgId],
    );
    await sql(
      `INSERT INTO episodes (id, org_id, agent_id, created_at, updated_at) SELECT gen_random_uuid(), ?, 'bulk', now() - interval '300 days', now() FROM generate_series(1, 100)`,
      [other.orgId],
    );
    let reads = 0;
    let readErrors = 0;
    let done = false;
    const reader = (async () => {
      while (!done) {
        const r = await gql(s.url, MemorySummaryDocument, {}, o.token);
        if (r.errors) readErrors += 1;
        reads += 1;
      }
    })();
    const t0 = performance.now();
    const run = (await gqlOk(s.url, ForgetEpisodesDocument, {}, o.token)).forgetEpisodes;
    const seconds = (performance.now() - t0) / 1000;
    done = true;
    await reader;
    console.log(
      `forgetEpisodes: ${run.deleted} episodes in ${seconds.toFixed(2)} s (${Math.round(run.deleted / seconds)} per second), ${reads} concurrent reads`,
    );
    expect(run).toMatchObject({ examined: 200_000, deleted: 100_000, preserved: 0 });
    expect(readErrors).toBe(0);
    expect(reads).toBeGreaterThan(0);
    expect((await sql('SELECT count(*)::int AS n FROM episodes WHERE org_id = ?', [other.orgId]))[0].n).toBe(100);
    const again = (await gqlOk(s.url, ForgetEpisodesDocument, {}, o.token)).forgetEpisodes;
    expect(again.deleted).toBe(0);
  });
});

describe('purgeExpiredFeedback', () => {
  it('deletes feedback past the retention and keeps the episode aggregates exact', async () => {
    const o = await s.createOrg('purge');
    const [{ id }] = await sql(
      `INSERT INTO episodes (id, org_id, agent_id, created_at, updated_at, feedback_count, feedback_score_sum, feedback_score_count) VALUES (gen_random_uuid(), ?, 'p', now(), now(), 3, 0.5, 2) RETURNING id`,
      [o.orgId],
    );
    // written as the feedback writes do: the correction also counts into its day
    await sql(
      `WITH f AS (INSERT INTO feedback (id, org_id, created_at, episode_id, actor_id, feedback_type, score) VALUES
         (gen_random_uuid(), ?, now() - interval '400 days', ?, gen_random_uuid(), 'THUMBS_DOWN', -1),
         (gen_random_uuid(), ?, now(), ?, gen_random_uuid(), 'RATING', 1.5 - 0),
         (gen_random_uuid(), ?, now() - interval '400 days', ?, gen_random_uuid(), 'CORRECTION', NULL)
         RETURNING org_id, created_at, feedback_type, event_type, changed_fields),
       c AS (${addEventCounts('f', 1)})
       SELECT count(*) FROM f`,
      [o.orgId, id, o.orgId, id, o.orgId, id],
    );
    const { purgeExpiredFeedback } = await gqlOk(s.url, PurgeExpiredFeedbackDocument, {}, o.token);
    expect(purgeExpiredFeedback.deleted).toBe(2);
    expect(await sql('SELECT * FROM learning_event_counts WHERE org_id = ?', [o.orgId])).toEqual([]);
    const { episode } = await gqlOk(s.url, EpisodeDocument, { id }, o.token);
    expect(episode).toMatchObject({ feedbackCount: 1, aggregateFeedbackScore: 1.5 });
    const op = await s.createKey(o.orgId, 'OPERATOR');
    expect(codeOf(await gql(s.url, PurgeExpiredFeedbackDocument, {}, op.token))).toBe('FORBIDDEN');
    expect(fieldOf(await gql(s.url, PurgeExpiredFeedbackDocument, { retentionDays: 0 }, o.token))).toBe('retentionDays');
  });

  it('runs with forgetting from `npm run cli -- maintain`', async () => {
    const o = await s.createOrg('cron');
    await sql(
      `INSERT INTO feedback (id, org_id, created_at, actor_id, feedback_type) VALUES (gen_random_uuid(), ?, now() - interval '500 days', gen_random_uuid(), 'THUMBS_UP')`,
      [o.orgId],
    );
    await sql(
      `INSERT INTO episodes (id, org_id, agent_id, created_at, updated_at) VALUES (gen_random_uuid(), ?, 'c', now() - interval '500 days', now())`,
      [o.orgId],
    );
    const r = await runCli(['maintain'], { DATABASE_URL: s.dbUrl, MIGRATE_ON_START: 'false' });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.feedbackDeleted).toBeGreaterThanOrEqual(1);
    expect(out.episodesDeleted).toBeGreaterThanOrEqual(1);
    expect((await sql('SELECT count(*)::int AS n FROM feedback WHERE org_id = ?', [o.orgId]))[0].n).toBe(0);
  });
});

describe('diagnostics', () => {
  it('ranks similar episodes, sums up topics and the organization, and keeps organizations apart', async () => {
    const o = await s.createOrg('diag');
    const a = await seedEpisode(o.orgId, 0, true, 0.9, 'algebra 1');
    const b = await seedEpisode(o.orgId, 0, false, 0.4, 'algebra 2');
    const [{ fact }] = await sql('SELECT fact_id AS fact FROM episode_facts WHERE episode_id = ?', [b]);
    await sql('INSERT INTO episode_facts (episode_id, fact_id, org_id, created_at) VALUES (?, ?, ?, now())', [a, fact, o.orgId]);
    const similar = await gqlOk(s.url, SimilarEpisodesDocument, { factIds: [fact] }, o.token);
    expect(similar.similarEpisodes.map((e) => e.id)).toEqual([a, b]);
    const byTopic = await gqlOk(s.url, SimilarEpisodesDocument, { topic: 'math', minScore: 0.5 }, o.token);
    expect(byTopic.similarEpisodes.map((e) => e.id)).toEqual([a]);
    expect(fieldOf(await gql(s.url, SimilarEpisodesDocument, {}, o.token))).toBe('topic');
    const { topicPerformance } = await gqlOk(s.url, TopicPerformanceDocument, {}, o.token);
    expect(topicPerformance).toEqual([
      { topic: 'math', episodes: 2, outputs: 2, averageScore: expect.closeTo(0.65, 10), acceptanceRate: 0.5 },
    ]);
    const { topicTrend } = await gqlOk(s.url, TopicTrendDocument, { topic: 'math', days: 7 }, o.token);
    expect(topicTrend).toEqual([{ date: new Date().toISOString().slice(0, 10), averageScore: expect.closeTo(0.65, 10), episodes: 2 }]);
    const { memorySummary } = await gqlOk(s.url, MemorySummaryDocument, {}, o.token);
    expect(memorySummary).toMatchObject({
      episodes: 2,
      segments: 2,
      facts: 2,
      feedback: 4,
      canvasAudits: 2,
      layoutProfiles: 0,
      acceptanceRate: 0.5,
    });
    const stranger = await s.createOrg('stranger');
    expect((await gqlOk(s.url, SimilarEpisodesDocument, { factIds: [fact] }, stranger.token)).similarEpisodes).toEqual([]);
    expect((await gqlOk(s.url, TopicPerformanceDocument, {}, stranger.token)).topicPerformance).toEqual([]);
    expect((await gqlOk(s.url, MemorySummaryDocument, {}, stranger.token)).memorySummary.episodes).toBe(0);
  });
});
