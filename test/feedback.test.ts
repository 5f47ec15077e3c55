import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedbackScore } from '../src/modules/feedback/feedback-score';
import { reduceCorrection } from '../src/modules/feedback/correction-reduce';
import {
  EpisodesWithFeedbackDocument,
  FeedbackEpisodesDocument,
  FeedbackPageDocument,
  JudgeEpisodeDocument,
  RecordCorrectionDocument,
  RecordEpisodeDocument,
  SubmitFeedbackDocument,
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

const episode = (input: Record<string, unknown> = {}, token = a.token) =>
  gqlOk(s.url, RecordEpisodeDocument, { input: { agentId: 'fb-agent', ...input } as never }, token).then((r) => r.recordEpisode);
const submit = (input: Record<string, unknown>, token = a.token) =>
  gqlOk(s.url, SubmitFeedbackDocument, { input: input as never }, token).then((r) => r.submitFeedback);
const feedbackRows = async (orgId: string) =>
  (await s.app.db.orm.em.fork().execute('SELECT count(*)::int AS n FROM feedback WHERE org_id = ?', [orgId]))[0].n;

describe('scores', () => {
  it('scores thumbs +1 / -1 and a rating r as (r - 3) / 2', () => {
    expect(feedbackScore('THUMBS_UP', null)).toBe(1);
    expect(feedbackScore('THUMBS_DOWN', null)).toBe(-1);
    expect([1, 2, 3, 4, 5].map((r) => feedbackScore('RATING', r))).toEqual([-1, -0.5, 0, 0.5, 1]);
    expect(feedbackScore('CORRECTION', null)).toBeNull();
    expect(feedbackScore('CONFIRMATION', 4)).toBe(0.5);
    expect(feedbackScore('JUDGEMENT', 5)).toBeNull();
  });

  it('keeps the aggregate the mean of scored feedback and counts unscored feedback too', async () => {
    const ep = await episode();
    await submit({ episodeId: ep.id, feedbackType: 'THUMBS_UP' });
    await submit({ episodeId: ep.id, feedbackType: 'RATING', rating: 2 });
    await submit({ episodeId: ep.id, feedbackType: 'CORRECTION', corrections: 'use metric units' });
    const last = await submit({ episodeId: ep.id, feedbackType: 'RATING', rating: 4, actorUserId: 'user-7' });
    expect(last.episode).toMatchObject({ feedbackCount: 4 });
    expect(last.episode?.aggregateFeedbackScore).toBeCloseTo((1 - 0.5 + 0.5) / 3, 10);
    expect(last.feedback).toMatchObject({ feedbackType: 'RATING', rating: 4, score: 0.5, agentId: 'fb-agent', actorUserId: 'user-7' });
    expect(last.feedback.actorId).toEqual(expect.any(String));
  });

  it('writes feedback on an episode in one statement that returns both rows (with its credit plan in one transaction), and replays a key with the rows as they are now', async () => {
    const ep = await episode({ sessionId: 's-one' });
    const first = await submit({ episodeId: ep.id, feedbackType: 'THUMBS_UP' });
    s.sql.reset();
    const r = await submit({
      episodeId: ep.id,
      feedbackType: 'RATING',
      rating: 5,
      corrections: 'fine',
      actorUserId: 'u-1',
      executionId: 'x-1',
      occurredAt: '2026-01-02T03:04:05.678Z',
    });
    // a scored feedback credits the facts its episode used, in the write's transaction: BEGIN, the
    // write, the credit plan (nothing to credit here), COMMIT; no reload of either row
    expect(s.sql.besidesAuth, s.sql.statements.join('\n')).toBe(4);
    expect(r.episode).toEqual({ id: ep.id, feedbackCount: 2, aggregateFeedbackScore: 1 });
    expect(r.feedback).toMatchObject({
      feedbackType: 'RATING',
      rating: 5,
      score: 1,
      corrections: 'fine',
      actorUserId: 'u-1',
      agentId: 'fb-agent',
      episodeId: ep.id,
    });
    expect(r.feedback.createdAt).toBe('2026-01-02T03:04:05.678Z');
    // what the mutation returned is what a later read sees
    const [row] = await s.app.db.orm.em
      .fork()
      .execute('SELECT feedback_type, rating, score, corrections, created_at FROM feedback WHERE id = ?', [r.feedback.id]);
    expect(row).toMatchObject({ feedback_type: 'RATING', rating: 5, score: 1, corrections: 'fine' });
    expect(new Date(row.created_at).toISOString()).toBe('2026-01-02T03:04:05.678Z');
    expect(first.feedback.id).not.toBe(r.feedback.id);
    // an unknown episode writes nothing, in the same one statement
    const before = await feedbackRows(a.orgId);
    const missing = await gql(
      s.url,
      SubmitFeedbackDocument,
      { input: { episodeId: '00000000-0000-4000-8000-00000000beef', feedbackType: 'THUMBS_UP' } as never },
      a.token,
    );
    expect(codeOf(missing)).toBe('NOT_FOUND');
    expect(fieldOf(missing)).toBe('input.episodeId');
    expect(await feedbackRows(a.orgId)).toBe(before);
    // a replayed key answers with the episode as it is now, not as it was at the first call
    const keyed = await submit({ episodeId: ep.id, feedbackType: 'THUMBS_DOWN', idempotencyKey: 'k-rows' });
    await submit({ episodeId: ep.id, feedbackType: 'THUMBS_UP' });
    const replay = await submit({ episodeId: ep.id, feedbackType: 'THUMBS_DOWN', idempotencyKey: 'k-rows' });
    expect(replay.feedback.id).toBe(keyed.feedback.id);
    expect(keyed.episode?.feedbackCount).toBe(3);
    expect(replay.episode?.feedbackCount).toBe(4);
  });

  it('stays exact with 50 concurrent clients giving 20 ratings each', async () => {
    const ep = await episode();
    const ratings = Array.from({ length: 1000 }, (_, i) => ((i * 7) % 5) + 1);
    await Promise.all(
      Array.from({ length: 50 }, async (_, c) => {
        for (let k = 0; k < 20; k++) await submit({ episodeId: ep.id, feedbackType: 'RATING', rating: ratings[c * 20 + k] });
      }),
    );
    const [row] = await s.app.db.orm.em
      .fork()
      .execute('SELECT count(*)::int AS n, avg(score)::float8 AS mean FROM feedback WHERE episode_id = ?', [ep.id]);
    const { episodes } = await gqlOk(s.url, EpisodesWithFeedbackDocument, { first: 1 }, a.token);
    expect(episodes.edges[0].node.id).toBe(ep.id);
    expect(row.n).toBe(1000);
    const res = await submit({ episodeId: ep.id, feedbackType: 'CORRECTION' });
    expect(res.episode?.feedbackCount).toBe(1001);
    expect(res.episode?.aggregateFeedbackScore).toBeCloseTo(row.mean, 12);
  });
});

describe('submitFeedback input', () => {
  it.each([
    [{ feedbackType: 'RATING', rating: 6 }, 'input.rating'],
    [{ feedbackType: 'RATING', rating: 0 }, 'input.rating'],
    [{ feedbackType: 'RATING' }, 'input.rating'],
    [{ feedbackType: 'THUMBS_UP', rating: 5 }, 'input.rating'],
    [{ feedbackType: 'CORRECTION', corrections: 'x'.repeat(4001) }, 'input.corrections'],
    [{ feedbackType: 'JUDGEMENT' }, 'input.feedbackType'],
    // feedback that names neither its episode nor an agent and session could never be found
    [{ feedbackType: 'THUMBS_UP' }, 'input.episodeId'],
    [{ feedbackType: 'THUMBS_UP', agentId: 'fb-agent' }, 'input.episodeId'],
    [{ feedbackType: 'RATING', rating: 3, sessionId: 'fs-9' }, 'input.episodeId'],
  ])('refuses %o on %s and writes nothing', async (input, field) => {
    const before = await feedbackRows(a.orgId);
    const r = await gql(s.url, SubmitFeedbackDocument, { input: input as never }, a.token);
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(fieldOf(r)).toBe(field);
    expect(await feedbackRows(a.orgId)).toBe(before);
  });

  it('refuses an unknown feedback type', async () => {
    const r = await gql(s.url, SubmitFeedbackDocument, { input: { feedbackType: 'MEH' } as never }, a.token);
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
  });

  it('treats an episode of another organization as not found', async () => {
    const ep = await episode({}, b.token);
    const r = await gql(s.url, SubmitFeedbackDocument, { input: { episodeId: ep.id, feedbackType: 'THUMBS_UP' } }, a.token);
    expect(codeOf(r)).toBe('NOT_FOUND');
    expect(fieldOf(r)).toBe('input.episodeId');
  });

  it('links by session to the latest episode of the agent, and is linked later by recordEpisode when none exists yet', async () => {
    const ep = await episode({ sessionId: 'fs-1' });
    const r = await submit({ agentId: 'fb-agent', sessionId: 'fs-1', feedbackType: 'THUMBS_DOWN' });
    expect(r.feedback.episodeId).toBe(ep.id);
    const early = await submit({ agentId: 'fb-agent', sessionId: 'fs-2', feedbackType: 'THUMBS_UP' });
    expect(early.episode).toBeNull();
    const later = await episode({ sessionId: 'fs-2' });
    expect(later).toMatchObject({ feedbackCount: 1, aggregateFeedbackScore: 1 });
  });

  it('refuses VIEWER keys and replays an idempotent submit without a second row', async () => {
    const viewer = await s.createKey(a.orgId, 'VIEWER');
    expect(codeOf(await gql(s.url, SubmitFeedbackDocument, { input: { feedbackType: 'THUMBS_UP' } }, viewer.token))).toBe('FORBIDDEN');
    const ep = await episode();
    const input = { episodeId: ep.id, feedbackType: 'THUMBS_UP', idempotencyKey: 'fb-once' };
    const [x, y] = await Promise.all([submit(input), submit(input)]);
    expect(x.feedback.id).toBe(y.feedback.id);
    expect(y.episode?.feedbackCount).toBe(1);
  });
});

describe('recordCorrection', () => {
  const big = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`field_${i}`, 'v'.repeat(1000)]));

  it('stores CORRECTION with the event and reduces a 50 KB before/after to the changed keys', async () => {
    const before = big(50);
    const after = { ...before, field_3: 'changed '.repeat(200) };
    const fb = (
      await gqlOk(
        s.url,
        RecordCorrectionDocument,
        { input: { eventType: 'EXTRACTION_FIELD_CORRECTED', before, after, meta: { input_snippet: 'x' } } },
        a.token,
      )
    ).recordCorrection;
    expect(fb.feedbackType).toBe('CORRECTION');
    expect(Object.keys(fb.before!)).toEqual(['field_3']);
    expect((fb.after!.field_3 as string).length).toBe(500);
    expect(fb.meta).toEqual({ input_snippet: 'x', reduced: true });
  });

  it('refuses with PAYLOAD_TOO_LARGE when the changed keys still do not fit, writing nothing', async () => {
    const before = big(50);
    const after = Object.fromEntries(Object.keys(before).map((k) => [k, 'w'.repeat(1000)]));
    const count = await feedbackRows(a.orgId);
    const r = await gql(s.url, RecordCorrectionDocument, { input: { eventType: 'EXTRACTION_FIELD_CORRECTED', before, after } }, a.token);
    expect(codeOf(r)).toBe('PAYLOAD_TOO_LARGE');
    expect(await feedbackRows(a.orgId)).toBe(count);
    expect(reduceCorrection({ a: 1 }, { a: 2 }, null)).toEqual({ before: { a: 1 }, after: { a: 2 }, meta: null });
  });

  it('takes the layout fingerprint of a recorded document, and refuses bad event types and fingerprints', async () => {
    const fp = 'a'.repeat(64);
    await s.app.db.orm.em
      .fork()
      .execute(
        "INSERT INTO documents (id, org_id, created_at, updated_at, document_id, layout_fingerprint, page_count, page_dimensions, table_count, text_coverage_ratio) VALUES (gen_random_uuid(), ?, now(), now(), 'doc-1', ?, 1, '[[612.0, 792.0]]', 0, 0.5)",
        [a.orgId, fp],
      );
    const fb = (
      await gqlOk(
        s.url,
        RecordCorrectionDocument,
        { input: { eventType: 'EXTRACTION_LINE_CORRECTED', documentId: 'doc-1', before: { a: 1 }, after: { a: 2 } } },
        a.token,
      )
    ).recordCorrection;
    expect(fb.layoutFingerprint).toBe(fp);
    // another organization's document of the same id is not used
    const other = (
      await gqlOk(
        s.url,
        RecordCorrectionDocument,
        { input: { eventType: 'EXTRACTION_LINE_CORRECTED', documentId: 'doc-1', before: {}, after: {} } },
        b.token,
      )
    ).recordCorrection;
    expect(other.layoutFingerprint).toBeNull();
    const bad = await gql(s.url, RecordCorrectionDocument, { input: { eventType: 'mapping-confirmed', before: {}, after: {} } }, a.token);
    expect(fieldOf(bad)).toBe('input.eventType');
    const badFp = await gql(
      s.url,
      RecordCorrectionDocument,
      { input: { eventType: 'X', layoutFingerprint: 'ABC', before: {}, after: {} } },
      a.token,
    );
    expect(fieldOf(badFp)).toBe('input.layoutFingerprint');
    const notObject = await gql(
      s.url,
      RecordCorrectionDocument,
      { input: { eventType: 'X', before: [1, 2], after: {} } as never },
      a.token,
    );
    expect(codeOf(notObject)).toBe('BAD_USER_INPUT');
  });
});

describe('judgeEpisode', () => {
  it('records the verdict, updates outputs, and writes a JUDGEMENT feedback', async () => {
    const ep = await episode({ outputs: [{ kind: 'mcq', content: { q: 1 } }] });
    const outputId = (await s.app.db.orm.em.fork().execute('SELECT id FROM episode_outputs WHERE episode_id = ?', [ep.id]))[0].id;
    const { judgeEpisode: j } = await gqlOk(
      s.url,
      JudgeEpisodeDocument,
      {
        input: {
          episodeId: ep.id,
          accepted: false,
          overallScore: 0.3,
          reason: 'off topic',
          judgeFeedback: 'stick to the syllabus',
          outputUpdates: [{ outputId, regenerationRound: 1, qualityScore: 0.2 }],
        },
      },
      a.token,
    );
    expect(j).toMatchObject({ accepted: false, overallScore: 0.3, feedbackCount: 1 });
    expect(j.decayScore).toBeCloseTo(0.6 * 0.7, 3);
    expect(j.outputs[0]).toMatchObject({ regenerationRound: 1, qualityScore: 0.2 });
    expect(j.feedbackContext[0]).toMatchObject({
      feedbackType: 'JUDGEMENT',
      accepted: false,
      reason: 'off topic',
      corrections: 'stick to the syllabus',
      score: null,
    });
  });

  it('refuses an output of another episode and an episode of another organization, changing nothing', async () => {
    const ep = await episode();
    const other = await episode({ outputs: [{ kind: 'mcq', content: {} }] });
    const outputId = (await s.app.db.orm.em.fork().execute('SELECT id FROM episode_outputs WHERE episode_id = ?', [other.id]))[0].id;
    const r = await gql(
      s.url,
      JudgeEpisodeDocument,
      { input: { episodeId: ep.id, accepted: true, outputUpdates: [{ outputId }] } },
      a.token,
    );
    expect(fieldOf(r)).toBe('input.outputUpdates.0.outputId');
    const [row] = await s.app.db.orm.em.fork().execute('SELECT accepted FROM episodes WHERE id = ?', [ep.id]);
    expect(row.accepted).toBeNull();
    expect(codeOf(await gql(s.url, JudgeEpisodeDocument, { input: { episodeId: ep.id, accepted: true } }, b.token))).toBe('NOT_FOUND');
  });
});

describe('reading feedback', () => {
  it('batches feedbackIds and feedbackContext, pages feedback and finds well-rated episodes', async () => {
    const o = await s.createOrg('reader');
    const good = await episode({ agentId: 'r' }, o.token);
    const bad = await episode({ agentId: 'r' }, o.token);
    await submit({ episodeId: good.id, feedbackType: 'THUMBS_UP' }, o.token);
    await submit({ episodeId: good.id, feedbackType: 'RATING', rating: 5 }, o.token);
    await submit({ episodeId: bad.id, feedbackType: 'THUMBS_DOWN' }, o.token);
    await submit({ episodeId: bad.id, feedbackType: 'CORRECTION', corrections: 'wrong' }, o.token);
    s.sql.reset();
    const { episodes } = await gqlOk(s.url, EpisodesWithFeedbackDocument, { first: 10 }, o.token);
    const statements = s.sql.count;
    expect(statements).toBeLessThanOrEqual(4); // auth, episodes, one feedback load per argument set
    const byId = new Map(episodes.edges.map((e) => [e.node.id, e.node]));
    expect(byId.get(bad.id)!.feedbackIds).toHaveLength(2);
    expect(byId.get(bad.id)!.thumbs).toHaveLength(1);
    expect(byId.get(good.id)!.feedbackContext.map((f) => f.score)).toEqual([1, 1]);
    const page = await gqlOk(s.url, FeedbackPageDocument, { filter: { types: ['THUMBS_UP', 'THUMBS_DOWN'] }, first: 1 }, o.token);
    expect(page.feedback.edges[0].node.feedbackType).toBe('THUMBS_DOWN');
    const next = await gqlOk(
      s.url,
      FeedbackPageDocument,
      { filter: { types: ['THUMBS_UP', 'THUMBS_DOWN'] }, first: 1, after: page.feedback.pageInfo.endCursor },
      o.token,
    );
    expect(next.feedback.edges[0].node.feedbackType).toBe('THUMBS_UP');
    expect(next.feedback.pageInfo.hasNextPage).toBe(false);
    const { feedbackEpisodes } = await gqlOk(s.url, FeedbackEpisodesDocument, { agentId: 'r', minFeedbackScore: 0.5 }, o.token);
    expect(feedbackEpisodes.map((e) => e.id)).toEqual([good.id]);
    // nothing of this organization is visible to another
    expect((await gqlOk(s.url, FeedbackEpisodesDocument, { agentId: 'r', minFeedbackScore: -1 }, b.token)).feedbackEpisodes).toEqual([]);
    expect((await gqlOk(s.url, FeedbackPageDocument, { filter: { episodeId: good.id } }, b.token)).feedback.edges).toEqual([]);
  });

  it('reads the large feedback and canvas columns only for requests that select them', async () => {
    const o = await s.createOrg('columns');
    const ep = await episode({ agentId: 'cols', sessionId: 'cols-1' }, o.token);
    await submit({ episodeId: ep.id, feedbackType: 'CORRECTION', corrections: 'use metric units' }, o.token);
    await gqlOk(
      s.url,
      RecordCorrectionDocument,
      {
        input: { episodeId: ep.id, eventType: 'FIELD_FIXED', before: { unit: 'mi' }, after: { unit: 'km' }, meta: { by: 'ops' } } as never,
      },
      o.token,
    );
    await gql(
      s.url,
      'mutation($i: CanvasActionInput!) { recordCanvasAction(input: $i) { id } }',
      { i: { agentId: 'cols', sessionId: 'cols-1', episodeId: ep.id, canvasType: 'docs', action: 'PRESENT', metadata: { pane: 2 } } },
      o.token,
    );
    const query = (fields: string) =>
      `query($id: ID!) { episode(id: $id) { feedbackContext { id feedbackType ${fields} } canvasContext { id ${fields.includes('meta') ? 'metadata' : ''} } } }`;
    s.sql.reset();
    const brief = await gql(s.url, query(''), { id: ep.id }, o.token);
    expect(brief.errors).toBeUndefined();
    const briefSql = s.sql.statements.join('\n');
    for (const large of ['"fb"."corrections"', '"fb"."before"', '"fb"."after"', '"fb"."meta"', '"c"."metadata"'])
      expect(briefSql).not.toContain(large);
    s.sql.reset();
    const full = (await gql(s.url, query('corrections before after meta'), { id: ep.id }, o.token)) as {
      data?: { episode: { feedbackContext: Record<string, unknown>[]; canvasContext: Record<string, unknown>[] } };
    };
    for (const large of ['"fb"."corrections"', '"fb"."before"', '"fb"."after"', '"fb"."meta"', '"c"."metadata"'])
      expect(s.sql.statements.join('\n')).toContain(large);
    const fb = full.data!.episode.feedbackContext;
    expect(fb.map((f) => [f.feedbackType, f.corrections, f.before, f.after, f.meta])).toEqual([
      ['CORRECTION', 'use metric units', null, null, null],
      ['CORRECTION', null, { unit: 'mi' }, { unit: 'km' }, { by: 'ops' }],
    ]);
    expect(full.data!.episode.canvasContext[0].metadata).toEqual({ pane: 2 });
  });

  it('refuses a malformed time range and page size', async () => {
    expect(fieldOf(await gql(s.url, FeedbackPageDocument, { filter: { timeRange: '30x' } }, a.token))).toBe('filter.timeRange');
    expect(fieldOf(await gql(s.url, FeedbackPageDocument, { first: 101 }, a.token))).toBe('first');
  });
});
