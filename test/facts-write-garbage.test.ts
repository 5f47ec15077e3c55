import { Session } from 'node:inspector/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlOk } from './helpers/client';
import { sqlClient } from './helpers/db';
import { startTestServer, type TestServer } from './helpers/server';

// A write of many facts with 512-dimension vectors: what the server allocates for it (sampled by V8's
// allocation sampler, objects already collected included) and the vectors it answers with.

let s: TestServer;
let a: { orgId: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createOrg('garbage');
});
afterAll(() => s?.close());

const UPSERT = `mutation Garbage($inputs: [FactInput!]!) { upsertFacts(inputs: $inputs) { id text } }`;

/** `n` facts, each vector of 512 numbers, at full precision or with two decimals (a body of 1 MB at most). */
const inputs = (batch: number, n: number, precise: boolean) =>
  Array.from({ length: n }, (_, i) => ({
    bankId: 'garbage',
    text: `fact ${batch}-${i} about the garden and the market, written down in the diary`,
    embedding: Array.from({ length: 512 }, (_, d) => {
      const x = Math.sin(batch * 1_000_003 + i * 613 + d * 7.31) / 3;
      return precise ? x : Math.round(x * 100) / 100;
    }),
  }));

/** Bytes allocated while `run` runs (the sampler's estimate), with the objects collected meanwhile. */
async function allocated(run: () => Promise<void>): Promise<number> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 32_768,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    } as never);
    await run();
    const { profile } = await session.post('HeapProfiler.stopSampling');
    type Node = { selfSize: number; children: Node[] };
    const sum = (n: Node): number => n.children.reduce((t, c) => t + sum(c), n.selfSize);
    return sum(profile.head);
  } finally {
    session.disconnect();
  }
}

describe('upsertFacts with 512-dimension vectors', () => {
  it('stores every vector exactly as given and answers the facts in input order', async () => {
    const given = inputs(1, 40, true);
    const r = await gqlOk<{ upsertFacts: { id: string; text: string }[] }, unknown>(s.url, UPSERT, { inputs: given }, a.token);
    expect(r.upsertFacts.map((f) => f.text)).toEqual(given.map((f) => f.text));
    const db = await sqlClient(s.dbUrl);
    try {
      const stored = await db.query<{ id: string; embedding: number[] }>('SELECT id, embedding FROM facts WHERE id = any($1::uuid[])', [
        r.upsertFacts.map((f) => f.id),
      ]);
      const byId = new Map(stored.rows.map((x) => [x.id, x.embedding]));
      r.upsertFacts.forEach((f, i) => expect(byId.get(f.id)).toEqual(given[i].embedding));
    } finally {
      await db.end();
    }
  });

  it('allocates under 105 MB for 200 facts, its parsing of the request included', async () => {
    await gqlOk(s.url, UPSERT, { inputs: inputs(2, 200, false) }, a.token); // warm
    // the request's body made before the sampling starts: what is sampled is the server's part
    const body = JSON.stringify({ query: UPSERT, variables: { inputs: inputs(3, 200, false) } });
    s.sql.reset();
    const bytes = await allocated(async () => {
      const res = await fetch(s.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${a.token}` },
        body,
      });
      expect(((await res.json()) as { data: { upsertFacts: unknown[] } }).data.upsertFacts).toHaveLength(200);
    });
    s.sql.reset();
    // the rows' JSON quoted into the statement's text, and the vectors read back as text, made short-lived
    // strings per number: 120 MB for this write, 83 MB without
    expect(bytes / 2 ** 20).toBeLessThan(105);
  });
});
