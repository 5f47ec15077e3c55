import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { embeddingMetrics, LOCAL_MODEL_ID } from '../src/modules/embeddings';
import { cosine } from '../src/modules/facts/usefulness';
import { codeOf, fieldOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { sqlClient } from './helpers/db';
import { startTestServer, type TestServer } from './helpers/server';

// The local provider (Universal Sentence Encoder lite in worker threads, loaded from the installed
// package: no network) and the writes that use it: facts, signal queries and episodes written
// without vectors get the server's, with the model recorded; client vectors still win.
let s: TestServer;
let reader: TestServer;
beforeAll(async () => {
  s = await startTestServer({ env: { EMBEDDINGS_PROVIDER: 'local', EMBEDDINGS_WORKERS: '1' } });
  // a second instance on the same database that makes no vectors of its own
  reader = await startTestServer({ dbUrl: s.dbUrl });
}, 120_000);
afterAll(async () => {
  await reader?.close();
  await s?.close();
});

const UPSERT = 'mutation($inputs: [FactInput!]!) { upsertFacts(inputs: $inputs) { id text } }';
const SIGNALS = 'mutation($signals: [SignalInput!]!) { submitSignals(signals: $signals) { id } }';
const RECORD = 'mutation($input: RecordEpisodeInput!) { recordEpisode(input: $input) { id } }';
const RECALL = 'query($input: RecallInput!) { recall(input: $input) { fact { id text } semanticScore } }';

async function query<T extends object>(text: string, params: unknown[]): Promise<T[]> {
  const db = await sqlClient(s.dbUrl);
  try {
    return (await db.query<T>(text, params)).rows;
  } finally {
    await db.end();
  }
}

describe('the local provider', () => {
  it('loads offline and puts "Who is the CEO?" and "Who is the chief executive?" at cosine >= 0.85', async () => {
    const e = s.app.embedder;
    expect(e.provider).toBe('local');
    expect(e.modelId).toBe(LOCAL_MODEL_ID);
    expect(e.dimension()).toBe(512);
    const [a, b, c] = await e.embed('org', ['Who is the CEO?', 'Who is the chief executive?', 'The parcel left the warehouse.'], 'query');
    expect(cosine(a, b)).toBeGreaterThanOrEqual(0.85);
    expect(cosine(a, c)).toBeLessThan(0.5);
    expect(Math.hypot(...a)).toBeCloseTo(1, 6);
  });

  it('runs one thread, model calls of at most 16 query texts and 4 document texts by default (each thread keeps a heap as large as its largest call)', async () => {
    const defaults = loadConfig({}).embeddings;
    expect([defaults.workers, defaults.localBatch, defaults.localWriteBatch]).toEqual([1, 16, 4]);
    expect(() => loadConfig({ EMBEDDINGS_LOCAL_BATCH: '0' })).toThrow(/EMBEDDINGS_LOCAL_BATCH/);
    expect(() => loadConfig({ EMBEDDINGS_LOCAL_WRITE_BATCH: '0' })).toThrow(/EMBEDDINGS_LOCAL_WRITE_BATCH/);
    const e = s.app.embedder;
    const batches = embeddingMetrics(e).batches;
    const count = async () => (await batches.get()).values[0]?.value ?? 0;
    const texts = (kind: string) =>
      Array.from({ length: 40 }, (_, i) => `batch probe ${kind} ${i}: the warehouse shipped parcel number ${i * 7}`);
    let before = await count();
    expect(await e.embed('org-batch', texts('query'), 'query')).toHaveLength(40);
    // 40 queries in one line leave in calls of 16, 16 and 8
    expect((await count()) - before).toBe(3);
    before = await count();
    expect(await e.embed('org-batch', texts('document'), 'document')).toHaveLength(40);
    // 40 documents leave in calls of 4: a query arriving meanwhile waits for one small call at most
    expect((await count()) - before).toBe(10);
  });

  it('gives the same vectors whatever the call a text is embedded in', async () => {
    const e = s.app.embedder;
    const texts = Array.from({ length: 9 }, (_, i) => `same vector probe ${i}: the ferry left the pier at ${i} o'clock`);
    const asDocuments = await e.embed('org-same-a', texts, 'document');
    const one = await e.embed('org-same-b', [texts[5]], 'document');
    expect(one[0]).toEqual(asDocuments[5]);
  });

  it("puts a recall's query ahead of the documents of a large write waiting for the model", async () => {
    const e = s.app.embedder;
    const order: string[] = [];
    const docs = Array.from({ length: 96 }, (_, i) => `priority probe ${i}: the harbour crane lifted container ${i * 13}`);
    const write = e.embed('org-priority', docs, 'document').then(() => order.push('write'));
    // the query arrives after the write's 96 texts are in line (6 model calls of 16)
    await new Promise((r) => setImmediate(r));
    const question = e.embed('org-priority', ['Which crane lifted the container?'], 'query').then(() => order.push('query'));
    await Promise.all([write, question]);
    expect(order).toEqual(['query', 'write']);
  });

  it('embeds a text longer than one piece (1000 characters) whole: one unit vector near its parts', async () => {
    const e = s.app.embedder;
    const first = 'The warehouse in Lyon ships parcels to customers in France every morning. '.repeat(14);
    const second = 'Our chief executive likes to play tennis on Sunday afternoons with friends. '.repeat(14);
    const [whole, a, b] = await e.embed('org', [first + second, first.trim(), second.trim()], 'document');
    expect(whole).toHaveLength(512);
    expect(Math.hypot(...whole)).toBeCloseTo(1, 6);
    expect(cosine(whole, a)).toBeGreaterThan(0.5);
    expect(cosine(whole, b)).toBeGreaterThan(0.5);
  });
});

describe('writes with the local provider', () => {
  it('gives facts written without vectors a 512-number unit vector and the model id, over HTTP and WebSocket; a client vector wins and is marked client', async () => {
    const org = await s.createOrg('local-facts');
    await gqlOk(s.url, UPSERT, { inputs: [{ bankId: 'b', text: 'Dana is the chief executive of Acme.' }] }, org.token);
    const ws = wsClient(s.wsUrl, org.token);
    try {
      const w = await wsOnce(ws, UPSERT, { inputs: [{ bankId: 'b', text: 'The office closes at six.' }] });
      expect(w.errors).toBeUndefined();
    } finally {
      await ws.dispose();
    }
    const client = Array.from({ length: 512 }, (_, i) => (i === 0 ? 1 : 0));
    await gqlOk(s.url, UPSERT, { inputs: [{ bankId: 'b', text: 'Zed has a client vector.', embedding: client }] }, org.token);
    const rows = await query<{ text: string; embedding: number[]; embedding_model: string }>(
      'SELECT text, embedding, embedding_model FROM facts WHERE org_id = $1 ORDER BY text',
      [org.orgId],
    );
    expect(rows.map((r) => [r.text, r.embedding.length, r.embedding_model])).toEqual([
      ['Dana is the chief executive of Acme.', 512, LOCAL_MODEL_ID],
      ['The office closes at six.', 512, LOCAL_MODEL_ID],
      ['Zed has a client vector.', 512, 'client'],
    ]);
    expect(Math.hypot(...rows[0].embedding)).toBeCloseTo(1, 9);
    expect(rows[2].embedding).toEqual(client);
  });

  it('refuses a client vector of another dimension than the server vectors on its field and stores nothing of the batch', async () => {
    const org = await s.createOrg('local-dims');
    await gqlOk(s.url, UPSERT, { inputs: [{ bankId: 'b', text: 'a server vector first' }] }, org.token);
    const r = await gql(
      s.url,
      UPSERT,
      {
        inputs: [
          { bankId: 'b', text: 'another server vector' },
          { bankId: 'b', text: 'bad', embedding: [1, 2, 3] },
        ],
      },
      org.token,
    );
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(fieldOf(r)).toBe('inputs.1.embedding');
    expect(await query('SELECT text FROM facts WHERE org_id = $1', [org.orgId])).toEqual([{ text: 'a server vector first' }]);
  });

  it('a fact acknowledged on one instance is found by meaning on another in the next request', async () => {
    const org = await s.createOrg('local-read-your-writes');
    await gqlOk(
      s.url,
      UPSERT,
      {
        inputs: [
          { bankId: 'ryw', text: 'Dana is the chief executive of Acme.' },
          { bankId: 'ryw', text: 'Lunch is served at noon.' },
        ],
      },
      org.token,
    );
    const [q] = await s.app.embedder.embed(org.orgId, ['Who is the CEO of Acme?'], 'query');
    const r = await gqlOk<{ recall: { fact: { text: string }; semanticScore: number }[] }, unknown>(
      reader.url,
      RECALL,
      { input: { bankId: 'ryw', query: 'Who is the CEO of Acme?', queryEmbedding: q, limit: 2 } },
      org.token,
    );
    expect(r.recall[0].fact.text).toBe('Dana is the chief executive of Acme.');
  });

  it('embeds signal queries, so "Who is the CEO?" and "Who is the chief executive?" share one query context', async () => {
    const org = await s.createOrg('local-signals');
    const data = await gqlOk<{ upsertFacts: { id: string }[] }, unknown>(
      s.url,
      UPSERT,
      { inputs: [{ bankId: 'b', text: 'Dana is the chief executive of Acme.' }] },
      org.token,
    );
    const factId = data.upsertFacts[0].id;
    await gqlOk(s.url, SIGNALS, { signals: [{ factId, signalType: 'HELPFUL', query: 'Who is the CEO?' }] }, org.token);
    const ws = wsClient(s.wsUrl, org.token);
    try {
      const w = await wsOnce(ws, SIGNALS, { signals: [{ factId, signalType: 'USED', query: 'Who is the chief executive?' }] });
      expect(w.errors).toBeUndefined();
    } finally {
      await ws.dispose();
    }
    const contexts = await query<{ query: string; embedding_model: string; n: number }>(
      'SELECT c.query, c.embedding_model, cardinality(c.query_embedding) AS n FROM fact_query_contexts c WHERE c.org_id = $1',
      [org.orgId],
    );
    expect(contexts).toEqual([{ query: 'Who is the CEO?', embedding_model: LOCAL_MODEL_ID, n: 512 }]);
  });

  it("embeds an episode's title and task when the client sent no vector", async () => {
    const org = await s.createOrg('local-episodes');
    await gqlOk(s.url, RECORD, { input: { agentId: 'a', title: 'Adding fractions', task: 'How do I add 1/2 and 1/3?' } }, org.token);
    await gqlOk(s.url, RECORD, { input: { agentId: 'a' } }, org.token);
    const rows = await query<{ title: string | null; n: number | null; embedding_model: string | null }>(
      'SELECT title, cardinality(embedding) AS n, embedding_model FROM episodes WHERE org_id = $1 ORDER BY title NULLS LAST',
      [org.orgId],
    );
    expect(rows).toEqual([
      { title: 'Adding fractions', n: 512, embedding_model: LOCAL_MODEL_ID },
      { title: null, n: null, embedding_model: null },
    ]);
  });

  it("shows embedding calls, texts, cache hits and the inference thread's memory on /metrics", async () => {
    for (let i = 0; i < 2; i++) await s.app.embedder.embed('org-metrics', ['asked twice'], 'query');
    const metrics = await (await fetch(s.url.replace('/graphql', '/metrics'))).text();
    expect(metrics).toMatch(/embeddings_calls_total\{provider="local",outcome="ok"\} [1-9]/);
    expect(metrics).toMatch(/embeddings_texts_total\{source="model"\} [1-9]/);
    expect(metrics).toMatch(/embeddings_texts_total\{source="cache"\} [1-9]/);
    expect(metrics).toContain('embeddings_queue_texts 0');
    // the inference thread's memory: its WebAssembly memory holds the weights (26 MB)
    const wasm = /embeddings_worker_memory_bytes\{worker="0",kind="wasm"\} (\d+)/.exec(metrics);
    expect(Number(wasm?.[1])).toBeGreaterThan(26 * 2 ** 20);
    expect(metrics).toMatch(/embeddings_worker_memory_bytes\{worker="0",kind="heap"\} [1-9]/);
  });
});
