import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecallDocument, type RecallInput, SubmitSignalsDocument, UpsertFactsDocument } from './generated/graphql';
import { codeOf, fieldOf, gql, gqlOk } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';
import { rankingQuery, validateRecall } from '../src/modules/facts/recall.service';
import { cosine, finalScore, semanticFromCosine } from '../src/modules/facts/usefulness';

let s: TestServer;
let em: () => EntityManager;

beforeAll(async () => {
  s = await startTestServer();
  em = () => s.app.db.orm.em.fork();
});
afterAll(() => s?.close());

const recall = (token: string, input: RecallInput) => gqlOk(s.url, RecallDocument, { input }, token).then((r) => r.recall);
async function upsert(token: string, inputs: { bankId: string; text: string; embedding?: number[]; kind?: string }[]) {
  return (await gqlOk(s.url, UpsertFactsDocument, { inputs }, token)).upsertFacts.map((f) => f.id);
}
const times = <T>(n: number, x: T) => Array.from({ length: n }, () => x);

describe('recall: the boosting table of the reference usefulness design', () => {
  it('ranks B first on relevance alone, and A first with usefulnessWeight 0.3 (0.83 vs 0.72)', async () => {
    const org = await s.createOrg('boost');
    const [A, B] = await upsert(org.token, [
      { bankId: 'agent', text: 'fact A', embedding: [0.8, 0.6] }, // cosine 0.80 with the query
      { bankId: 'agent', text: 'fact B', embedding: [0.9, Math.sqrt(0.19)] }, // cosine 0.90
    ]);
    await gqlOk(
      s.url,
      SubmitSignalsDocument,
      {
        signals: [
          ...times(4, { factId: A, signalType: 'USED' as const, query: 'earlier question' }),
          ...times(4, { factId: B, signalType: 'IGNORED' as const, query: 'earlier question' }),
        ],
      },
      org.token,
    );
    const plain = await recall(org.token, { bankId: 'agent', query: 'a new question', queryEmbedding: [1, 0] });
    expect(plain.map((r) => r.fact.id)).toEqual([B, A]);
    expect(plain[0]).toMatchObject({ usefulnessSource: 'GLOBAL' });
    expect(plain[0].finalScore).toBeCloseTo(0.9, 9);

    const boosted = await recall(org.token, {
      bankId: 'agent',
      query: 'a new question',
      queryEmbedding: [1, 0],
      boostByUsefulness: true,
      usefulnessWeight: 0.3,
    });
    expect(boosted.map((r) => r.fact.id)).toEqual([A, B]);
    expect(boosted[0].semanticScore).toBeCloseTo(0.8, 9);
    expect(boosted[0].usefulnessScore).toBeCloseTo(0.9, 6);
    expect(boosted[0].finalScore).toBeCloseTo(0.83, 6);
    expect(boosted[1].semanticScore).toBeCloseTo(0.9, 9);
    expect(boosted[1].usefulnessScore).toBeCloseTo(0.3, 6);
    expect(boosted[1].finalScore).toBeCloseTo(0.72, 6);

    // the earlier question itself matches the stored query context (same scores here)
    const same = await recall(org.token, { bankId: 'agent', query: 'Earlier question!', queryEmbedding: [1, 0], boostByUsefulness: true });
    expect(same.map((r) => r.usefulnessSource)).toEqual(['QUERY_CONTEXT', 'QUERY_CONTEXT']);
    // minUsefulness leaves B out
    const min = await recall(org.token, { bankId: 'agent', query: 'q', queryEmbedding: [1, 0], minUsefulness: 0.5 });
    expect(min.map((r) => r.fact.id)).toEqual([A]);
  });
});

describe('recall: query-context awareness', () => {
  it('ranks a fact by its score for this kind of question, and falls back to the global score', async () => {
    const org = await s.createOrg('contexts');
    const [F, G] = await upsert(org.token, [
      { bankId: 'agent', text: 'Use connection pooling', embedding: [1, 0] },
      { bankId: 'agent', text: 'Use connection pooling too', embedding: [1, 0] },
    ]);
    await gqlOk(
      s.url,
      SubmitSignalsDocument,
      {
        signals: [
          ...times(3, { factId: F, signalType: 'USED' as const, query: 'database performance' }),
          ...times(3, { factId: F, signalType: 'IGNORED' as const, query: 'authentication methods' }),
        ],
      },
      org.token,
    );
    const ask = (query: string) => recall(org.token, { bankId: 'agent', query, queryEmbedding: [1, 0], boostByUsefulness: true });
    const db = await ask('Database performance?');
    expect(db.map((r) => r.fact.id)).toEqual([F, G]);
    expect(db[0]).toMatchObject({ usefulnessSource: 'QUERY_CONTEXT' });
    expect(db[0].usefulnessScore).toBeCloseTo(0.8, 6);
    expect(db[1]).toMatchObject({ usefulnessSource: 'GLOBAL', usefulnessScore: 0.5 });

    const auth = await ask('authentication methods');
    expect(auth.map((r) => r.fact.id)).toEqual([G, F]);
    expect(auth[1]).toMatchObject({ usefulnessSource: 'QUERY_CONTEXT' });
    expect(auth[1].usefulnessScore).toBeCloseTo(0.35, 6);

    const unseen = await ask('API rate limiting');
    expect(unseen.map((r) => r.fact.id)).toEqual([F, G]);
    expect(unseen[0]).toMatchObject({ usefulnessSource: 'GLOBAL' });
    expect(unseen[0].usefulnessScore).toBeCloseTo(0.65, 6); // 0.5 + 0.3 - 0.15
  });

  it('matches query contexts by query embedding (cosine >= 0.85)', async () => {
    const org = await s.createOrg('ctx-emb');
    const [F] = await upsert(org.token, [{ bankId: 'agent', text: 'The CEO is Ada', embedding: [1, 0] }]);
    await gqlOk(
      s.url,
      SubmitSignalsDocument,
      { signals: times(2, { factId: F, signalType: 'HELPFUL' as const, query: 'Who is the CEO?', queryEmbedding: [0, 1] }) },
      org.token,
    );
    const similar = await recall(org.token, {
      bankId: 'agent',
      query: 'Who is the chief executive?',
      queryEmbedding: [Math.sqrt(0.19), 0.9],
    });
    expect(similar[0]).toMatchObject({ usefulnessSource: 'QUERY_CONTEXT' });
    expect(similar[0].usefulnessScore).toBeCloseTo(0.8, 6);
    const far = await recall(org.token, { bankId: 'agent', query: 'Who is the CEO?', queryEmbedding: [0.6, 0.8] }); // cosine 0.8: another context
    expect(far[0]).toMatchObject({ usefulnessSource: 'GLOBAL' });
  });
});

describe('recall: text relevance, filters and bad input', () => {
  it('scores facts without embeddings by pg_trgm word_similarity with strategy SEMANTIC, and filters kinds and statuses', async () => {
    const org = await s.createOrg('trgm');
    const [pool, sky, rule] = await upsert(org.token, [
      { bankId: 'agent', text: 'Use connection pooling for databases', kind: 'tip' },
      { bankId: 'agent', text: 'The sky is blue', kind: 'tip' },
      { bankId: 'agent', text: 'Connection pooling is required', kind: 'rule' },
    ]);
    await em().execute(`UPDATE facts SET status = 'CONFIRMED' WHERE id = ?`, [rule]);
    // a stub (created from an unknown external id, no text yet) is not recalled
    await em().execute(
      `INSERT INTO facts (id, org_id, bank_id, text, external_id) VALUES (gen_random_uuid(), ?, 'agent', '', 'FACT_stub')`,
      [org.orgId],
    );
    const r = await recall(org.token, { bankId: 'agent', query: 'connection pooling', strategy: 'SEMANTIC', limit: 10 });
    expect(r).toHaveLength(3);
    expect(r.map((x) => x.fact.id).slice(-1)).toEqual([sky]);
    const [expected] = await em().execute(
      `SELECT word_similarity('connection pooling', 'Use connection pooling for databases')::float8 AS w`,
    );
    expect(r.find((x) => x.fact.id === pool)!.semanticScore).toBeCloseTo(expected.w, 6);
    expect(
      (await recall(org.token, { bankId: 'agent', query: 'connection pooling', strategy: 'SEMANTIC', kinds: ['rule'] })).map(
        (x) => x.fact.id,
      ),
    ).toEqual([rule]);
    expect(
      (await recall(org.token, { bankId: 'agent', query: 'connection pooling', strategy: 'SEMANTIC', statuses: ['SUGGESTED'] }))
        .map((x) => x.fact.id)
        .sort(),
    ).toEqual([pool, sky].sort());
    // an empty list filters nothing
    expect(
      await recall(org.token, { bankId: 'agent', query: 'connection pooling', strategy: 'SEMANTIC', kinds: [], statuses: [] }),
    ).toHaveLength(3);
  });

  it('refuses bad input naming the field', async () => {
    const org = await s.createOrg('bad');
    await upsert(org.token, [{ bankId: 'agent', text: 'x', embedding: [1, 0, 0] }]);
    const cases: [RecallInput, string][] = [
      [{ bankId: 'agent', query: '' }, 'input.query'],
      [{ bankId: 'agent', query: '   ' }, 'input.query'],
      [{ bankId: '', query: 'q' }, 'input.bankId'],
      [{ bankId: 'agent', query: 'q', usefulnessWeight: 1.1 }, 'input.usefulnessWeight'],
      [{ bankId: 'agent', query: 'q', usefulnessWeight: -0.1 }, 'input.usefulnessWeight'],
      [{ bankId: 'agent', query: 'q', minUsefulness: 2 }, 'input.minUsefulness'],
      [{ bankId: 'agent', query: 'q', limit: 0 }, 'input.limit'],
      [{ bankId: 'agent', query: 'q', limit: 101 }, 'input.limit'],
      [{ bankId: 'agent', query: 'q', queryEmbedding: [1, 0] }, 'input.queryEmbedding'],
    ];
    for (const [input, field] of cases) {
      const r = await gql(s.url, RecallDocument, { input }, org.token);
      expect(codeOf(r), field).toBe('BAD_USER_INPUT');
      expect(fieldOf(r)).toBe(field);
    }
    const inf = await gql(s.url, `{ recall(input: {bankId: "agent", query: "q", usefulnessWeight: 1e999}) { finalScore } }`, {}, org.token);
    expect(fieldOf(inf)).toBe('input.usefulnessWeight');
  });
});

describe('recall: a bank of 1,000 facts with embeddings', () => {
  it('ranks exactly as the formulas say, reads the bank through its index, in a constant number of statements', async () => {
    const org = await s.createOrg('big');
    // 1,000 facts in bank "big" plus 9,000 in other banks, usefulness spread 0..0.9, seeded set-based
    await em().execute(
      `INSERT INTO facts (id, org_id, bank_id, text, embedding, usefulness, created_at)
       SELECT gen_random_uuid(), ?, CASE WHEN g <= 1000 THEN 'big' ELSE 'other-' || (g % 9) END, 'fact ' || g,
              ARRAY[cos(g * 0.0031), sin(g * 0.0031)]::float8[], (g % 10) / 10.0, now() - make_interval(secs => g)
       FROM generate_series(1, 10000) g`,
      [org.orgId],
    );
    await em().execute(`INSERT INTO fact_embedding_dimensions (org_id, dimension) VALUES (?, 2)`, [org.orgId]);
    await em().execute('ANALYZE facts');
    const rows = await em().execute<{ id: string; embedding: number[]; usefulness: number }[]>(
      `SELECT id, embedding, usefulness FROM facts WHERE org_id = ? AND bank_id = 'big'`,
      [org.orgId],
    );
    expect(rows).toHaveLength(1000);
    const q = [Math.cos(0.5), Math.sin(0.5)];
    const expected = (w: number, boost: boolean) =>
      rows
        .map((r) => ({ id: r.id, score: finalScore(semanticFromCosine(cosine(r.embedding, q)), r.usefulness, w, boost) }))
        .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1));

    // the first recall of a bank reads it into the vector index (one more statement per 20,000 facts)
    s.sql.reset();
    await recall(org.token, { bankId: 'big', query: 'anything', queryEmbedding: q, limit: 1 });
    expect(s.sql.count).toBeLessThanOrEqual(4);

    s.sql.reset();
    const plain = await recall(org.token, { bankId: 'big', query: 'anything', queryEmbedding: q, limit: 100 });
    const plainCount = s.sql.count;
    expect(plain.map((r) => r.fact.id)).toEqual(
      expected(0.3, false)
        .slice(0, 100)
        .map((x) => x.id),
    );

    s.sql.reset();
    const boosted = await recall(org.token, {
      bankId: 'big',
      query: 'anything',
      queryEmbedding: q,
      limit: 100,
      boostByUsefulness: true,
      usefulnessWeight: 0.4,
    });
    expect(s.sql.count).toBe(plainCount);
    const want = expected(0.4, true).slice(0, 100);
    expect(boosted.map((r) => r.fact.id)).toEqual(want.map((x) => x.id));
    boosted.forEach((r, i) => expect(r.finalScore).toBeCloseTo(want[i].score, 9));

    s.sql.reset();
    await recall(org.token, { bankId: 'big', query: 'anything', queryEmbedding: q, limit: 1 });
    expect(s.sql.count).toBe(plainCount);
    expect(plainCount).toBeLessThanOrEqual(3);

    // the ranking statement reads the bank through an index led by org_id, bank_id (no sequential
    // scan): the b-tree on (org_id, bank_id, created_at), the bank's sequence, or the lexical GIN
    // index on (org_id, bank_id, text_tsv), whichever the planner's statistics favour at the moment
    const input = { bankId: 'big', query: 'anything', queryEmbedding: q, limit: 10, boostByUsefulness: true };
    const [sql, params] = rankingQuery(org.orgId, validateRecall(input as never), q);
    const plan = await em().execute<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${sql}`, params);
    const text = plan.map((p) => p['QUERY PLAN']).join('\n');
    expect(text).toMatch(/facts_org_id_bank_id_created_at_index|facts_bank_seq|facts_lexical/);
    expect(text).not.toMatch(/Seq Scan on facts/);
  });
});

describe('recall: org isolation', () => {
  it('org B recalls nothing from org A bank, and A signals do not reach B', async () => {
    const a = await s.createOrg('iso-a');
    const b = await s.createOrg('iso-b');
    const [fa] = await upsert(a.token, [{ bankId: 'shared-bank', text: 'connection pooling secret' }]);
    await gqlOk(
      s.url,
      SubmitSignalsDocument,
      { signals: times(3, { factId: fa, signalType: 'USED' as const, query: 'connection pooling' }) },
      a.token,
    );
    expect(await recall(b.token, { bankId: 'shared-bank', query: 'connection pooling' })).toEqual([]);
    const [fb] = await upsert(b.token, [{ bankId: 'shared-bank', text: 'connection pooling public' }]);
    const rb = await recall(b.token, { bankId: 'shared-bank', query: 'connection pooling', boostByUsefulness: true });
    expect(rb.map((r) => [r.fact.id, r.usefulnessSource, r.usefulnessScore])).toEqual([[fb, 'GLOBAL', 0.5]]);
  });
});
