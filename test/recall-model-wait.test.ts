import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

// A recall waiting for the embedding model gives up its running slot on the instance: on a server
// with two running slots (one organization runs one request at a time), an organization's recalls
// all reach the model together, and its other requests run while they wait. The model is an
// OpenAI-compatible endpoint of the suite's own that holds its answers until told.
const DIM = 8;
const fakeVector = (text: string) => Array.from({ length: DIM }, (_, d) => ((text.charCodeAt(d % text.length) * (d + 3)) % 17) + 1);

let fake: Server;
let fakeUrl: string;
let holding = false;
const held: { input: string[]; res: ServerResponse }[] = [];
const answer = (input: string[], res: ServerResponse) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ object: 'list', data: input.map((t, index) => ({ object: 'embedding', index, embedding: fakeVector(t) })) }));
};
const heldTexts = () => held.reduce((n, h) => n + h.input.length, 0);
const letGo = () => {
  holding = false;
  for (const h of held.splice(0)) answer(h.input, h.res);
};

let s: TestServer;
beforeAll(async () => {
  fake = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const { input } = JSON.parse(raw) as { input: string[] };
      if (holding) held.push({ input, res });
      else answer(input, res);
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
  s = await startTestServer({
    env: {
      RUNNING_SLOTS: '2',
      EMBEDDINGS_PROVIDER: 'openai',
      EMBEDDINGS_BASE_URL: fakeUrl,
      EMBEDDINGS_MODEL: 'fake-embed',
      EMBEDDINGS_TIMEOUT_MS: '20000',
    },
  });
});
afterAll(async () => {
  letGo();
  await s?.close();
  await new Promise<void>((r) => (fake.closeAllConnections(), fake.close(() => r())));
});

const UPSERT = 'mutation($inputs: [FactInput!]!) { upsertFacts(inputs: $inputs) { id } }';
const RECALL = `query($input: RecallInput!) { recall(input: $input) { fact { id text } semanticScore lexicalScore relevance finalScore strategyUsed } }`;
const until = async (what: () => boolean) => {
  for (let i = 0; i < 400 && !what(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(what()).toBe(true);
};
type Recalled = { recall: { fact: { id: string; text: string }; strategyUsed: string }[] };
const FACTS = ['the invoice is due on Friday', 'the parcel left the warehouse in Lyon', 'Maria planted tomatoes in the garden'];
const QUERIES = ['when is the invoice due?', 'where did the parcel leave from?', 'what did Maria plant?'];

describe('a recall waiting for the embedding model', () => {
  it('over HTTP: gives up its running slot, so the organization’s recalls reach the model together and its other requests run meanwhile', async () => {
    const org = await s.createOrg('model-wait-http');
    const recall = (input: Record<string, unknown>) =>
      gql<Recalled, unknown>(s.url, RECALL, { input: { bankId: 'b', limit: 3, ...input } }, org.token);
    expect((await gql(s.url, UPSERT, { inputs: FACTS.map((text) => ({ bankId: 'b', text })) }, org.token)).errors).toBeUndefined();
    expect((await recall({ query: 'warm up' })).errors).toBeUndefined();
    holding = true;
    const waiting = QUERIES.map((query) => recall({ query }));
    // all three wait for the model at once, none holding a slot
    await until(() => heldTexts() === 3);
    expect(s.app.server.budgets.running()).toEqual({ active: 0, waiting: 0 });
    // the organization's other requests run meanwhile
    const lexical = await recall({ query: 'invoice', strategy: 'LEXICAL' });
    expect(lexical.data?.recall[0]).toMatchObject({ fact: { text: FACTS[0] }, strategyUsed: 'LEXICAL' });
    letGo();
    const answers = await Promise.all(waiting);
    for (const a of answers) expect(a.errors).toBeUndefined();
    expect(answers.map((a) => a.data?.recall[0].strategyUsed)).toEqual(['HYBRID', 'HYBRID', 'HYBRID']);
    expect(answers.map((a) => a.data?.recall[0].fact.text)).toEqual(FACTS);
    // the same answers as each recall alone (the query vectors now come from the cache)
    for (const [i, query] of QUERIES.entries()) expect(await recall({ query })).toEqual(answers[i]);
    expect(s.app.server.budgets.running()).toEqual({ active: 0, waiting: 0 });
  });

  it('over WebSocket: the same, and another organization never sees its facts', async () => {
    const org = await s.createOrg('model-wait-ws');
    const other = await s.createOrg('model-wait-other');
    const ws = wsClient(s.wsUrl, org.token);
    const ows = wsClient(s.wsUrl, other.token);
    try {
      const recall = (input: Record<string, unknown>, client = ws) =>
        wsOnce(client, RECALL, { input: { bankId: 'b', limit: 3, ...input } });
      expect((await wsOnce(ws, UPSERT, { inputs: FACTS.map((text) => ({ bankId: 'b', text })) })).errors).toBeUndefined();
      expect((await recall({ query: 'warm up' })).errors).toBeUndefined();
      holding = true;
      const waiting = QUERIES.map((query) => recall({ query }));
      const theirs = recall({ query: 'what is due on Friday?' }, ows);
      await until(() => heldTexts() === 4);
      expect(s.app.server.budgets.running()).toEqual({ active: 0, waiting: 0 });
      const lexical = await recall({ query: 'invoice', strategy: 'LEXICAL' });
      expect((lexical.data as { recall: unknown[] }).recall[0]).toMatchObject({ fact: { text: FACTS[0] }, strategyUsed: 'LEXICAL' });
      letGo();
      const answers = (await Promise.all(waiting)) as { data?: { recall: { fact: { text: string }; strategyUsed: string }[] } }[];
      expect(answers.map((a) => a.data?.recall[0].strategyUsed)).toEqual(['HYBRID', 'HYBRID', 'HYBRID']);
      expect(answers.map((a) => a.data?.recall[0].fact.text)).toEqual(FACTS);
      expect(await theirs).toEqual({ data: { recall: [] } });
      expect(s.app.server.budgets.running()).toEqual({ active: 0, waiting: 0 });
    } finally {
      letGo();
      await Promise.all([ws.dispose(), ows.dispose()]);
    }
  });
});
