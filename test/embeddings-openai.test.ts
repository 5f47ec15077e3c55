import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createEmbedder } from '../src/modules/embeddings';
import { codeOf, fieldOf, gql, wsClient, wsOnce } from './helpers/client';
import { sqlClient } from './helpers/db';
import { startTestServer, type TestServer } from './helpers/server';

// The openai provider against an OpenAI-compatible endpoint of the suite's own on loopback: what
// it sends, how it batches, retries and times out, what it refuses, and that the key never leaks.
const KEY = 'sk-test-3f9a1c7e5b2d4086a1e9c3b7d5f20418';
const DIM = 8;

/** A deterministic vector per text (not normalised: the server normalises). */
const fakeVector = (text: string) => Array.from({ length: DIM }, (_, d) => ((text.charCodeAt(d % text.length) * (d + 3)) % 17) + 1);

interface Seen {
  body: { model: string; input: string[]; dimensions?: number; encoding_format?: string };
  authorization: string | undefined;
}

/** What the fake endpoint does with the next requests: answer, fail, hang or answer garbage. */
type Behaviour = (req: Seen, res: ServerResponse) => void;
const answer: Behaviour = (req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(
    JSON.stringify({ object: 'list', data: req.body.input.map((t, index) => ({ object: 'embedding', index, embedding: fakeVector(t) })) }),
  );
};

let fake: Server;
let fakeUrl: string;
const seen: Seen[] = [];
let script: Behaviour[] = [];

beforeAll(async () => {
  fake = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      if (req.url !== '/v1/embeddings' || req.method !== 'POST') return void res.writeHead(404).end();
      const s: Seen = { body: JSON.parse(raw) as Seen['body'], authorization: req.headers.authorization };
      seen.push(s);
      (script.shift() ?? answer)(s, res);
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => (fake.closeAllConnections(), fake.close(() => r()))));
beforeEach(() => {
  seen.length = 0;
  script = [];
});

const settings = (extra: Record<string, string> = {}) =>
  loadConfig({
    EMBEDDINGS_PROVIDER: 'openai',
    EMBEDDINGS_BASE_URL: fakeUrl,
    EMBEDDINGS_MODEL: 'fake-embed',
    EMBEDDINGS_API_KEY: KEY,
    EMBEDDINGS_BATCH_SIZE: '4',
    EMBEDDINGS_TIMEOUT_MS: '2000',
    ...extra,
  }).embeddings;
const quiet = pino({ level: 'silent' });

describe('the openai provider', () => {
  it('sends batches of EMBEDDINGS_BATCH_SIZE with the model, float encoding and the key, no dimensions unless set; vectors come back normalised in order', async () => {
    const e = createEmbedder(settings(), quiet);
    const texts = Array.from({ length: 10 }, (_, i) => `text number ${i}`);
    const vectors = await e.embed('org-a', texts, 'document');
    expect(seen.map((r) => r.body.input.length).sort()).toEqual([2, 4, 4]);
    for (const r of seen) {
      expect(r.body).toEqual({ model: 'fake-embed', input: expect.any(Array), encoding_format: 'float' });
      expect(r.authorization).toBe(`Bearer ${KEY}`);
    }
    expect(vectors).toHaveLength(10);
    vectors.forEach((v, i) => {
      const raw = fakeVector(texts[i]);
      const norm = Math.hypot(...raw);
      raw.forEach((x, d) => expect(v[d]).toBeCloseTo(x / norm, 12));
    });
    expect(e.dimension()).toBe(DIM);
    expect(e.modelId).toBe('openai:fake-embed');

    const withDims = createEmbedder(settings({ EMBEDDINGS_DIMENSIONS: String(DIM) }), quiet);
    seen.length = 0;
    await withDims.embed('org-a', ['one'], 'query');
    expect(seen[0].body.dimensions).toBe(DIM);
    expect(withDims.modelId).toBe(`openai:fake-embed@${DIM}`);
  });

  it('retries a 500 and a 429, then succeeds', async () => {
    const e = createEmbedder(settings(), quiet);
    script = [(_r, res) => res.writeHead(500).end('overloaded'), (_r, res) => res.writeHead(429).end('slow down'), answer];
    const [v] = await e.embed('org-a', ['retry me'], 'document');
    expect(v).toHaveLength(DIM);
    expect(seen).toHaveLength(3);
  });

  it('refuses garbage answers with EMBEDDINGS_UNAVAILABLE: wrong count, non-numbers, mixed dimensions, not JSON', async () => {
    const garbage: Behaviour[] = [
      (_r, res) => res.end(JSON.stringify({ data: [] })),
      (r, res) => res.end(JSON.stringify({ data: r.body.input.map((_t, index) => ({ index, embedding: ['x', 1] })) })),
      (r, res) =>
        res.end(JSON.stringify({ data: r.body.input.map((_t, index) => ({ index, embedding: new Array<number>(index + 2).fill(1) })) })),
      (_r, res) => res.end('<html>'),
    ];
    for (const g of garbage) {
      const e = createEmbedder(settings(), quiet);
      script = [g];
      await expect(e.embed('org-a', ['a', 'b'], 'document')).rejects.toMatchObject({ code: 'EMBEDDINGS_UNAVAILABLE' });
    }
  });

  it('refuses a call with EMBEDDINGS_UNAVAILABLE when EMBEDDINGS_QUEUE texts are already being embedded', async () => {
    const e = createEmbedder(settings({ EMBEDDINGS_QUEUE: '3', EMBEDDINGS_TIMEOUT_MS: '800' }), quiet);
    script = [() => {}];
    const first = e.embed('org-a', ['one', 'two'], 'document');
    await expect(e.embed('org-a', ['three', 'four'], 'document')).rejects.toMatchObject({
      code: 'EMBEDDINGS_UNAVAILABLE',
      message: expect.stringMatching(/queue is full/),
    });
    await expect(first).rejects.toMatchObject({ code: 'EMBEDDINGS_UNAVAILABLE', message: expect.stringMatching(/800 ms/) });
    // the line is free again
    expect(await e.embed('org-a', ['three', 'four'], 'document')).toHaveLength(2);
    fake.closeAllConnections();
  });

  it('keeps a cache entry per organization: the same text is sent again for another organization, not for the same one', async () => {
    const e = createEmbedder(settings(), quiet);
    await e.embed('org-a', ['shared text'], 'document');
    await e.embed('org-a', ['shared text'], 'document');
    expect(seen).toHaveLength(1);
    await e.embed('org-b', ['shared text'], 'document');
    expect(seen).toHaveLength(2);
    await e.embed('org-a', ['shared text'], 'query');
    expect(seen).toHaveLength(3);
  });
});

describe('writes with the openai provider', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      env: {
        EMBEDDINGS_PROVIDER: 'openai',
        EMBEDDINGS_BASE_URL: fakeUrl,
        EMBEDDINGS_MODEL: 'fake-embed',
        EMBEDDINGS_API_KEY: KEY,
        EMBEDDINGS_TIMEOUT_MS: '1500',
      },
    });
  });
  afterAll(() => s?.close());

  const UPSERT = 'mutation($inputs: [FactInput!]!) { upsertFacts(inputs: $inputs) { id text } }';
  const stored = async (orgId: string) => {
    const db = await sqlClient(s.dbUrl);
    try {
      const r = await db.query<{ text: string; embedding: number[] | null; embedding_model: string | null }>(
        'SELECT text, embedding, embedding_model FROM facts WHERE org_id = $1 ORDER BY text',
        [orgId],
      );
      return r.rows;
    } finally {
      await db.end();
    }
  };

  it('stores the endpoint vector and its model with a fact written without one, over HTTP and WebSocket', async () => {
    const org = await s.createOrg('openai-writes');
    const r = await gql(s.url, UPSERT, { inputs: [{ bankId: 'b', text: 'the invoice is due on Friday' }] }, org.token);
    expect(r.errors).toBeUndefined();
    const ws = wsClient(s.wsUrl, org.token);
    try {
      const w = await wsOnce(ws, UPSERT, { inputs: [{ bankId: 'b', text: 'the parcel left the warehouse' }] });
      expect(w.errors).toBeUndefined();
    } finally {
      await ws.dispose();
    }
    const rows = await stored(org.orgId);
    expect(rows.map((x) => x.embedding_model)).toEqual(['openai:fake-embed', 'openai:fake-embed']);
    for (const x of rows) expect(Math.hypot(...x.embedding!)).toBeCloseTo(1, 12);
  });

  it('refuses the write with EMBEDDINGS_UNAVAILABLE when the endpoint hangs past EMBEDDINGS_TIMEOUT_MS, over HTTP and WebSocket, and stores nothing', async () => {
    const org = await s.createOrg('openai-timeout');
    const hang: Behaviour = () => {};
    script = [hang, hang, hang, hang];
    const started = performance.now();
    const r = await gql(s.url, UPSERT, { inputs: [{ bankId: 'b', text: 'never embedded' }] }, org.token);
    const took = performance.now() - started;
    expect(codeOf(r)).toBe('EMBEDDINGS_UNAVAILABLE');
    expect(r.errors![0].message).toMatch(/1500 ms/);
    // refused by the time budget, not by anything slower
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(10_000);
    script = [hang, hang, hang, hang];
    const ws = wsClient(s.wsUrl, org.token);
    try {
      const w = await wsOnce(ws, UPSERT, { inputs: [{ bankId: 'b', text: 'never embedded either' }] });
      expect(codeOf(w)).toBe('EMBEDDINGS_UNAVAILABLE');
    } finally {
      await ws.dispose();
    }
    expect(await stored(org.orgId)).toEqual([]);
    fake.closeAllConnections();
  });

  it('never shows the API key: not in the error of a refusing endpoint that echoes it, not in the logs, not on /metrics', async () => {
    const org = await s.createOrg('openai-key');
    const echo: Behaviour = (r, res) => res.writeHead(401).end(JSON.stringify({ error: `bad key ${r.authorization}` }));
    script = [echo];
    const r = await gql(s.url, UPSERT, { inputs: [{ bankId: 'b', text: 'a secret-free error' }] }, org.token);
    expect(codeOf(r)).toBe('EMBEDDINGS_UNAVAILABLE');
    expect(r.errors![0].message).toMatch(/HTTP 401/);
    expect(JSON.stringify(r)).not.toContain(KEY);
    expect(JSON.stringify(s.logs)).not.toContain(KEY);
    expect(s.logs.some((l) => l.msg === 'embedding failed')).toBe(true);
    const metrics = await (await fetch(`${s.url.replace('/graphql', '')}/metrics`)).text();
    expect(metrics).toContain('embeddings_failures_total{reason="endpoint"} 1');
    expect(metrics).not.toContain(KEY);
    expect(await stored(org.orgId)).toEqual([]);
  });

  it('refuses a client vector of another dimension than the server vectors of the organization, on the field', async () => {
    const org = await s.createOrg('openai-dims');
    expect((await gql(s.url, UPSERT, { inputs: [{ bankId: 'b', text: 'first' }] }, org.token)).errors).toBeUndefined();
    const r = await gql(s.url, UPSERT, { inputs: [{ bankId: 'b', text: 'second', embedding: [1, 2, 3] }] }, org.token);
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(fieldOf(r)).toBe('inputs.0.embedding');
    expect((await stored(org.orgId)).map((x) => x.text)).toEqual(['first']);
  });
});
