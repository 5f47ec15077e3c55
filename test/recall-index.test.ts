import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecallDocument, type RecallInput, SubmitSignalsDocument, UpsertFactsDocument } from './generated/graphql';
import { gqlOk, wsClient, wsOnce } from './helpers/client';
import { seededRandom } from './helpers/random';
import { startTestServer, type TestServer } from './helpers/server';
import { rankingQuery, validateRecall } from '../src/modules/facts/recall.service';
import { sumOfSquares } from '../src/modules/facts/usefulness.sql';
import { candidateIds } from '../src/modules/facts/vectors/candidates';
import { rankCandidates } from '../src/modules/facts/vectors/exact-rank';
import { UsefulnessSource } from '../src/modules/facts/facts.type';
import { FactIndex } from '../src/modules/facts/vectors/fact-index';
import { decodeFloat8Array } from '../src/modules/facts/vectors/float8-binary';
import { contextMatches, cosine, finalScore, normalizeQuery, semanticFromCosine, usefulnessAt } from '../src/modules/facts/usefulness';

// Server `idx` recalls through the in-process vector index, server `sql` (same database) ranks
// every recall in PostgreSQL alone: the ranking the index must reproduce.
let idx: TestServer;
let sql: TestServer;
const redis: Record<string, string> = process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {};
beforeAll(async () => {
  idx = await startTestServer({ env: redis });
  sql = await startTestServer({ dbUrl: idx.dbUrl, env: { ...redis, RECALL_INDEX_MAX_MB: '0' } });
});
afterAll(async () => {
  await sql?.close();
  await idx?.close();
});
const em = (): EntityManager => idx.app.db.orm.em.fork();

const recall = (s: TestServer, token: string, input: RecallInput) => gqlOk(s.url, RecallDocument, { input }, token).then((r) => r.recall);
const upsert = (token: string, inputs: { bankId: string; text: string; embedding?: number[]; externalId?: string }[]) =>
  gqlOk(idx.url, UpsertFactsDocument, { inputs }, token).then((r) => r.upsertFacts.map((f) => f.id));

const rng = seededRandom;

interface SeedFact {
  id: string;
  text: string;
  kind: string;
  status: string;
  embedding: number[] | null;
  usefulness: number;
  lastSignalAt: string | null;
  contexts: { normalized: string; embedding: number[] | null; usefulness: number; lastSignalAt: string | null }[];
}

/** A bank of random facts (some text-only, some stubs) and query contexts, some near the queries. */
async function seedBank(orgId: string, dim: number, n: number, queries: number[][], seed: number, textOnly: boolean): Promise<SeedFact[]> {
  const random = rng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  const near = (q: number[], c: number) => {
    const noise = q.map(gauss);
    const qn = Math.hypot(...q);
    const nn = Math.hypot(...noise);
    return q.map((x, j) => (c * x) / qn + (Math.sqrt(1 - c * c) * noise[j]) / nn);
  };
  const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
  const facts: SeedFact[] = Array.from({ length: n }, (_, i) => {
    const q = queries[i % queries.length];
    const r = random();
    return {
      id: crypto.randomUUID(),
      text: i % 97 === 0 ? '' : `fact ${i} about the plan for ${['pricing', 'hiring', 'the launch'][i % 3]}`,
      kind: ['definition', 'procedure', 'example'][i % 3],
      status: ['SUGGESTED', 'CONFIRMED', 'REJECTED'][(i >> 1) % 3],
      embedding: textOnly && i % 53 === 0 ? null : r < 0.3 ? near(q, 0.2 + random() * 0.79) : q.map(gauss),
      usefulness: random(),
      lastSignalAt: random() < 0.2 ? null : ago(random() * 90),
      contexts: Array.from({ length: Math.floor(random() * 3) }, () => {
        const k = random();
        return {
          normalized: k > 0.85 ? 'what is the plan' : 'some other question',
          embedding: k < 0.6 ? near(q, 0.8 + random() * 0.1) : k < 0.85 ? q.map(gauss) : null,
          usefulness: random(),
          lastSignalAt: random() < 0.3 ? null : ago(random() * 60),
        };
      }),
    };
  });
  await em().execute(
    `INSERT INTO facts (id, org_id, bank_id, text, kind, status, embedding, usefulness, last_signal_at, signal_count, created_at, updated_at)
     SELECT x.id, ?, 'bank', x.text, x.kind, x.status,
       CASE WHEN jsonb_typeof(x.embedding) = 'array' THEN ARRAY(SELECT e::float8 FROM jsonb_array_elements_text(x.embedding) WITH ORDINALITY a(e, o) ORDER BY o) END,
       x.usefulness, x.last_signal_at, 1, now(), now()
     FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, text text, kind text, status text, embedding jsonb, usefulness float8, last_signal_at timestamptz)`,
    [orgId, JSON.stringify(facts.map((f) => ({ ...f, last_signal_at: f.lastSignalAt, contexts: undefined })))],
  );
  const contexts = facts.flatMap((f) =>
    f.contexts.map((c) => ({ fact_id: f.id, n: c.normalized, e: c.embedding, u: c.usefulness, t: c.lastSignalAt })),
  );
  await em().execute(
    `INSERT INTO fact_query_contexts (id, org_id, created_at, fact_id, query, normalized_query, query_embedding, usefulness, signal_count, last_signal_at)
     SELECT gen_random_uuid(), ?, now(), x.fact_id, x.n, x.n,
       CASE WHEN jsonb_typeof(x.e) = 'array' THEN ARRAY(SELECT e::float8 FROM jsonb_array_elements_text(x.e) WITH ORDINALITY a(e, o) ORDER BY o) END, x.u, 1, x.t
     FROM jsonb_to_recordset(?::jsonb) AS x(fact_id uuid, n text, e jsonb, u float8, t timestamptz)`,
    [orgId, JSON.stringify(contexts)],
  );
  await em().execute('INSERT INTO fact_embedding_dimensions (org_id, dimension) VALUES (?, ?)', [orgId, dim]);
  return facts;
}

/** The ranking from scratch with the reference formulas (facts with an embedding only), as of `now`. */
function fromScratch(
  facts: SeedFact[],
  input: Required<Pick<RecallInput, 'query' | 'limit' | 'boostByUsefulness' | 'usefulnessWeight' | 'minUsefulness'>> & {
    queryEmbedding: number[];
    kinds?: string[];
    statuses?: readonly string[];
  },
  now: Date,
) {
  const normalizedQuery = normalizeQuery(input.query);
  return facts
    .filter(
      (f) =>
        f.text !== '' &&
        f.embedding &&
        (!input.kinds || input.kinds.includes(f.kind)) &&
        (!input.statuses || input.statuses.includes(f.status)),
    )
    .map((f) => {
      let best: { sim: number; u: number; t: number } | null = null;
      for (const c of f.contexts) {
        const sim = contextMatches(
          { normalizedQuery: c.normalized, queryEmbedding: c.embedding },
          { normalizedQuery, queryEmbedding: input.queryEmbedding },
        );
        const t = c.lastSignalAt ? Date.parse(c.lastSignalAt) : -Infinity;
        if (sim !== null && (!best || sim > best.sim || (sim === best.sim && t > best.t))) best = { sim, u: c.usefulness, t };
      }
      const use = best
        ? usefulnessAt(best.u, best.t === -Infinity ? null : new Date(best.t), now)
        : usefulnessAt(f.usefulness, f.lastSignalAt ? new Date(f.lastSignalAt) : null, now);
      const semantic = semanticFromCosine(cosine(f.embedding!, input.queryEmbedding));
      return {
        id: f.id,
        use,
        source: best ? 'QUERY_CONTEXT' : 'GLOBAL',
        semantic,
        score: finalScore(semantic, use, input.usefulnessWeight, input.boostByUsefulness),
      };
    })
    .filter((x) => x.use >= input.minUsefulness)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, input.limit);
}

describe('recall through the vector index', () => {
  it('decodes float8 arrays from their binary form exactly', async () => {
    const values = [1.5, -2.25e-300, 0, -5e-324, 1.7976931348623157e308, 0.1, -1 / 3];
    const [row] = await em().execute<{ b: Buffer; e: Buffer }[]>(`SELECT array_send(?::float8[]) AS b, array_send('{}'::float8[]) AS e`, [
      `{${values.join(',')}}`,
    ]);
    expect([...decodeFloat8Array(row.b)]).toEqual(values);
    expect([...decodeFloat8Array(row.e)]).toEqual([]);
  });

  it('returns what PostgreSQL alone returns and what the formulas give, to 1e-9, on random banks of several dimensions', async () => {
    let compared = 0;
    const index = new FactIndex(1 << 30);
    // with facts ranked by text (PostgreSQL ranks the candidates) and without (ranked in process)
    for (const [dim, n, seed, textOnly] of [
      [8, 1500, 11, true],
      [16, 1500, 13, false],
      [64, 2500, 12, false],
    ] as const) {
      const org = await idx.createOrg(`exact-${dim}`);
      const random = rng(seed * 7);
      const queries = Array.from({ length: 4 }, () => Array.from({ length: dim }, () => random() - 0.5));
      const facts = await seedBank(org.orgId, dim, n, queries, seed, textOnly);
      for (const [qi, queryEmbedding] of queries.entries()) {
        for (const opts of [
          { boostByUsefulness: false, usefulnessWeight: 0.3, minUsefulness: 0, limit: 10 },
          { boostByUsefulness: true, usefulnessWeight: 0.3, minUsefulness: 0, limit: 20 },
          { boostByUsefulness: true, usefulnessWeight: 0.8, minUsefulness: 0.4, limit: 10 },
          {
            boostByUsefulness: true,
            usefulnessWeight: 0.5,
            minUsefulness: 0,
            limit: 15,
            kinds: ['definition', 'example'],
            statuses: ['CONFIRMED' as const, 'SUGGESTED' as const],
          },
        ]) {
          const input = { bankId: 'bank', query: qi % 2 ? 'What is the plan?' : 'anything else', queryEmbedding, ...opts };
          const before = new Date();
          const [got, want] = await Promise.all([recall(idx, org.token, input), recall(sql, org.token, input)]);
          expect(got.map((r) => [r.fact.id, r.usefulnessSource])).toEqual(want.map((r) => [r.fact.id, r.usefulnessSource]));
          // the two requests decay usefulness to their own clocks, milliseconds apart
          got.forEach((r, i) => {
            expect(r.finalScore).toBeCloseTo(want[i].finalScore, 7);
            expect(r.semanticScore).toBeCloseTo(want[i].semanticScore!, 9);
            expect(r.usefulnessScore).toBeCloseTo(want[i].usefulnessScore, 7);
          });
          // in one transaction (one clock), the candidates' ranking is the whole bank's: bit for bit
          // from the same SQL, to 1e-12 from this process (power() and Math.pow may differ in the last bit)
          await em().transactional(async (tx) => {
            const p = validateRecall(input as never);
            const { bank } = await index.prepare(tx, org.orgId, 'bank');
            const candidates = candidateIds(bank!, {
              ...p,
              embedding: queryEmbedding,
              normSq: sumOfSquares(queryEmbedding),
              normalizedQuery: normalizeQuery(input.query),
              nowMs: Date.now(),
            });
            expect(candidates!.length).toBeLessThan(n / 4);
            const rows = async (c: string[] | null) => {
              const [text, params] = rankingQuery(org.orgId, p, queryEmbedding, c);
              const r = await tx.execute<{ id: string; semantic: number; use: number; from_context: boolean; final: number }[]>(
                text,
                params,
              );
              return r.map((x) => [x.id, x.semantic, x.use, x.from_context, x.final]);
            };
            const whole = await rows(null);
            expect(bank!.textOnly.size > 0).toBe(textOnly);
            if (textOnly) expect(await rows(candidates)).toEqual(whole);
            else {
              const here = (await rankCandidates(tx, org.orgId, p, queryEmbedding, candidates!))!;
              expect(here.map((r) => [r.fact.id, r.usefulnessSource === UsefulnessSource.QUERY_CONTEXT])).toEqual(
                whole.map((w) => [w[0], w[3]]),
              );
              here.forEach((r, i) => {
                expect(r.semanticScore).toBe(whole[i][1]);
                expect(Math.abs(r.usefulnessScore - (whole[i][2] as number))).toBeLessThan(1e-12);
                expect(Math.abs(r.finalScore - (whole[i][4] as number))).toBeLessThan(1e-12);
              });
            }
          });
          // text-only facts rank by word similarity in both; the rest follow the formulas (decay is
          // computed as of the request, a few milliseconds apart)
          const scratch = fromScratch(facts, input, before);
          const ranked = got.filter((r) => facts.find((f) => f.id === r.fact.id)?.embedding);
          expect(ranked.map((r) => r.fact.id)).toEqual(scratch.slice(0, ranked.length).map((x) => x.id));
          ranked.forEach((r, i) => {
            expect(r.finalScore).toBeCloseTo(scratch[i].score, 6);
            expect(r.semanticScore).toBeCloseTo(scratch[i].semantic, 9);
            expect(r.usefulnessSource).toBe(scratch[i].source);
          });
          compared += got.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(300);
    // about 15 s of CPU on a quiet 2-core machine; beside a browser test it has taken over 60 s
  }, 240_000);

  it('sees every write acknowledged by another instance in its next recall: new facts, signals, deletions and moves between banks', async () => {
    const org = await idx.createOrg('fresh');
    const q = [1, 0, 0];
    const [a, b] = await upsert(org.token, [
      { bankId: 'fresh', text: 'fact a', embedding: [0.9, 0.1, 0] },
      { bankId: 'fresh', text: 'fact b', embedding: [0.5, 0.5, 0.1] },
    ]);
    const ids = async () =>
      (
        await recall(idx, org.token, { bankId: 'fresh', query: 'q', queryEmbedding: q, boostByUsefulness: true, usefulnessWeight: 0.9 })
      ).map((r) => r.fact.id);
    expect(await ids()).toEqual([a, b]);
    // written through the other instance
    const [c] = await gqlOk(
      sql.url,
      UpsertFactsDocument,
      { inputs: [{ bankId: 'fresh', text: 'fact c', embedding: [1, 0, 0], externalId: 'c' }] },
      org.token,
    ).then((r) => r.upsertFacts.map((f) => f.id));
    expect(await ids()).toEqual([c, a, b]);
    await gqlOk(
      sql.url,
      SubmitSignalsDocument,
      { signals: Array.from({ length: 5 }, () => ({ factId: b, signalType: 'HELPFUL' as const, query: 'q' })) },
      org.token,
    );
    expect((await ids())[0]).toBe(b);
    await gqlOk(sql.url, UpsertFactsDocument, { inputs: [{ bankId: 'elsewhere', text: 'fact c moved', externalId: 'c' }] }, org.token);
    expect(await ids()).toEqual([b, a]);
    await sql.app.db.orm.em.fork().execute('DELETE FROM facts WHERE org_id = ? AND id = ?', [org.orgId, b]);
    expect(await ids()).toEqual([a]);
    expect((await recall(idx, org.token, { bankId: 'elsewhere', query: 'q', queryEmbedding: q })).map((r) => r.fact.id)).toEqual([c]);
  });

  it('lets concurrent recalls of an organization share one catch-up with the change log, each seeing what was written before it began', async () => {
    const org = await idx.createOrg('shared-catch-up');
    await upsert(org.token, [{ bankId: 'c', text: 'first', embedding: [1, 0] }]);
    const ask = () => recall(idx, org.token, { bankId: 'c', query: 'q', queryEmbedding: [1, 0], limit: 50 });
    await ask();
    const [late] = await gqlOk(
      sql.url,
      UpsertFactsDocument,
      { inputs: [{ bankId: 'c', text: 'written elsewhere', embedding: [0.9, 0.1] }] },
      org.token,
    ).then((r) => r.upsertFacts.map((f) => f.id));
    idx.sql.reset();
    const answers = await Promise.all(Array.from({ length: 20 }, ask));
    for (const a of answers) expect(a.map((r) => r.fact.id)).toContain(late);
    // each ranking statement reads the change log too and finds the write unseen; the catch-ups
    // that apply it (a change log read of their own) are shared
    const catchUps = idx.sql.statements.filter((q) => q.includes('change_log') && !/left join lateral/i.test(q)).length;
    expect(catchUps).toBeGreaterThanOrEqual(1);
    expect(catchUps).toBeLessThan(20);
  });

  it('reads a bank larger than one chunk (20,000 facts) whole, facts created at the same instant included', async () => {
    const org = await idx.createOrg('chunks');
    await em().execute(
      `INSERT INTO facts (id, org_id, bank_id, text, embedding, created_at, updated_at)
       SELECT gen_random_uuid(), ?, 'many', 'fact ' || g, ARRAY[cos(g * 0.001), sin(g * 0.001)]::float8[], '2026-01-01T00:00:00.123456Z'::timestamptz + (g / 3) * interval '1 microsecond', now()
       FROM generate_series(1, 20500) g`,
      [org.orgId],
    );
    await em().execute('INSERT INTO fact_embedding_dimensions (org_id, dimension) VALUES (?, 2)', [org.orgId]);
    const index = new FactIndex(1 << 30);
    const { bank } = await index.prepare(em(), org.orgId, 'many');
    expect(bank!.count).toBe(20500);
    const input = { bankId: 'many', query: 'q', queryEmbedding: [1, 0.3], limit: 20 };
    expect((await recall(idx, org.token, input)).map((r) => r.fact.id)).toEqual(
      (await recall(sql, org.token, input)).map((r) => r.fact.id),
    );
  });

  it('never answers with another organization’s facts, over HTTP and WebSocket', async () => {
    const one = await idx.createOrg('index-one');
    const two = await idx.createOrg('index-two');
    const [mine] = await upsert(one.token, [{ bankId: 'same', text: 'secret of one', embedding: [1, 0] }]);
    const [theirs] = await upsert(two.token, [{ bankId: 'same', text: 'fact of two', embedding: [0, 1] }]);
    const input = { bankId: 'same', query: 'secret', queryEmbedding: [1, 0] };
    expect((await recall(idx, one.token, input)).map((r) => r.fact.id)).toEqual([mine]);
    expect((await recall(idx, two.token, input)).map((r) => r.fact.id)).toEqual([theirs]);
    const ws = wsClient(idx.wsUrl, two.token);
    try {
      const r = await wsOnce(ws, RecallDocument, { input });
      expect(r.errors).toBeUndefined();
      expect(r.data?.recall.map((x) => x.fact.id)).toEqual([theirs]);
    } finally {
      await ws.dispose();
    }
  });
});
