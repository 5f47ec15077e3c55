import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { RecallEpisodesDocument, RecordEpisodeDocument } from './generated/graphql';
import { codeOf, fieldOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { cosine } from '../src/modules/facts/usefulness';
import { sumOfSquares } from '../src/modules/facts/usefulness.sql';
import { sqlClient } from './helpers/db';
import { seededRandom } from './helpers/random';
import { startTestServer, type TestServer } from './helpers/server';

// recallEpisodes with a query embedding: the cosine is written into the ranking statement over the
// stored sums of squares; it must rank as the aggregate over `unnest` did, and refuse a query
// embedding whose dimension is not the organization's
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const random = seededRandom(12345);
const rnd = () => random() * 2 - 1;
const vec = (d: number) => Array.from({ length: d }, rnd);
const literal = (v: number[] | null) => (v ? `{${v.join(',')}}` : null);

/** The ranking as it was computed before: cosine aggregated over `unnest`, the whole row sorted. */
const REFERENCE = `SELECT id, relevance, 0.5 * relevance + 0.5 * recency + canvas_boost + feedback_boost AS final_score FROM (
  SELECT e.id, e.created_at,
         (CASE WHEN e.embedding IS NOT NULL AND cardinality(e.embedding) = cardinality($1::float8[]) THEN
            greatest(0, coalesce((SELECT sum(x * y) / nullif(sqrt(sum(x * x)) * sqrt(sum(y * y)), 0) FROM unnest(e.embedding, $1::float8[]) AS t(x, y)), 0))
          ELSE greatest(word_similarity($2, coalesce(e.title, '')), word_similarity($2, coalesce(e.task, '')), word_similarity($2, coalesce(e.topic, ''))) END)::float8 AS relevance,
         exp(-$3::float8 * greatest(0, extract(epoch FROM now() - e.created_at)) / 86400)::float8 AS recency,
         CASE WHEN e.canvas_action_count > 0 THEN 0.1 ELSE 0 END::float8 AS canvas_boost,
         CASE WHEN e.feedback_score_count = 0 OR e.feedback_score_sum = 0 THEN 0 WHEN e.feedback_score_sum > 0 THEN 0.2 ELSE -0.3 END::float8 AS feedback_boost
    FROM episodes e WHERE e.org_id = $4 AND e.agent_id = 'r') s
  ORDER BY final_score DESC, created_at DESC, id DESC LIMIT 100`;

describe('recallEpisodes with a query embedding', () => {
  it('ranks 300 random episodes as the aggregate over unnest does: same order, relevance to 1e-12', async () => {
    const org = await s.createOrg('episode-cosine');
    const d = 7;
    const em = s.app.db.orm.em.fork();
    const rows = Array.from({ length: 300 }, (_, i) => [
      i % 10 === 0 ? null : i % 37 === 0 ? new Array<number>(d).fill(0) : vec(d),
      `${(rnd() + 1) * 30} days`,
      i % 3,
      i % 5 === 0 ? 0 : rnd(),
      i % 4,
      `topic ${i % 13} of the query`,
    ]);
    await em.execute(
      `INSERT INTO episodes (id, org_id, agent_id, title, embedding, created_at, updated_at, canvas_action_count, feedback_score_sum, feedback_score_count)
       SELECT gen_random_uuid(), ?, 'r', x.title, x.embedding, now() - x.age::interval, now(), x.canvas, x.fsum, x.fcount
         FROM jsonb_to_recordset(?::jsonb) AS x(embedding float8[], age text, canvas int, fsum float8, fcount int, title text)`,
      [
        org.orgId,
        JSON.stringify(rows.map(([embedding, age, canvas, fsum, fcount, title]) => ({ embedding, age, canvas, fsum, fcount, title }))),
      ],
    );
    const db = await sqlClient(s.dbUrl);
    onTestFinished(() => db.end());
    for (const q of [vec(d), vec(d).map((x) => x * 1e-3), new Array<number>(d).fill(0)]) {
      const got = (
        await gqlOk(s.url, RecallEpisodesDocument, { agentId: 'r', query: 'topic 3 query', queryEmbedding: q, limit: 100 }, org.token)
      ).recallEpisodes;
      const want = (await db.query(REFERENCE, [literal(q), 'topic 3 query', s.config.decayLambda, org.orgId])).rows;
      expect(got.map((r) => r.episode.id)).toEqual(want.map((r) => r.id));
      got.forEach((r, i) => {
        expect(Math.abs(r.relevance - want[i].relevance)).toBeLessThan(1e-12);
        expect(Math.abs(r.finalScore - want[i].final_score)).toBeLessThan(1e-6); // recency moves with the clock between the two statements
      });
      expect(new Set(got.map((r) => r.relevance)).size).toBeGreaterThan(q.every((x) => x === 0) ? 1 : 20);
    }
  });

  it("refuses a query embedding of another dimension than the organization's episode embeddings, over HTTP and WebSocket", async () => {
    const org = await s.createOrg('episode-dimension');
    const other = await s.createOrg('episode-dimension-other');
    const vars = (queryEmbedding: number[]) => ({ agentId: 'r', query: 'anything', queryEmbedding });
    // before any episode embedding, every dimension is taken (text similarity ranks)
    expect((await gqlOk(s.url, RecallEpisodesDocument, vars([1, 2, 3, 4]), org.token)).recallEpisodes).toEqual([]);
    await gqlOk(s.url, RecordEpisodeDocument, { input: { agentId: 'r', title: 'three', embedding: [1, 0, 0] } }, org.token);
    await gqlOk(s.url, RecordEpisodeDocument, { input: { agentId: 'r', title: 'two', embedding: [0, 1] } }, other.token);
    const wrong = await gql(s.url, RecallEpisodesDocument, vars([1, 0]), org.token);
    expect([codeOf(wrong), fieldOf(wrong), wrong.data]).toEqual(['BAD_USER_INPUT', 'queryEmbedding', null]);
    expect(wrong.errors?.[0].message).toMatch(/3 numbers/);
    const ws = wsClient(s.wsUrl, org.token);
    try {
      const viaWs = await wsOnce(ws, RecallEpisodesDocument, vars([1, 0, 0, 0]));
      expect([viaWs.errors?.[0].extensions?.code, viaWs.errors?.[0].extensions?.field]).toEqual(['BAD_USER_INPUT', 'queryEmbedding']);
      const right = await wsOnce(ws, RecallEpisodesDocument, vars([1, 0, 0]));
      expect(right.data?.recallEpisodes.map((r) => [r.episode.title, r.relevance])).toEqual([['three', 1]]);
    } finally {
      await ws.dispose();
    }
    // the other organization's dimension is its own
    expect(
      (await gqlOk(s.url, RecallEpisodesDocument, vars([0, 1]), other.token)).recallEpisodes.map((r) => [r.episode.title, r.relevance]),
    ).toEqual([['two', 1]]);
    expect(fieldOf(await gql(s.url, RecallEpisodesDocument, vars([0, 1, 0]), other.token))).toBe('queryEmbedding');
  });

  it('stores a square too small for a double as 0, as JavaScript computes it, and ranks by it', async () => {
    const org = await s.createOrg('episode-underflow');
    const embedding = [0.5, -1e-300, 1e15];
    const { recordEpisode } = await gqlOk(s.url, RecordEpisodeDocument, { input: { agentId: 'r', title: 'tiny', embedding } }, org.token);
    const [{ n }] = await s.app.db.orm.em
      .fork()
      .execute<{ n: number }[]>('SELECT embedding_norm_sq AS n FROM episodes WHERE id = ?', [recordEpisode.id]);
    expect(n).toBe(sumOfSquares(embedding));
    const q = [1, 2, 3];
    const [r] = (await gqlOk(s.url, RecallEpisodesDocument, { agentId: 'r', query: 'tiny', queryEmbedding: q }, org.token)).recallEpisodes;
    expect(r.relevance).toBe(Math.max(0, cosine(embedding, q)));
  });

  it('refuses embeddings whose sum of squares is no finite double, and writes nothing', async () => {
    const org = await s.createOrg('episode-overflow');
    const huge = [1e200, 1];
    const write = await gql(s.url, RecordEpisodeDocument, { input: { agentId: 'r', title: 'huge', embedding: huge } }, org.token);
    expect([codeOf(write), fieldOf(write)]).toEqual(['BAD_USER_INPUT', 'input.embedding']);
    const read = await gql(s.url, RecallEpisodesDocument, { agentId: 'r', query: 'huge', queryEmbedding: huge }, org.token);
    expect([codeOf(read), fieldOf(read)]).toEqual(['BAD_USER_INPUT', 'queryEmbedding']);
    const [{ n }] = await s.app.db.orm.em
      .fork()
      .execute<{ n: number }[]>('SELECT count(*)::int AS n FROM episodes WHERE org_id = ?', [org.orgId]);
    expect(n).toBe(0);
  });
});
