import type { EntityManager } from '@mikro-orm/postgresql';
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
import { rankingQuery, validateRecall } from '../src/modules/facts/recall.service';
import { normalizeQuery } from '../src/modules/facts/usefulness';
import { sumOfSquares } from '../src/modules/facts/usefulness.sql';
import { candidateIds } from '../src/modules/facts/vectors/candidates';
import { rankCandidates } from '../src/modules/facts/vectors/exact-rank';
import { FactIndex } from '../src/modules/facts/vectors/fact-index';

// SEMANTIC with a client's query embedding over a bank whose vectors the index holds exactly
// (32-bit floats, as models make them): the cosines come from those vectors, no vector is read from
// PostgreSQL, and the answer is the one PostgreSQL ranks alone, to the last bit.

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
const em = (): EntityManager => indexed.app.db.orm.em.fork();

const DIM = 24;

/** 300 facts in 6 clusters of near-ties, vectors rounded to 32-bit floats; query contexts near the first centre. */
async function seedBank(token: string, bankId: string, seed: number): Promise<{ ids: string[]; queries: number[][] }> {
  const random = seededRandom(seed);
  const f = Math.fround;
  const centres = Array.from({ length: 6 }, () => Array.from({ length: DIM }, () => random() - 0.5));
  const facts = Array.from({ length: 300 }, (_, i) => ({
    bankId,
    text: `Note ${i}`,
    kind: i % 3 ? 'note' : 'plan',
    embedding: centres[i % 6].map((c) => f(c + 0.05 * (random() - 0.5))),
  }));
  const ids: string[] = [];
  for (let k = 0; k < facts.length; k += 100)
    ids.push(...(await gqlOk(indexed.url, UpsertFactsDocument, { inputs: facts.slice(k, k + 100) }, token)).upsertFacts.map((x) => x.id));
  await gqlOk(
    indexed.url,
    SubmitSignalsDocument,
    {
      signals: ids.slice(0, 60).map((factId, i): SignalInput => ({
        factId,
        signalType: i % 2 ? 'HELPFUL' : 'NOT_HELPFUL',
        query: 'the first cluster',
        queryEmbedding: centres[0].map((c) => f(c + 0.05 * (random() - 0.5))),
      })),
    },
    token,
  );
  return { ids, queries: centres.map((c) => c.map((x) => f(x + 0.05 * (random() - 0.5)))) };
}

const recall = (t: TestServer, token: string, input: RecallInput) => gqlOk(t.url, RecallDocument, { input }, token).then((r) => r.recall);

const inputs = (bankId: string, queries: number[][]): RecallInput[] =>
  queries.flatMap((q, i) => [
    { bankId, query: 'the first cluster', queryEmbedding: q },
    { bankId, query: 'another question', queryEmbedding: q, limit: 30 + i },
    { bankId, query: 'the first cluster', queryEmbedding: q, boostByUsefulness: true, usefulnessWeight: 0.4 },
    { bankId, query: 'the first cluster', queryEmbedding: q, minUsefulness: 0.45, kinds: ['note'] },
  ]);

/** The same facts in the same order with the same cosines; usefulness decays with the clock between the two calls. */
function expectSame(got: RecallQuery['recall'], want: RecallQuery['recall']): void {
  const exact = (rs: RecallQuery['recall']) => rs.map((r) => [r.fact.id, r.semanticScore, r.usefulnessSource, r.strategyUsed]);
  expect(exact(got)).toEqual(exact(want));
  got.forEach((r, i) => {
    expect(r.usefulnessScore).toBeCloseTo(want[i].usefulnessScore, 6);
    expect(r.finalScore).toBeCloseTo(want[i].finalScore, 6);
  });
}

/** A statement that reads the facts' vectors. */
const readsVectors = (statements: string[]) => statements.some((q) => /array_send\("f"\."embedding"\)|"f"\."embedding"\[1\]/.test(q));

describe('SEMANTIC recall with the index holding exact vectors', () => {
  it('answers exactly as PostgreSQL ranks, in one statement that reads no vector, over HTTP and WebSocket', async () => {
    const org = await indexed.createOrg('semantic-held');
    const { queries } = await seedBank(org.token, 'held', 21);
    // the bank's first recall reads it into the index
    await recall(indexed, org.token, inputs('held', queries)[0]);
    for (const input of inputs('held', queries)) {
      indexed.sql.reset();
      const got = await recall(indexed, org.token, input);
      expect(readsVectors(indexed.sql.statements)).toBe(false);
      expect(indexed.sql.besidesAuth).toBe(1);
      const want = await recall(sqlOnly, org.token, input);
      expect(got.length).toBeGreaterThan(0);
      expect(got.every((r) => r.strategyUsed === 'SEMANTIC')).toBe(true);
      expectSame(got, want);
    }
    // the same over WebSocket, and a second organization sees none of it
    const other = await indexed.createOrg('semantic-held-other');
    const ws = wsClient(indexed.wsUrl, org.token);
    const wsOther = wsClient(indexed.wsUrl, other.token);
    try {
      const input = inputs('held', queries)[2];
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

  it('reads the next candidates when a fact among the best no longer passes the filters', async () => {
    const org = await indexed.createOrg('semantic-stale');
    const { queries } = await seedBank(org.token, 'stale', 22);
    const index = new FactIndex(1 << 30);
    const queryEmbedding = queries[1];
    const p = validateRecall({ bankId: 'stale', query: 'anything', queryEmbedding, limit: 5 } as never);
    const { bank } = await index.prepare(em(), org.orgId, 'stale');
    const candidates = candidateIds(bank!, {
      ...p,
      embedding: queryEmbedding,
      normSq: sumOfSquares(queryEmbedding),
      normalizedQuery: normalizeQuery(p.query),
      nowMs: Date.now(),
    })!;
    const before = (await rankCandidates(em(), org.orgId, p, queryEmbedding, candidates, null, bank))!;
    expect(before).toHaveLength(5);
    // the best three end after the index read the bank (it has not caught up): the next ones take their places
    await em().execute(`UPDATE facts SET valid_to = now() - interval '1 second' WHERE id = any(?::uuid[])`, [
      `{${before
        .slice(0, 3)
        .map((r) => r.fact.id)
        .join(',')}}`,
    ]);
    const after = (await rankCandidates(em(), org.orgId, p, queryEmbedding, candidates, null, bank))!;
    const [text, params] = rankingQuery(org.orgId, p, queryEmbedding, null);
    const whole = await em().execute<{ id: string; semantic: number }[]>(text, params);
    expect(after.map((r) => [r.fact.id, r.semanticScore])).toEqual(whole.map((w) => [w.id, w.semantic]));
    expect(after.map((r) => r.fact.id)).not.toContain(before[0].fact.id);
    expect(after[0].fact.id).toBe(before[3].fact.id);
  });
});
