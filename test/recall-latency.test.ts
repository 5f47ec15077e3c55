import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecallDocument, type RecallInput } from './generated/graphql';
import { gqlOk } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

// Recall latency over a 100,000-fact bank (banks are expected to stay in the tens of thousands).
// Prints p50 / p99; timings are reported, never asserted. Opt in: RECALL_LATENCY=1 (it seeds
// RECALL_LATENCY_FACTS (default 100,000) facts with 64-dimension embeddings and runs 4 x RUNS recalls).
const RUNS = Number(process.env.RECALL_LATENCY_RUNS ?? 30);
const DIM = 64;
const FACTS = Number(process.env.RECALL_LATENCY_FACTS ?? 100_000);

describe.runIf(process.env.RECALL_LATENCY)(`recall latency over a ${FACTS}-fact bank`, () => {
  let s: TestServer;
  let em: () => EntityManager;
  let org: { orgId: string; token: string };

  beforeAll(async () => {
    s = await startTestServer();
    em = () => s.app.db.orm.em.fork();
    org = await s.createOrg('latency');
    await em().execute(
      `INSERT INTO facts (id, org_id, bank_id, text, embedding, usefulness, last_signal_at, signal_count)
       SELECT gen_random_uuid(), ?, 'agent-big',
              'fact ' || g || ' about ' || (ARRAY['databases','connection pooling','authentication','caching','rate limiting','indexes'])[1 + g % 6],
              ARRAY(SELECT random() - 0.5 + 0 * g FROM generate_series(1, ${DIM})), random(), now() - make_interval(days => g % 60), g % 7
       FROM generate_series(1, ${FACTS}) g`,
      [org.orgId],
    );
    // query contexts for 5% of the facts, half of them under the question asked below
    await em().execute(
      `INSERT INTO fact_query_contexts (id, org_id, fact_id, query, normalized_query, usefulness, signal_count, last_signal_at)
       SELECT gen_random_uuid(), f.org_id, f.id, q, q, random(), 3, now() - interval '3 days'
       FROM (SELECT id, org_id, row_number() OVER () AS n FROM facts WHERE org_id = ? LIMIT 5000) f,
            LATERAL (SELECT CASE WHEN f.n % 2 = 0 THEN 'how do i speed up database connections' ELSE 'other question ' || f.n END AS q) x`,
      [org.orgId],
    );
    await em().execute(`INSERT INTO fact_embedding_dimensions (org_id, dimension) VALUES (?, ${DIM})`, [org.orgId]);
    await em().execute('ANALYZE facts');
    await em().execute('ANALYZE fact_query_contexts');
  }, 300_000);
  afterAll(() => s?.close());

  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

  async function measure(label: string, input: RecallInput) {
    const times: number[] = [];
    let last: { finalScore: number }[] = [];
    for (let i = 0; i < RUNS + 2; i++) {
      const t0 = performance.now();
      last = (await gqlOk(s.url, RecallDocument, { input }, org.token)).recall;
      if (i >= 2) times.push(performance.now() - t0); // two warm-up runs
    }
    process.stdout.write(
      `recall latency ${label}: p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms (${RUNS} runs, ${FACTS} facts)\n`,
    );
    return last;
  }

  it('ranks the whole bank with and without boosting (numbers printed)', async () => {
    const queryEmbedding = Array.from({ length: DIM }, (_, i) => Math.sin(i + 1));
    const base = { bankId: 'agent-big', query: 'How do I speed up database connections?', limit: 10 };
    const runs = [
      await measure('embeddings, no boost', { ...base, queryEmbedding }),
      await measure('embeddings, boost 0.3', { ...base, queryEmbedding, boostByUsefulness: true }),
      await measure('pg_trgm, no boost', base),
      await measure('pg_trgm, boost 0.3', { ...base, boostByUsefulness: true }),
    ];
    for (const r of runs) {
      expect(r).toHaveLength(10);
      expect(r.map((x) => x.finalScore)).toEqual([...r.map((x) => x.finalScore)].sort((a, b) => b - a));
    }
  }, 600_000);
});
