import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecallDocument, type RecallInput, SubmitSignalsDocument, UpsertFactsDocument } from './generated/graphql';
import { codeOf, fieldOf, gql, gqlOk } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';
import { cosine, finalScore, semanticFromCosine } from '../src/modules/facts/usefulness';

// Recall puts the query embedding into its statement and divides by the stored sums of squares:
// the ranking must still be the one the formulas give, at every dimension.
let s: TestServer;
let em: () => EntityManager;
beforeAll(async () => {
  s = await startTestServer();
  em = () => s.app.db.orm.em.fork();
});
afterAll(() => s?.close());

const recall = (token: string, input: RecallInput) => gqlOk(s.url, RecallDocument, { input }, token).then((r) => r.recall);
const upsert = async (token: string, inputs: { bankId: string; text: string; embedding?: number[]; externalId?: string }[]) =>
  (await gqlOk(s.url, UpsertFactsDocument, { inputs }, token)).upsertFacts.map((f) => f.id);

let seed = 99;
const rnd = () => ((seed = (seed * 48271) % 2147483647) / 2147483647) * 2 - 1;
const vec = (d: number) => Array.from({ length: d }, rnd);

/** The expected ranking: semantic score from the JavaScript cosine, ties by id. */
function expected(facts: { id: string; embedding: number[] }[], q: number[], usefulness = 0.5, w = 0.3, boost = false) {
  return facts
    .map((f) => ({ id: f.id, semantic: semanticFromCosine(cosine(f.embedding, q)) }))
    .map((f) => ({ ...f, score: finalScore(f.semantic, usefulness, w, boost) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}

describe('recall: cosines with the query in the statement', () => {
  it('ranks random, opposite and zero embeddings as the formulas do, and follows updated embeddings', async () => {
    const org = await s.createOrg('cosine');
    const d = 48;
    const q = vec(d);
    const embeddings = [q.map((x) => x * 2), q.map((x) => -x), new Array<number>(d).fill(0), ...Array.from({ length: 40 }, () => vec(d))];
    const ids = await upsert(
      org.token,
      embeddings.map((embedding, i) => ({ bankId: 'b', text: `fact ${i}`, embedding, externalId: `F${i}` })),
    );
    const facts = ids.map((id, i) => ({ id, embedding: embeddings[i] }));

    for (const boost of [false, true]) {
      const got = await recall(org.token, { bankId: 'b', query: 'anything', queryEmbedding: q, limit: 100, boostByUsefulness: boost });
      const want = expected(facts, q, 0.5, 0.3, boost);
      expect(got.map((r) => r.fact.id)).toEqual(want.map((x) => x.id));
      got.forEach((r, i) => {
        expect(r.semanticScore).toBeCloseTo(want[i].semantic, 12);
        expect(r.finalScore).toBeCloseTo(want[i].score, 9);
      });
      expect(got[0]).toMatchObject({ fact: { id: ids[0] }, semanticScore: 1 });
    }
    // a zero query embedding is as far from every fact as a zero fact embedding: all 0, by id
    const zero = await recall(org.token, { bankId: 'b', query: 'anything', queryEmbedding: new Array<number>(d).fill(0), limit: 100 });
    expect(zero.map((r) => r.semanticScore)).toEqual(ids.map(() => 0));
    expect(zero.map((r) => r.fact.id)).toEqual([...ids].sort());

    // an upsert that changes the embedding changes the stored sum of squares with it
    await upsert(org.token, [{ bankId: 'b', text: 'fact 1', embedding: q.map((x) => x * 0.5), externalId: 'F1' }]);
    const after = await recall(org.token, { bankId: 'b', query: 'anything', queryEmbedding: q, limit: 2 });
    expect(after.map((r) => r.semanticScore)).toEqual([expect.closeTo(1, 12), expect.closeTo(1, 12)]);
    const [row] = await em().execute(`SELECT embedding_norm_sq FROM facts WHERE id = ?`, [ids[1]]);
    expect(row.embedding_norm_sq).toBe(q.reduce((a, x) => a + 0.25 * x * x, 0));
  });

  it('refuses embeddings whose sum of squares is no finite number', async () => {
    const org = await s.createOrg('huge');
    const huge = [1e200, 1];
    const up = await gql(
      s.url,
      UpsertFactsDocument,
      {
        inputs: [
          { bankId: 'b', text: 'ok', embedding: [1, 1] },
          { bankId: 'b', text: 'huge', embedding: huge },
        ],
      },
      org.token,
    );
    expect([codeOf(up), fieldOf(up)]).toEqual(['BAD_USER_INPUT', 'inputs.1.embedding']);
    const [id] = await upsert(org.token, [{ bankId: 'b', text: 'ok', embedding: [1, 1] }]);
    const r = await gql(s.url, RecallDocument, { input: { bankId: 'b', query: 'q', queryEmbedding: huge } }, org.token);
    expect([codeOf(r), fieldOf(r)]).toEqual(['BAD_USER_INPUT', 'input.queryEmbedding']);
    const sig = await gql(
      s.url,
      SubmitSignalsDocument,
      { signals: [{ factId: id, signalType: 'USED', query: 'q', queryEmbedding: huge }] },
      org.token,
    );
    expect([codeOf(sig), fieldOf(sig)]).toEqual(['BAD_USER_INPUT', 'signals.0.queryEmbedding']);
  });

  it('works at the largest dimension (8,192 numbers), for facts and query contexts', async () => {
    const org = await s.createOrg('wide');
    const d = 8192;
    const q = vec(d);
    const embeddings = [vec(d), q.map((x) => x + 0.05 * rnd()), vec(d), q.map((x) => -x)];
    const ids: string[] = [];
    for (const [i, embedding] of embeddings.entries())
      ids.push(...(await upsert(org.token, [{ bankId: 'wide', text: `wide fact ${i}`, embedding }])));
    const facts = ids.map((id, i) => ({ id, embedding: embeddings[i] }));

    const plain = await recall(org.token, { bankId: 'wide', query: 'anything', queryEmbedding: q });
    const want = expected(facts, q);
    expect(plain.map((r) => r.fact.id)).toEqual(want.map((x) => x.id));
    plain.forEach((r, i) => expect(r.semanticScore).toBeCloseTo(want[i].semantic, 9));

    // a signal under a close query embedding creates a query context that a recall with q matches
    const close = q.map((x) => x + 0.01 * rnd());
    await gqlOk(
      s.url,
      SubmitSignalsDocument,
      { signals: [{ factId: ids[0], signalType: 'HELPFUL', query: 'first question', queryEmbedding: close }] },
      org.token,
    );
    const boosted = await recall(org.token, { bankId: 'wide', query: 'another wording', queryEmbedding: q, boostByUsefulness: true });
    const first = boosted.find((r) => r.fact.id === ids[0])!;
    expect(first.usefulnessSource).toBe('QUERY_CONTEXT');
    expect(first.usefulnessScore).toBeCloseTo(0.65, 6);
    expect(boosted.filter((r) => r.fact.id !== ids[0]).every((r) => r.usefulnessSource === 'GLOBAL')).toBe(true);
  });
});
