import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recallScore } from '../src/modules/feedback/recall-episodes.score';
import { RecallEpisodesDocument } from './generated/graphql';
import { codeOf, fieldOf, gql, gqlOk } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let org: { orgId: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  org = await s.createOrg('recall');
  // four episodes alike in text and age; each boost alone decides their order
  await s.app.db.orm.em.fork().execute(
    `INSERT INTO episodes (id, org_id, agent_id, title, intent, created_at, updated_at, canvas_action_count, feedback_count, feedback_score_sum, feedback_score_count)
     VALUES (gen_random_uuid(), ?, 'r', 'index tuning', 'canvas', now() - interval '2 days', now(), 3, 0, 0, 0),
            (gen_random_uuid(), ?, 'r', 'index tuning', 'plain', now() - interval '2 days', now(), 0, 0, 0, 0),
            (gen_random_uuid(), ?, 'r', 'index tuning', 'liked', now() - interval '2 days', now(), 0, 2, 1.5, 2),
            (gen_random_uuid(), ?, 'r', 'index tuning', 'disliked', now() - interval '2 days', now(), 0, 1, -1, 1),
            (gen_random_uuid(), ?, 'r', 'index tuning', 'neutral', now() - interval '2 days', now(), 0, 2, 0, 2),
            (gen_random_uuid(), ?, 'other-agent', 'index tuning', 'canvas', now(), now(), 9, 0, 0, 0)`,
    Array(6).fill(org.orgId),
  );
});
afterAll(() => s?.close());

describe('recallEpisodes', () => {
  it('ranks by base score plus canvas and feedback boosts, with the parts in each result', async () => {
    const { recallEpisodes: r } = await gqlOk(s.url, RecallEpisodesDocument, { agentId: 'r', query: 'postgres index tuning' }, org.token);
    const order = r.map((x) => x.episode.intent);
    // liked (+0.2) > canvas (+0.1) > neutral = plain (0; aggregate 0 gives no boost) > disliked (-0.3)
    expect(order.slice(0, 2)).toEqual(['liked', 'canvas']);
    expect(new Set(order.slice(2, 4))).toEqual(new Set(['neutral', 'plain']));
    expect(order[4]).toBe('disliked');
    expect(order).toHaveLength(5);
    const by = (intent: string) => r.find((x) => x.episode.intent === intent)!;
    const [liked, disliked, canvas] = [by('liked'), by('disliked'), by('canvas')];
    expect(new Set(r.map((x) => x.relevance)).size).toBe(1);
    expect(liked.feedbackBoost).toBe(0.2);
    expect(disliked.feedbackBoost).toBe(-0.3);
    expect(canvas.canvasBoost).toBe(0.1);
    expect(by('neutral').feedbackBoost).toBe(0);
    const expected = recallScore(canvas.relevance, 2, s.config.decayLambda, 3, null);
    expect(canvas.recency).toBeCloseTo(expected.recency, 4);
    expect(canvas.finalScore).toBeCloseTo(expected.finalScore, 4);
    expect(canvas.baseScore).toBeCloseTo(0.5 * canvas.relevance + 0.5 * canvas.recency, 10);
  });

  it('uses text relevance to put the matching episode first, and cosine when embeddings exist', async () => {
    const o = await s.createOrg('relevance');
    await s.app.db.orm.em.fork().execute(
      `INSERT INTO episodes (id, org_id, agent_id, title, task, created_at, updated_at, embedding)
       VALUES (gen_random_uuid(), ?, 'r', 'database performance tuning', 'make queries fast', now(), now(), '{1,0}'),
              (gen_random_uuid(), ?, 'r', 'birthday party planning', 'cake and balloons', now(), now(), '{0,1}')`,
      [o.orgId, o.orgId],
    );
    const text = await gqlOk(s.url, RecallEpisodesDocument, { agentId: 'r', query: 'database performance' }, o.token);
    expect(text.recallEpisodes[0].episode.title).toBe('database performance tuning');
    expect(text.recallEpisodes[0].relevance).toBeGreaterThan(text.recallEpisodes[1].relevance);
    const emb = await gqlOk(
      s.url,
      RecallEpisodesDocument,
      { agentId: 'r', query: 'database performance', queryEmbedding: [0, 1] },
      o.token,
    );
    expect(emb.recallEpisodes[0].episode.title).toBe('birthday party planning');
    expect(emb.recallEpisodes[0].relevance).toBeCloseTo(1, 10);
    expect(emb.recallEpisodes[1].relevance).toBe(0);
  });

  it('refuses an empty query and a limit over 100, and shows nothing of another organization', async () => {
    expect(fieldOf(await gql(s.url, RecallEpisodesDocument, { agentId: 'r', query: '  ' }, org.token))).toBe('query');
    expect(fieldOf(await gql(s.url, RecallEpisodesDocument, { agentId: 'r', query: 'x', limit: 101 }, org.token))).toBe('limit');
    expect(codeOf(await gql(s.url, RecallEpisodesDocument, { agentId: 'r', query: 'x', queryEmbedding: [Number.NaN] }, org.token))).toBe(
      'BAD_USER_INPUT',
    );
    const other = await s.createOrg('empty');
    expect((await gqlOk(s.url, RecallEpisodesDocument, { agentId: 'r', query: 'canvas' }, other.token)).recallEpisodes).toEqual([]);
  });
});
