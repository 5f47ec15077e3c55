import { afterAll, beforeAll, it } from 'vitest';
import * as D from '../dashboard/src/generated/graphql';
import { gql } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let big: { orgId: string; token: string };
beforeAll(async () => {
  s = await startTestServer();
  big = await s.createOrg('benchmark-size');
  const em = s.app.db.orm.em.fork();
  const t0 = Date.now();
  await em.execute(
    `WITH e AS (
       INSERT INTO episodes (id, org_id, agent_id, session_id, title, topic, created_at, updated_at)
       SELECT gen_random_uuid(), ?, 'agent-' || (g % 10), 'session-' || (g % 100), 'Episode ' || g, 'topic-' || (g % 5),
              now() - g * interval '1 minute', now()
         FROM generate_series(1, 10000) g
       RETURNING id, org_id, created_at)
     INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at)
     SELECT gen_random_uuid(), e.org_id, e.id, k, CASE WHEN k = 2 THEN 'assistant' ELSE 'user' END,
            (ARRAY['which invoice is late', 'the database migration failed', 'ship the order to Oslo', 'refund the customer'])[1 + (k + extract(minute from e.created_at)::int) % 4] || ' ' || k,
            12 + k, e.created_at + k * interval '1 second'
       FROM e CROSS JOIN generate_series(1, 3) k`,
    [big.orgId],
  );
  const t1 = Date.now();
  await em.execute(
    `INSERT INTO facts (id, org_id, bank_id, text, kind, status, usefulness, signal_count, last_signal_at, created_at, updated_at)
     SELECT gen_random_uuid(), ?, CASE WHEN g % 10 = 0 THEN 'bank-' || (g % 100 / 10) ELSE 'customers' END,
            'Customer ' || g || ' prefers ' || (ARRAY['express', 'standard', 'pickup', 'freight', 'drone'])[1 + g % 5]
              || ' delivery on ' || (ARRAY['mondays', 'tuesdays', 'weekends', 'holidays'])[1 + g % 4],
            (ARRAY['preference', 'rule', 'contact'])[1 + g % 3], CASE WHEN g % 9 = 0 THEN 'SUGGESTED' ELSE 'CONFIRMED' END,
            (g % 100) / 100.0, g % 4, CASE WHEN g % 4 > 0 THEN now() - (g % 30) * interval '1 day' END,
            now() - g * interval '1 second', now()
       FROM generate_series(1, 100000) g`,
    [big.orgId],
  );
  const t2 = Date.now();
  await em.execute('VACUUM ANALYZE facts');
  await em.execute('VACUUM ANALYZE episode_segments');
  console.log(`seed episodes ${t1 - t0} facts ${t2 - t1} vacuum ${Date.now() - t2}`);
}, 300_000);
afterAll(async () => s?.close());

it('profiles', async () => {
  const out: string[] = [];
  const time = async (label: string, doc: any, vars: any) => {
    s.sql.reset();
    const t = performance.now();
    const r = await gql(s.url, doc.toString(), vars, big.token);
    const ms = performance.now() - t;
    out.push(`${label}: ${ms.toFixed(0)} ms, ${s.sql.count} stmts${r.errors ? ' ERR ' + JSON.stringify(r.errors) : ''}`);
    return r;
  };
  for (let round = 0; round < 3; round++) {
    await time('banks', D.DashFactBanksDocument, {});
    const p = await time('search newest', D.DashFactSearchDocument, { filter: {}, first: 25, orderBy: 'NEWEST' });
    await time('search next', D.DashFactSearchDocument, { filter: {}, first: 25, orderBy: 'NEWEST', after: (p.data as any).facts.pageInfo.endCursor });
    const w = await time('search words useful', D.DashFactSearchDocument, { filter: { text: 'drone holidays' }, first: 25, orderBy: 'MOST_USEFUL' });
    const id = (w.data as any).facts.edges[0].node.id;
    await time('fact', D.DashFactDocument, { id });
    await time('fact history', D.DashFactHistoryDocument, { id });
    for (const mode of ['FOVEATED', 'MIXED', 'RELEVANT'])
      await time(`console ${mode}`, D.DashMemoryContextDocument, { input: { agentId: 'agent-3', query: 'database migration', tokenBudget: 2000, mode } });
    await time('recall', D.DashRecallDocument, { input: { bankId: 'customers', query: `drone delivery on weekends ${round}`, boostByUsefulness: true, usefulnessWeight: 0.3, limit: 10 } });
  }
  console.log(out.join('\n'));
}, 300_000);
