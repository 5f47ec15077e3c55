import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { insertKey } from './noisy';

export const ERASURE_ID = 'erasure';

/** Agents the organization's facts and episodes are spread over; the scenario erases the first. */
const AGENTS = 10;
/** Rows per seeding statement (each its own transaction: the change log keeps one row per statement). */
const CHUNK = 100_000;

export interface ErasureResult {
  facts: number;
  episodes: number;
  seedMs: number;
  /** the eraseSubject call for one agent: wall time and the counts it reported */
  eraseMs: number;
  erased: Record<string, number>;
  /** the quiet organization's requests (a page of its episodes, back to back) while nothing runs, and during the erasure */
  quietIdle: Latencies;
  quietDuring: Latencies;
  /** recall of a bank of `asOfFacts` facts (a tenth changed once): as of an instant before the changes, and of now */
  asOfFacts: number;
  recallAsOf: Latencies;
  recallNow: Latencies;
}

interface Latencies {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

const stats = (ms: number[]): Latencies => {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return { n: s.length, p50: at(0.5), p99: at(0.99), max: s[s.length - 1] ?? 0 };
};

async function post(url: string, token: string, query: string, variables: unknown = {}): Promise<{ data?: any; errors?: unknown[] }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as { data?: any; errors?: unknown[] };
}

/** `facts` facts and `episodes` episodes (2 turns each) of `orgId` over `agents` agents, set-based, in chunks. */
async function seedVolume(c: pg.Client, orgId: string, facts: number, episodes: number, agents = AGENTS): Promise<void> {
  for (let at = 0; at < facts; at += CHUNK) {
    const n = Math.min(CHUNK, facts - at);
    await c.query(
      `INSERT INTO facts (id, org_id, bank_id, text, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'agent-' || (i % ${agents}), 'fact ' || i || ' about invoice ' || (i % 997) || ' and order ' || (i % 1009), now(), now()
         FROM generate_series($2::int, $3::int) i`,
      [orgId, at, at + n - 1],
    );
  }
  for (let at = 0; at < episodes; at += CHUNK / 2) {
    const n = Math.min(CHUNK / 2, episodes - at);
    await c.query(
      `WITH e AS (INSERT INTO episodes (id, org_id, agent_id, session_id, metadata, created_at, updated_at)
                  SELECT gen_random_uuid(), $1::uuid, 'agent-' || (i % ${agents}), 's' || (i % 5000), jsonb_build_object('userId', 'u' || (i % 5000)), now(), now()
                    FROM generate_series($2::int, $3::int) i RETURNING id, org_id)
       INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at)
       SELECT gen_random_uuid(), org_id, id, k, 'user', 'a turn of the conversation number ' || k, 8, now() FROM e, generate_series(1, 2) k`,
      [orgId, at, at + n - 1],
    );
  }
}

/** Back-to-back requests until `stop()` is called; their latencies. */
function probe(url: string, token: string, query: string): { stop(): Promise<number[]> } {
  const ms: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      const r = await post(url, token, query);
      if (r.errors) throw new Error(`quiet request failed: ${JSON.stringify(r.errors).slice(0, 300)}`);
      ms.push(performance.now() - t);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return ms;
    },
  };
}

async function timed(n: number, run: () => Promise<void>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  return ms;
}

/**
 * Erasure at volume: one organization with `facts` facts and `episodes` episodes over 10 agents,
 * another (quiet) organization reading a page of its episodes back to back; one agent's data
 * erased through the API while it reads. Then recall as of a past instant over a bank of `asOfFacts`.
 */
export async function runErasure(o: {
  url: string;
  databaseUrl: string;
  orgId: string;
  facts: number;
  episodes: number;
  asOfFacts: number;
}): Promise<ErasureResult> {
  const c = new pg.Client({ connectionString: o.databaseUrl });
  await c.connect();
  const started = Date.now();
  let quietOrg: string;
  let asOfOrg: string;
  let before: string;
  try {
    quietOrg = (await c.query(`INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'quiet') RETURNING id`)).rows[0].id;
    asOfOrg = (await c.query(`INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'as-of') RETURNING id`)).rows[0].id;
    await seedVolume(c, o.orgId, o.facts, o.episodes);
    await seedVolume(c, quietOrg, 0, 1000);
    await seedVolume(c, asOfOrg, o.asOfFacts, 0, 1);
    await c.query('VACUUM ANALYZE');
    await new Promise((r) => setTimeout(r, 20));
    before = (await c.query(`SELECT now()::text AS t`)).rows[0].t;
    await new Promise((r) => setTimeout(r, 20));
    // a tenth of the bank changes once: each change keeps a version
    await c.query(`UPDATE facts SET text = text || ' (revised)' WHERE org_id = $1::uuid AND seq % 10 = 0`, [asOfOrg]);
    await c.query('VACUUM ANALYZE');
  } finally {
    await c.end();
  }
  const seedMs = Date.now() - started;
  const admin = await insertKey(o.databaseUrl, o.orgId, 'ADMIN', 'eraser');
  const quiet = await insertKey(o.databaseUrl, quietOrg, 'VIEWER', 'quiet');
  const asOfKey = await insertKey(o.databaseUrl, asOfOrg, 'VIEWER', 'as-of');
  const quietQuery = `{ episodes(first: 10) { edges { node { id agentId createdAt } } } }`;

  const idle = probe(o.url, quiet, quietQuery);
  await new Promise((r) => setTimeout(r, 3000));
  const quietIdle = stats(await idle.stop());

  const during = probe(o.url, quiet, quietQuery);
  const t = performance.now();
  const erased = await post(o.url, admin, `mutation { eraseSubject(selector: { agentId: "agent-0" }) { total counts { kind count } } }`);
  const eraseMs = performance.now() - t;
  const quietDuring = stats(await during.stop());
  if (erased.errors) throw new Error(`eraseSubject failed: ${JSON.stringify(erased.errors)}`);

  const recall = (asOf: string | null) => async () => {
    const r = await post(
      o.url,
      asOfKey,
      `query R($asOf: DateTime) { recall(input: { bankId: "agent-0", query: "invoice 42 and order 7", asOf: $asOf, limit: 10 }) { fact { id text } } }`,
      { asOf },
    );
    if (r.errors || !r.data.recall.length) throw new Error(`recall failed: ${JSON.stringify(r.errors ?? r.data)}`);
  };
  const asOfAt = new Date(before).toISOString();
  await timed(5, recall(asOfAt));
  const recallAsOf = stats(await timed(50, recall(asOfAt)));
  await timed(5, recall(null));
  const recallNow = stats(await timed(50, recall(null)));
  return {
    facts: o.facts,
    episodes: o.episodes,
    seedMs,
    eraseMs,
    erased: Object.fromEntries(erased.data.eraseSubject.counts.map((k: { kind: string; count: number }) => [k.kind, k.count])),
    quietIdle,
    quietDuring,
    asOfFacts: o.asOfFacts,
    recallAsOf,
    recallNow,
  };
}
