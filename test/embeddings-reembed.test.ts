import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlOk, wsClient, wsOnce } from './helpers/client';
import { cloneDatabase, sqlClient } from './helpers/db';
import { startTestServer, type TestServer } from './helpers/server';

// A changed embedding model: the vectors of the old model are embedded again in the background into
// the shadow column, recall answers from the old vectors until every row of the organization has its
// new one, then one transaction swaps them in; a failure resumes where it stopped.
const DIM = 8;
let fake: Server;
let fakeUrl: string;
/** texts the endpoint answers before it fails every call */
let answerLimit = 64;
let textsSent = 0;

beforeAll(async () => {
  fake = createServer((req, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      if (textsSent >= answerLimit) return void res.writeHead(500).end();
      const input = (JSON.parse(raw) as { input: string[] }).input;
      textsSent += input.length;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          data: input.map((t, index) => ({ index, embedding: Array.from({ length: DIM }, (_, d) => (t.length % 7) + d + 1) })),
        }),
      );
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => fake.close(() => r())));

const OLD = 'openai:old-model';
const NEW = 'openai:fake-embed';

async function waitFor(check: () => boolean, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('re-embedding after a model change', () => {
  let dbUrl: string;
  let s: TestServer;
  let seeder: TestServer;
  let a: { orgId: string; token: string };
  let b: { orgId: string; token: string };

  beforeAll(async () => {
    dbUrl = await cloneDatabase();
    seeder = await startTestServer({ dbUrl });
    a = await seeder.createOrg('reembed-a');
    b = await seeder.createOrg('reembed-b');
    const db = await sqlClient(dbUrl);
    try {
      // org a: 100 facts with 3-number vectors of the old model, 5 without vectors, a query context, an episode
      await db.query(
        `INSERT INTO facts (id, org_id, bank_id, text, embedding, embedding_model, created_at, updated_at)
         SELECT gen_random_uuid(), $1, 'b', 'fact number ' || g, ARRAY[1, g, 0]::float8[], $2, now(), now() FROM generate_series(1, 100) g`,
        [a.orgId, OLD],
      );
      await db.query(
        `INSERT INTO facts (id, org_id, bank_id, text, created_at, updated_at)
         SELECT gen_random_uuid(), $1, 'b', 'plain fact ' || g, now(), now() FROM generate_series(1, 5) g`,
        [a.orgId],
      );
      await db.query(`INSERT INTO fact_embedding_dimensions (org_id, dimension) VALUES ($1, 3)`, [a.orgId]);
      await db.query(
        `INSERT INTO fact_query_contexts (id, org_id, fact_id, query, normalized_query, query_embedding, embedding_model, created_at)
         SELECT gen_random_uuid(), org_id, id, 'who?', 'who', ARRAY[1, 0, 0]::float8[], $2, now() FROM facts WHERE org_id = $1 LIMIT 1`,
        [a.orgId, OLD],
      );
      await db.query(
        `INSERT INTO episodes (id, org_id, agent_id, title, embedding, embedding_model, created_at, updated_at)
         VALUES (gen_random_uuid(), $1, 'agent', 'an episode', ARRAY[0, 1, 0]::float8[], $2, now(), now())`,
        [a.orgId, OLD],
      );
      // org b: client vectors of 3 numbers, and a fact of the old model: its space would mix, so it is left alone
      await db.query(
        `INSERT INTO facts (id, org_id, bank_id, text, embedding, embedding_model, created_at, updated_at)
         VALUES (gen_random_uuid(), $1, 'b', 'client fact', ARRAY[1, 1, 1]::float8[], 'client', now(), now()),
                (gen_random_uuid(), $1, 'b', 'old fact', ARRAY[1, 2, 1]::float8[], $2, now(), now())`,
        [b.orgId, OLD],
      );
      await db.query(`INSERT INTO fact_embedding_dimensions (org_id, dimension) VALUES ($1, 3)`, [b.orgId]);
    } finally {
      await db.end();
    }
    await seeder.close();
    // the first batch is answered, every later call fails: the run stops part way
    answerLimit = 64;
    textsSent = 0;
    s = await startTestServer({
      dbUrl,
      env: { EMBEDDINGS_PROVIDER: 'openai', EMBEDDINGS_BASE_URL: fakeUrl, EMBEDDINGS_MODEL: 'fake-embed', EMBEDDINGS_TIMEOUT_MS: '400' },
    });
  }, 60_000);
  afterAll(() => s?.close());

  const state = async (orgId: string) => {
    const db = await sqlClient(dbUrl);
    try {
      const r = await db.query<{ model: string | null; dims: number | null; shadow: number; n: number }>(
        `SELECT embedding_model AS model, cardinality(embedding) AS dims, count(embedding_next)::int AS shadow, count(*)::int AS n
           FROM facts WHERE org_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
        [orgId],
      );
      const d = await db.query<{ dimension: number }>('SELECT dimension FROM fact_embedding_dimensions WHERE org_id = $1', [orgId]);
      return { facts: r.rows, dimension: d.rows[0]?.dimension ?? null };
    } finally {
      await db.end();
    }
  };

  it('keeps the old vectors while the new ones are incomplete, resumes after a failure, then swaps them in for the whole organization', async () => {
    // the boot run embeds org a's first batch of 64, then the endpoint fails
    await waitFor(() => textsSent >= 64).catch((err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(s.logs.filter((l) => /embed/.test(String(l.msg))))}`);
    });
    await waitFor(() => !s.app.reembedder.progress.running);
    const midway = await state(a.orgId);
    expect(midway.dimension).toBe(3);
    expect(midway.facts.find((f) => f.model === OLD)).toMatchObject({ dims: 3, n: 100 });
    const shadowed = midway.facts.reduce((sum, f) => sum + f.shadow, 0);
    expect(shadowed).toBe(64);
    // recall still ranks with the old 3-number vectors
    const r = await gqlOk<{ recall: { fact: { text: string } }[] }, unknown>(
      s.url,
      'query($input: RecallInput!) { recall(input: $input) { fact { text } } }',
      { input: { bankId: 'b', query: 'x', queryEmbedding: [1, 100, 0], limit: 1 } },
      a.token,
    );
    expect(r.recall).toHaveLength(1);
    const STATUS = '{ embeddingStatus { provider model dimension pendingVectors } }';
    expect((await gqlOk<{ embeddingStatus: unknown }, unknown>(s.url, STATUS, {}, a.token)).embeddingStatus).toEqual({
      provider: 'openai',
      model: NEW,
      dimension: DIM,
      pendingVectors: 102,
    });

    answerLimit = Infinity;
    const sentBefore = textsSent;
    expect(await s.app.reembedder.run()).toBe(true);
    // resumed: only what had no shadow vector yet was sent (100 + 5 facts, 1 context, 1 episode, minus the first batch)
    expect(textsSent - sentBefore).toBe(107 - shadowed);
    const done = await state(a.orgId);
    expect(done.dimension).toBe(DIM);
    expect(done.facts).toEqual([{ model: NEW, dims: DIM, shadow: 0, n: 105 }]);
    const db = await sqlClient(dbUrl);
    try {
      const other = await db.query(
        `SELECT (SELECT embedding_model FROM fact_query_contexts WHERE org_id = $1) AS context, (SELECT embedding_model FROM episodes WHERE org_id = $1) AS episode`,
        [a.orgId],
      );
      expect(other.rows[0]).toEqual({ context: NEW, episode: NEW });
    } finally {
      await db.end();
    }
    // what is left is org b's fact, which is not re-embedded
    expect(s.app.reembedder.progress.remaining).toEqual({ facts: 1, fact_query_contexts: 0, episodes: 0 });
    const metrics = await (await fetch(s.url.replace('/graphql', '/metrics'))).text();
    expect(metrics).toContain('embeddings_reembed_remaining{table="facts"} 1');
    // each organization sees its own count only, over HTTP and WebSocket
    expect(
      (await gqlOk<{ embeddingStatus: { pendingVectors: number } }, unknown>(s.url, STATUS, {}, a.token)).embeddingStatus.pendingVectors,
    ).toBe(0);
    const ws = wsClient(s.wsUrl, b.token);
    try {
      expect(
        (await wsOnce<{ embeddingStatus: { pendingVectors: number } }, unknown>(ws, STATUS, {})).data?.embeddingStatus.pendingVectors,
      ).toBe(1);
    } finally {
      await ws.dispose();
    }
  });

  it('leaves an organization whose client vectors have another dimension as it was', async () => {
    const after = await state(b.orgId);
    expect(after.dimension).toBe(3);
    expect(after.facts.map((f) => [f.model, f.dims, f.shadow, f.n])).toEqual([
      ['client', 3, 0, 1],
      [OLD, 3, 0, 1],
    ]);
  });
});
