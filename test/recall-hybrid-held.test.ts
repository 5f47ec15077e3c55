import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RecallDocument,
  type RecallInput,
  type RecallQuery,
  type SignalInput,
  SubmitSignalsDocument,
  UpsertFactsDocument,
} from './generated/graphql';
import { gqlOk, wsClient, wsOnce } from './helpers/client';
import { seededRandom } from './helpers/random';
import { startTestServer, type TestServer } from './helpers/server';

// HYBRID with the cosines computed in the server from the exact vectors its index holds (vectors of
// 32-bit floats, as models make them) must answer exactly as the single statement that computes
// them in PostgreSQL: the same facts, in the same order, with the same scores to the last bit.

let indexed: TestServer;
let sqlOnly: TestServer;
beforeAll(async () => {
  indexed = await startTestServer();
  sqlOnly = await startTestServer({ dbUrl: indexed.dbUrl, env: { RECALL_INDEX_MAX_MB: '0' } });
});
afterAll(async () => {
  await sqlOnly?.close();
  await indexed?.close();
});

const DIM = 24;
const WORDS = ['garden', 'tomato', 'river', 'budget', 'invoice', 'piano', 'concert', 'running', 'shoes', 'winter'];

/** A bank of 300 facts in 6 clusters, their vectors rounded to 32-bit floats (`fround`) or left as 64-bit numbers. */
async function seedBank(token: string, bankId: string, float32: boolean, seed: number): Promise<number[][]> {
  const random = seededRandom(seed);
  const round = (x: number) => (float32 ? Math.fround(x) : x);
  const centres = Array.from({ length: 6 }, () => Array.from({ length: DIM }, () => random() - 0.5));
  const facts = Array.from({ length: 300 }, (_, i) => ({
    bankId,
    text: `Note ${i} on ${WORDS[i % WORDS.length]} and ${WORDS[(i * 7) % WORDS.length]}`,
    kind: i % 3 ? 'note' : 'plan',
    embedding: centres[i % 6].map((c) => round(c + 0.3 * (random() - 0.5))),
  }));
  const ids: string[] = [];
  for (let k = 0; k < facts.length; k += 100)
    ids.push(...(await gqlOk(indexed.url, UpsertFactsDocument, { inputs: facts.slice(k, k + 100) }, token)).upsertFacts.map((f) => f.id));
  // query contexts near the first centre, so usefulness comes from a context for some facts
  await gqlOk(
    indexed.url,
    SubmitSignalsDocument,
    {
      signals: ids.slice(0, 30).map((factId, i): SignalInput => ({
        factId,
        signalType: i % 2 ? 'HELPFUL' : 'NOT_HELPFUL',
        query: 'garden tomato',
        queryEmbedding: centres[0].map((c) => round(c + 0.05 * (random() - 0.5))),
      })),
    },
    token,
  );
  return centres.map((c) => c.map((x) => round(x + 0.2 * (random() - 0.5))));
}

const recall = (t: TestServer, token: string, input: RecallInput) => gqlOk(t.url, RecallDocument, { input }, token).then((r) => r.recall);

/** Recall inputs over the bank: plain, boosted, filtered, deeper. */
const inputs = (bankId: string, queries: number[][]): RecallInput[] =>
  queries.flatMap((q, i) => [
    { bankId, query: 'tomato garden', queryEmbedding: q, strategy: 'HYBRID' },
    {
      bankId,
      query: 'what about the winter budget',
      queryEmbedding: q,
      strategy: 'HYBRID',
      boostByUsefulness: true,
      usefulnessWeight: 0.4,
    },
    { bankId, query: 'piano concert', queryEmbedding: q, strategy: 'HYBRID', kinds: ['note'], limit: 25 + i, minUsefulness: 0.45 },
  ]);

/**
 * The same answer: the same facts in the same order with the same cosine, lexical score and
 * relevance to the last bit; usefulness decays with the clock between the two calls, so it and the
 * final score agree to 1e-6.
 */
function expectSame(got: RecallQuery['recall'], want: RecallQuery['recall']): void {
  const exact = (rs: RecallQuery['recall']) =>
    rs.map((r) => [r.fact.id, r.semanticScore, r.lexicalScore, r.relevance, r.usefulnessSource, r.strategyUsed]);
  expect(exact(got)).toEqual(exact(want));
  got.forEach((r, i) => {
    expect(r.usefulnessScore).toBeCloseTo(want[i].usefulnessScore, 6);
    expect(r.finalScore).toBeCloseTo(want[i].finalScore, 6);
  });
}

/** The per-term cosine PostgreSQL computes (`"f"."embedding"[1] * ...`) in a statement. */
const sqlCosine = (statements: string[]) => statements.some((q) => /"embedding"\[1\]/.test(q));

describe('HYBRID recall with the index holding exact vectors', () => {
  it('answers exactly as PostgreSQL ranks, without computing a cosine there, over HTTP and WebSocket', async () => {
    const org = await indexed.createOrg('held');
    const queries = await seedBank(org.token, 'held', true, 11);
    for (const input of inputs('held', queries)) {
      indexed.sql.reset();
      const got = await recall(indexed, org.token, input);
      expect(sqlCosine(indexed.sql.statements)).toBe(false);
      sqlOnly.sql.reset();
      const want = await recall(sqlOnly, org.token, input);
      expect(sqlCosine(sqlOnly.sql.statements)).toBe(true);
      expect(got.length).toBeGreaterThan(0);
      expect(got.every((r) => r.strategyUsed === 'HYBRID')).toBe(true);
      expectSame(got, want);
    }
    // the same over WebSocket, and a second organization sees none of it
    const other = await indexed.createOrg('held-other');
    const ws = wsClient(indexed.wsUrl, org.token);
    const wsOther = wsClient(indexed.wsUrl, other.token);
    try {
      const input = inputs('held', queries)[0];
      const viaWs = await wsOnce(ws, RecallDocument, { input });
      expect(viaWs.errors).toBeUndefined();
      expectSame(viaWs.data!.recall, await recall(sqlOnly, org.token, input));
      expect((await wsOnce(wsOther, RecallDocument, { input })).data!.recall).toEqual([]);
      expect(await recall(indexed, other.token, input)).toEqual([]);
    } finally {
      await ws.dispose();
      await wsOther.dispose();
    }
  });

  it('ranks a bank with 64-bit client vectors in PostgreSQL, with the same answer', async () => {
    const org = await indexed.createOrg('float8');
    const queries = await seedBank(org.token, 'wide', false, 12);
    for (const input of inputs('wide', queries).slice(0, 3)) {
      indexed.sql.reset();
      const got = await recall(indexed, org.token, input);
      expect(sqlCosine(indexed.sql.statements)).toBe(true);
      expectSame(got, await recall(sqlOnly, org.token, input));
    }
  });
});

describe('HYBRID recall over a bank the index holds', () => {
  it('runs no catch-up first (2 statements) and still sees a write of another instance at once', async () => {
    const org = await indexed.createOrg('held-fresh');
    const queries = await seedBank(org.token, 'fresh', true, 13);
    const input = inputs('fresh', queries)[0];
    await recall(indexed, org.token, input);
    indexed.sql.reset();
    expectSame(await recall(indexed, org.token, input), await recall(sqlOnly, org.token, input));
    // the lexical candidates, then W with the change log and what the fusion needs
    expect(indexed.sql.besidesAuth).toBe(2);
    // a fact written through the other instance, the best match by words and vector
    const [added] = (
      await gqlOk(
        sqlOnly.url,
        UpsertFactsDocument,
        { inputs: [{ bankId: 'fresh', text: 'tomato garden tomato garden', embedding: input.queryEmbedding!.map(Math.fround) }] },
        org.token,
      )
    ).upsertFacts;
    const got = await recall(indexed, org.token, input);
    expect(got[0].fact.id).toBe(added.id);
    expectSame(got, await recall(sqlOnly, org.token, input));
  });
});
