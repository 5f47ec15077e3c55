import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordEpisodeDocument } from './generated/graphql';
import { gqlOk } from './helpers/client';
import { sqlClient } from './helpers/db';
import { exportSpans, fixture, newTraceId, readableSpans } from './helpers/otlp';
import { startTestServer, type TestServer } from './helpers/server';

// Episodes made from OTLP traces get the server's vectors of their title and task, as episodes
// recorded through GraphQL do, from an OpenAI-compatible endpoint of the suite's own on loopback.
const DIM = 8;
const fakeVector = (text: string) => Array.from({ length: DIM }, (_, d) => ((text.charCodeAt(d % text.length) * (d + 3)) % 17) + 1);

let fake: Server;
let hang = false;
const inputs: string[][] = [];
let s: TestServer;
let base: string;
let org: { orgId: string; token: string };
let agent: string;
let db: pg.Client;

beforeAll(async () => {
  fake = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { input: string[] };
      inputs.push(body.input);
      if (hang) return; // never answers: the server's timeout decides
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({ object: 'list', data: body.input.map((t, index) => ({ object: 'embedding', index, embedding: fakeVector(t) })) }),
      );
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  s = await startTestServer({
    env: {
      EMBEDDINGS_PROVIDER: 'openai',
      EMBEDDINGS_BASE_URL: `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`,
      EMBEDDINGS_MODEL: 'fake-embed',
      EMBEDDINGS_API_KEY: 'sk-test',
      EMBEDDINGS_TIMEOUT_MS: '5000',
    },
  });
  base = s.url.replace(/\/graphql$/, '');
  org = await s.createOrg('otlp-embeddings');
  agent = (await s.createKey(org.orgId, 'AGENT')).token;
  db = await sqlClient(s.dbUrl);
});
afterAll(async () => {
  await db?.end();
  await s?.close();
  fake.closeAllConnections();
  await new Promise<void>((r) => fake.close(() => r()));
});

interface Stored {
  id: string;
  title: string | null;
  task: string | null;
  embedding: number[] | null;
  embedding_model: string | null;
}
const storedOf = async (traceId: string): Promise<Stored[]> =>
  (
    await db.query<Stored>(
      `SELECT id, title, task, embedding, embedding_model FROM episodes WHERE org_id = $1 AND $2 = ANY(execution_ids) ORDER BY created_at`,
      [org.orgId, traceId],
    )
  ).rows;

/** The trace's episodes once `ready` holds for the first (the vector is made after the answer), or as they are after 5 s. */
async function eventually(traceId: string, ready: (e: Stored) => boolean): Promise<Stored[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const rows = await storedOf(traceId);
    if ((rows[0] && ready(rows[0])) || Date.now() > deadline) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The vector recordEpisode stores for this title and task. */
async function recordedVector(title: string, task: string | null): Promise<number[]> {
  const { recordEpisode } = await gqlOk(s.url, RecordEpisodeDocument, { input: { agentId: 'reference', title, task } }, org.token);
  const { rows } = await db.query<{ embedding: number[] }>(`SELECT embedding FROM episodes WHERE id = $1`, [recordEpisode.id]);
  return rows[0].embedding;
}

describe('OTLP episodes and embeddings', () => {
  it('embed an episode by its title and task as recordEpisode does, and again when a later export changes them', async () => {
    const traceId = newTraceId();
    const spans = readableSpans(fixture('genai-current'), traceId);
    // the agent span alone: the episode has its title, no task yet
    expect((await exportSpans(base, agent, spans.slice(0, 1))).code).toBe(0);
    const [first] = await eventually(traceId, (e) => e.embedding !== null);
    expect([first.title, first.task]).toEqual(['invoke_agent Weather Agent', null]);
    expect(first.embedding_model).toBe('openai:fake-embed');
    expect(first.embedding).toEqual(await recordedVector('invoke_agent Weather Agent', null));
    // the rest: the user's question becomes the task, and the vector follows it
    expect((await exportSpans(base, agent, spans.slice(1))).code).toBe(0);
    const [second] = await eventually(traceId, (e) => e.task !== null && e.embedding !== null);
    expect(second.id).toBe(first.id);
    expect(second.task).toBe('Weather in Paris?');
    expect(second.embedding).toEqual(await recordedVector('invoke_agent Weather Agent', 'Weather in Paris?'));
    // an export that changes neither asks the model nothing
    const asked = inputs.length;
    expect((await exportSpans(base, agent, spans)).code).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(inputs.length).toBe(asked);
    expect((await storedOf(traceId))[0].embedding).toEqual(second.embedding);
  });

  it('answers 200 without waiting for a model that does not answer; the episode then has no vector', async () => {
    hang = true;
    try {
      const traceId = newTraceId();
      const asked = inputs.length;
      const started = Date.now();
      // a title of its own: a text embedded before would come from the server's cache
      const f = fixture('genai-current');
      const spans = f.spans.map((x) => (x.parentSpanId === null ? { ...x, name: `invoke_agent ${traceId}` } : x));
      expect((await exportSpans(base, agent, readableSpans({ ...f, spans }, traceId))).code).toBe(0);
      // the answer does not wait for the model (its timeout is 5 s)
      expect(Date.now() - started).toBeLessThan(2500);
      const [ep] = await storedOf(traceId);
      expect(ep.task).toBe('Weather in Paris?');
      expect([ep.embedding, ep.embedding_model]).toEqual([null, null]);
      // the model was asked (and has not answered)
      for (let i = 0; i < 40 && inputs.length === asked; i++) await new Promise((r) => setTimeout(r, 50));
      expect(inputs.length).toBeGreaterThan(asked);
    } finally {
      hang = false;
    }
  });
});
