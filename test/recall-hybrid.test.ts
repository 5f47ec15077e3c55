import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RecallDocument,
  RecallEpisodesDocument,
  type RecallInput,
  type RecallQuery,
  RecordEpisodeDocument,
  SubmitSignalsDocument,
  UpsertFactsDocument,
} from './generated/graphql';
import { codeOf, fieldOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

// Recall's strategies: LEXICAL (stemmed words, BM25), HYBRID (words fused with embedding cosine and
// each fact's neighbours) and SEMANTIC (the earlier ranking). Vectors are the client's, or made by an
// OpenAI-compatible fake on loopback, so no test here needs the local model.

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

type Recalled = RecallQuery['recall'][number];
const recall = (t: TestServer, token: string, input: RecallInput) => gqlOk(t.url, RecallDocument, { input }, token).then((r) => r.recall);
const upsert = async (t: TestServer, token: string, inputs: { bankId: string; text: string; embedding?: number[]; kind?: string }[]) =>
  (await gqlOk(t.url, UpsertFactsDocument, { inputs }, token)).upsertFacts.map((f) => f.id);

/** Every result explains its final score: relevance in 0..1, and the boost formula over it. */
function expectExplained(rs: Recalled[], boost: { weight: number } | null) {
  for (const r of rs) {
    expect(r.relevance).toBeGreaterThanOrEqual(0);
    expect(r.relevance).toBeLessThanOrEqual(1);
    expect(r.lexicalScore).not.toBeNull();
    expect(r.lexicalScore!).toBeGreaterThanOrEqual(0);
    expect(r.lexicalScore!).toBeLessThanOrEqual(1);
    const want = boost ? (1 - boost.weight) * r.relevance + boost.weight * r.usefulnessScore : r.relevance;
    expect(r.finalScore).toBeCloseTo(want, 12);
  }
  const finals = rs.map((r) => r.finalScore);
  expect(finals).toEqual([...finals].sort((a, b) => b - a));
}

describe('recall LEXICAL', () => {
  it('finds facts by their stems (running, runs), with their neighbours but no fact further away, and explains its scores', async () => {
    const org = await s.createOrg('lexical');
    const [runs, shoes, sky1, sky2] = await upsert(s, org.token, [
      { bankId: 'agent', text: 'She runs every morning before work' },
      { bankId: 'agent', text: 'Running shoes wear out after a year of running' },
      { bankId: 'agent', text: 'The sky is blue' },
      { bankId: 'agent', text: 'The sea is blue too' },
      { bankId: 'agent', text: 'Clouds are white' },
    ]);
    const r = await recall(s, org.token, { bankId: 'agent', query: 'When is she running?', strategy: 'LEXICAL' });
    // the two matches first, then the facts within two places of a match (context, no word in common)
    expect(
      r
        .map((x) => x.fact.id)
        .slice(0, 2)
        .sort(),
    ).toEqual([runs, shoes].sort());
    expect(r.map((x) => x.fact.id).slice(2)).toEqual([sky1, sky2]);
    expect(r.map((x) => x.lexicalScore! > 0)).toEqual([true, true, false, false]);
    expect(r.every((x) => x.strategyUsed === 'LEXICAL' && x.semanticScore === null)).toBe(true);
    expectExplained(r, null);
    const boosted = await recall(s, org.token, {
      bankId: 'agent',
      query: 'running',
      strategy: 'LEXICAL',
      boostByUsefulness: true,
      usefulnessWeight: 0.4,
    });
    expect(boosted).toHaveLength(4);
    expectExplained(boosted, { weight: 0.4 });
    // kinds and statuses filter as with every strategy; stop words alone match nothing
    expect(await recall(s, org.token, { bankId: 'agent', query: 'running', strategy: 'LEXICAL', kinds: ['none'] })).toEqual([]);
    expect(await recall(s, org.token, { bankId: 'agent', query: 'the of a', strategy: 'LEXICAL' })).toEqual([]);
    // text-search syntax in a question is plain text
    const odd = await recall(s, org.token, { bankId: 'agent', query: `it's "runs:*" & | ! \\ o'neil (running`, strategy: 'LEXICAL' });
    expect(
      odd
        .map((x) => x.fact.id)
        .slice(0, 2)
        .sort(),
    ).toEqual([runs, shoes].sort());
  });

  it('is what HYBRID does without a query vector when the server makes none (provider none)', async () => {
    const org = await s.createOrg('default');
    await upsert(s, org.token, [{ bankId: 'agent', text: 'Deploys happen on Tuesdays' }]);
    const r = await recall(s, org.token, { bankId: 'agent', query: 'when do we deploy' });
    expect(r.map((x) => [x.fact.text, x.strategyUsed])).toEqual([['Deploys happen on Tuesdays', 'LEXICAL']]);
    const hybrid = await recall(s, org.token, { bankId: 'agent', query: 'when do we deploy', strategy: 'HYBRID' });
    expect(hybrid.map((x) => x.strategyUsed)).toEqual(['LEXICAL']);
  });
});

describe('recall HYBRID with a client query vector', () => {
  it('ranks a fact that shares the meaning but no word with the query, which LEXICAL misses, by the documented fusion', async () => {
    const org = await s.createOrg('hybrid');
    const filler = (i: number) => ({
      bankId: 'agent',
      text: `Filler note number ${i} about the weather`,
      embedding: i % 2 ? [0, 1, 0] : [0, 0, 1],
    });
    const ids = await upsert(s, org.token, [
      { bankId: 'agent', text: 'Fixed the leaking kitchen tap', embedding: [0, 1, 0] },
      ...[1, 2, 3, 4].map(filler),
      { bankId: 'agent', text: 'My car was repaired at the garage', embedding: [1, 0, 0] },
      ...[5, 6, 7, 8].map(filler),
    ]);
    const [tap, first, car] = [ids[0], ids[1], ids[5]];
    const input = { bankId: 'agent', query: 'How did the automobile get fixed?', queryEmbedding: [1, 0, 0] };
    const lexical = await recall(s, org.token, { ...input, strategy: 'LEXICAL' });
    expect(lexical[0].fact.id).toBe(tap);
    expect(lexical.map((x) => x.fact.id)).not.toContain(car);
    const hybrid = await recall(s, org.token, { ...input, strategy: 'HYBRID', limit: 3 });
    expect(hybrid.map((x) => x.fact.id)).toEqual([tap, first, car]);
    expect(hybrid.every((x) => x.strategyUsed === 'HYBRID')).toBe(true);
    // F = 0.65 * lexN + 0.35 * semN (min-max over the candidates); S = F + 0.6 * best F at distance 1 + 0.3 * at distance 2;
    // relevance = S / 1.9. The tap matches the words alone (F 0.65), the filler after it borrows 0.6 of that, the car is
    // the best cosine alone (F 0.35) among fillers of cosine 0
    expect(hybrid.map((x) => x.relevance)).toEqual([0.65 / 1.9, (0.6 * 0.65) / 1.9, 0.35 / 1.9].map((x) => expect.closeTo(x, 12)));
    expect(hybrid[2]).toMatchObject({ semanticScore: 1, lexicalScore: 0 });
    expectExplained(hybrid, null);
    expectExplained(await recall(s, org.token, { ...input, strategy: 'HYBRID', boostByUsefulness: true }), { weight: 0.3 });
    // without a strategy a client's vector keeps the earlier ranking (SEMANTIC): cosine alone
    const semantic = await recall(s, org.token, input);
    expect(semantic[0]).toMatchObject({ strategyUsed: 'SEMANTIC', lexicalScore: null, semanticScore: 1, relevance: 1 });
    expect(semantic[0].fact.id).toBe(car);
  });

  it('lifts the turn next to a strong match (neighbouring facts in the order they were written)', async () => {
    const org = await s.createOrg('neighbours');
    const texts = ['Caroline asked about the adoption agency', 'Melanie said the interview is on Friday', 'Unrelated chatter'];
    const filler = Array.from({ length: 6 }, (_, i) => `Filler line ${i} mentions the interview briefly`);
    const ids = await upsert(
      s,
      org.token,
      [...filler.slice(0, 3), ...texts, ...filler.slice(3)].map((text) => ({ bankId: 'b', text })),
    );
    const [asked, friday] = [ids[3], ids[4]];
    const r = await recall(s, org.token, { bankId: 'b', query: 'When is the adoption interview?', strategy: 'LEXICAL', limit: 3 });
    // the interview turn right after the adoption question outranks the other interview lines
    expect(r.map((x) => x.fact.id).slice(0, 2)).toEqual([asked, friday]);
  });
});

describe('recall strategies: isolation and bad input', () => {
  it('never answers with another organization’s facts, over HTTP and WebSocket', async () => {
    const a = await s.createOrg('iso-a');
    const b = await s.createOrg('iso-b');
    await upsert(s, a.token, [{ bankId: 'shared', text: 'Secret launch plan for March', embedding: [1, 0] }]);
    await upsert(s, b.token, [{ bankId: 'shared', text: 'Public picnic plan', embedding: [0, 1] }]);
    const ws = wsClient(s.wsUrl, b.token);
    try {
      for (const strategy of ['LEXICAL', 'HYBRID', 'SEMANTIC'] as const) {
        const input = { bankId: 'shared', query: 'launch plan secret', queryEmbedding: [1, 0], strategy };
        const http = await recall(s, b.token, input);
        const viaWs = await wsOnce(ws, RecallDocument, { input });
        expect(viaWs.errors).toBeUndefined();
        for (const rs of [http, viaWs.data!.recall]) {
          expect(rs.map((x) => x.fact.text)).toEqual(['Public picnic plan']);
          expect(rs[0].strategyUsed).toBe(strategy);
        }
      }
    } finally {
      await ws.dispose();
    }
  });

  it('refuses an unknown strategy and a query vector of the wrong dimension, naming the field', async () => {
    const org = await s.createOrg('bad');
    await upsert(s, org.token, [{ bankId: 'agent', text: 'x marks the spot', embedding: [1, 0, 0] }]);
    const unknown = await gql(s.url, RecallDocument, { input: { bankId: 'agent', query: 'x', strategy: 'FUZZY' as never } }, org.token);
    expect(codeOf(unknown)).toBe('BAD_USER_INPUT');
    expect(fieldOf(unknown)).toBe('input.strategy');
    for (const strategy of ['HYBRID', 'SEMANTIC'] as const) {
      const r = await gql(s.url, RecallDocument, { input: { bankId: 'agent', query: 'x', queryEmbedding: [1, 0], strategy } }, org.token);
      expect(codeOf(r)).toBe('BAD_USER_INPUT');
      expect(fieldOf(r)).toBe('input.queryEmbedding');
    }
    // LEXICAL reads no vector, so it has none to refuse
    expect(await recall(s, org.token, { bankId: 'agent', query: 'spot', queryEmbedding: [1, 0], strategy: 'LEXICAL' })).toHaveLength(1);
  });
});

/** An OpenAI-compatible embeddings endpoint on loopback: 500 when `failing`, else a vector of concepts per text. */
async function fakeEmbeddings(): Promise<{ url: string; failing: boolean; close: () => Promise<void> }> {
  const concepts = [/\b(car|automobile|vehicle)\b/i, /\b(pasta|pizza|cooking)\b/i, /\b(fence|garden)\b/i];
  const state = { failing: false };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (state.failing) {
        res.writeHead(500).end('{"error":"down"}');
        return;
      }
      const input = JSON.parse(body).input as string[];
      const data = input.map((text, index) => {
        const v: number[] = [...concepts.map((c) => (c.test(text) ? 1 : 0)), 0.05];
        const n = Math.hypot(...v);
        return { object: 'embedding', index, embedding: v.map((x) => x / n) };
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: 'fake' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return Object.assign(state, { url, close: () => new Promise<void>((r) => server.close(() => r())) });
}

describe('recall with the server’s query embedding (provider openai on a loopback fake)', () => {
  it('embeds the query for HYBRID, and falls back to LEXICAL, saying so, when the embedder fails', async () => {
    const fake = await fakeEmbeddings();
    const t = await startTestServer({
      env: { EMBEDDINGS_PROVIDER: 'openai', EMBEDDINGS_BASE_URL: fake.url, EMBEDDINGS_MODEL: 'fake', EMBEDDINGS_TIMEOUT_MS: '300' },
    });
    try {
      const org = await t.createOrg('server-vectors');
      const [car, fence] = await upsert(t, org.token, [
        { bankId: 'agent', text: 'I fixed my car yesterday' },
        { bankId: 'agent', text: 'The garden fence needs repair' },
        { bankId: 'agent', text: 'We talked about cooking pasta' },
      ]);
      const hybrid = await recall(t, org.token, { bankId: 'agent', query: 'automobile repair' });
      expect(hybrid.map((x) => x.strategyUsed)).toEqual(hybrid.map(() => 'HYBRID'));
      expect(
        hybrid
          .map((x) => x.fact.id)
          .slice(0, 2)
          .sort(),
      ).toEqual([car, fence].sort());
      expect(hybrid.find((x) => x.fact.id === car)!.semanticScore).toBeGreaterThan(0.9);

      // recallEpisodes: the episodes' vectors were made on write, the query's now; relevance is their cosine
      for (const title of ['Took the automobile to the shop', 'Baked pizza']) {
        await gqlOk(t.url, RecordEpisodeDocument, { input: { agentId: 'r', title } }, org.token);
      }
      const episodes = (await gqlOk(t.url, RecallEpisodesDocument, { agentId: 'r', query: 'my car' }, org.token)).recallEpisodes;
      expect(episodes.map((e) => [e.episode.title, Math.round(e.relevance * 1000) / 1000])).toEqual([
        ['Took the automobile to the shop', 1],
        ['Baked pizza', 0.002],
      ]);

      fake.failing = true;
      for (const strategy of [undefined, 'HYBRID', 'SEMANTIC'] as const) {
        const r = await recall(t, org.token, { bankId: 'agent', query: 'garden repair', strategy });
        expect(r[0].fact.id).toBe(fence);
        expect(r.map((x) => x.strategyUsed)).toEqual(r.map(() => 'LEXICAL'));
      }
      // episodes by their words then (pg_trgm word similarity)
      const byWords = (await gqlOk(t.url, RecallEpisodesDocument, { agentId: 'r', query: 'pizza' }, org.token)).recallEpisodes;
      expect(byWords[0].episode.title).toBe('Baked pizza');
    } finally {
      await t.close();
      await fake.close();
    }
  });
});

describe('recall HYBRID: query contexts', () => {
  it("takes a fact's usefulness from the query context whose embedding is within the match threshold of the query's", async () => {
    const org = await s.createOrg('hybrid-contexts');
    const [F, G] = await upsert(s, org.token, [
      { bankId: 'agent', text: 'Use connection pooling', embedding: [1, 0] },
      { bankId: 'agent', text: 'Pooling of threads', embedding: [0, 1] },
    ]);
    const times = <T>(n: number, x: T) => Array.from({ length: n }, () => x);
    await gqlOk(
      s.url,
      SubmitSignalsDocument,
      {
        signals: [
          ...times(3, { factId: F, signalType: 'USED' as const, query: 'database performance', queryEmbedding: [1, 0] }),
          ...times(3, { factId: G, signalType: 'USED' as const, query: 'thread scheduling', queryEmbedding: [0, 1] }),
        ],
      },
      org.token,
    );
    // another text, a vector close to F's context (cosine 0.99) and far from G's (0.11)
    const r = await recall(s, org.token, { bankId: 'agent', query: 'pooling', queryEmbedding: [0.9, 0.1], strategy: 'HYBRID' });
    const byId = new Map(r.map((x) => [x.fact.id, x]));
    expect(byId.get(F)).toMatchObject({ strategyUsed: 'HYBRID', usefulnessSource: 'QUERY_CONTEXT' });
    expect(byId.get(F)!.usefulnessScore).toBeCloseTo(0.8, 6);
    expect(byId.get(G)).toMatchObject({ strategyUsed: 'HYBRID', usefulnessSource: 'GLOBAL' });
    expectExplained(r, null);
  });
});
