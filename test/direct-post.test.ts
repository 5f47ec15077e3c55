import { request } from 'node:http';
import { buildSchema, specifiedRules } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentCache } from '../src/http/direct-post';
import { startTestServer, type TestServer } from './helpers/server';

// A plain POST of one query or mutation is answered by the server's own stages, without Apollo
// Server's HTTP layer (GRAPHQL_DIRECT_POST). Two servers over the same database, the direct path
// on and off, get the same requests and must give the same answers: status, every header in its
// order and spelling, and the body byte for byte (the date, and a request id the server made up
// or a retry time counted in milliseconds, left out), and the same request log line.
let direct: TestServer;
let apollo: TestServer;
let token: string;
let agent: string;
let viewer: string;

// tight budgets for two roles: AGENT keys 2 requests per 2 s window, VIEWER keys 20 points per window
const env = { BUDGET_WINDOW_SECONDS: '2', BUDGET_AGENT: '1,1000000,100', BUDGET_VIEWER: '1000,10,100' };

beforeAll(async () => {
  direct = await startTestServer({ env });
  apollo = await startTestServer({ env: { ...env, GRAPHQL_DIRECT_POST: 'false' }, dbUrl: direct.dbUrl });
  const org = await direct.createOrg('direct-post');
  token = org.token;
  agent = (await direct.createKey(org.orgId, 'AGENT')).token;
  viewer = (await direct.createKey(org.orgId, 'VIEWER')).token;
}, 120_000);
afterAll(async () => {
  await direct?.close();
  await apollo?.close();
});

interface Sent {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Answer {
  status: number;
  /** raw header lines in order, what differs by design masked */
  headers: string[];
  body: string;
}

function send(s: TestServer, sent: Sent): Promise<Answer> {
  const url = new URL(s.url);
  const body = sent.body === undefined ? undefined : Buffer.from(sent.body, 'utf8');
  const headers = { ...(body ? { 'content-length': String(body.length) } : {}), ...sent.headers };
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: sent.path ?? url.pathname, method: sent.method ?? 'POST', headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(masked(res.statusCode!, res.rawHeaders, Buffer.concat(chunks).toString('utf8'))));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function masked(status: number, raw: string[], body: string): Answer {
  const headers: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (name === 'date') continue;
    let value = raw[i + 1];
    if (name === 'x-request-id' && !value.startsWith('req-')) value = '-';
    if (name === 'content-length') value = '-'; // the masked body below is compared instead
    if (name === 'retry-after') value = /^[12]$/.test(value) ? '-' : value; // whole seconds left of a 2 s window
    headers.push(`${raw[i]}: ${value}`);
  }
  const text = body.replace(/"requestId":"[0-9a-f-]{36}"/g, '"requestId":"-"').replace(/retry in \d+ ms/g, 'retry in - ms');
  return { status, headers, body: text.replace(/"retryAfterMs":\d+/g, '"retryAfterMs":-') };
}

let n = 0;
/** Sends `sent` to both servers (each with its own request id), expects the same answer and log line, and returns it. */
async function same(sent: Sent): Promise<Answer & { direct: boolean }> {
  n += 1;
  const id = (server: string) => ({ 'x-request-id': `req-direct-${n}-${server}` });
  const before = direct.app.server.directPosts();
  const a = await send(direct, { ...sent, headers: { ...id('a'), ...sent.headers } });
  const b = await send(apollo, { ...sent, headers: { ...id('b'), ...sent.headers } });
  const unify = (x: Answer, server: string) => ({
    ...x,
    headers: x.headers.map((h) => h.replace(`req-direct-${n}-${server}`, 'req')),
    body: x.body.replaceAll(`req-direct-${n}-${server}`, 'req'),
  });
  expect(unify(a, 'a'), JSON.stringify(sent)).toEqual(unify(b, 'b'));
  expect(apollo.app.server.directPosts()).toBe(0);
  await new Promise((r) => setTimeout(r, 20)); // the log line is written as the answer finishes
  const line = (s: TestServer, server: string) => {
    const l = s.logs.find((x) => x.requestId === `req-direct-${n}-${server}` && x.msg === 'request');
    return l && { ...l, requestId: 'req', ms: 0, time: 0, pid: 0 };
  };
  expect(line(direct, 'a'), JSON.stringify(sent)).toEqual(line(apollo, 'b'));
  return { ...unify(a, 'a'), direct: direct.app.server.directPosts() > before };
}

const gql = (body: unknown, headers: Record<string, string> = {}, key = token): Sent => ({
  body: typeof body === 'string' ? body : JSON.stringify(body),
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
});
const code = (a: Answer) => (JSON.parse(a.body) as { errors?: { extensions: { code: string } }[] }).errors?.[0]?.extensions.code;

describe('the direct path of a plain POST', () => {
  it('answers queries as Apollo Server does, the second time from its document cache', async () => {
    for (const query of ['{ viewer { orgName role } }', '{ __typename }', 'query Named { viewer { orgName } }']) {
      for (let i = 0; i < 3; i++) {
        const a = await same(gql({ query }));
        expect([a.status, a.direct], query).toEqual([200, true]);
      }
    }
    const intro = await same(gql({ query: '{ __schema { queryType { name } } }' }));
    expect([intro.status, intro.direct]).toEqual([200, true]);
  });

  it('negotiates the content type as Apollo Server does, taking only the common Accept values', async () => {
    const query = { query: '{ __typename }' };
    const taken = ['*/*', 'application/json', 'application/graphql-response+json', 'application/json, text/plain, */*'];
    for (const accept of taken) {
      const a = await same(gql(query, { accept }));
      expect([a.status, a.direct], accept).toEqual([200, true]);
    }
    for (const accept of ['text/html', 'application/json;q=0.5, application/graphql-response+json', 'application/xml, */*;q=0.1']) {
      const a = await same(gql(query, { accept }));
      expect(a.direct, accept).toBe(false);
    }
    expect((await same(gql(query, { accept: 'text/html' }))).status).toBe(406);
  });

  it('runs variables and operationName, and refuses variables it cannot coerce with 400', async () => {
    const doc = 'query A($id: ID!) { episode(id: $id) { id } } query B { viewer { orgName } }';
    const ok = await same(gql({ query: doc, operationName: 'A', variables: { id: '00000000-0000-4000-8000-000000000000' } }));
    expect([ok.status, ok.direct]).toEqual([200, true]);
    expect((await same(gql({ query: doc, operationName: 'B', variables: null }))).direct).toBe(true);
    for (const variables of [{}, { id: 5.5 }, { id: null }, { id: ['x'] }]) {
      const a = await same(gql({ query: doc, operationName: 'A', variables }));
      expect([a.status, code(a), a.direct], JSON.stringify(variables)).toEqual([400, 'BAD_USER_INPUT', true]);
    }
    // an operation the document does not have, or none named in a document of several: Apollo Server's words
    for (const operationName of ['C', undefined]) {
      const a = await same(gql({ query: doc, operationName }));
      expect([a.status, code(a), a.direct]).toEqual([400, 'OPERATION_RESOLUTION_FAILURE', false]);
    }
  });

  it('answers errors of execution, a mutation, and a subscription as Apollo Server does', async () => {
    const missing = await same(gql({ query: '{ episode(id: "not-a-uuid") { id } }' }));
    expect(missing.direct).toBe(true);
    const append = 'mutation { appendSegments(episodeId: "00000000-0000-4000-8000-000000000000", segments: []) { id } }';
    const m = await same(gql({ query: append }));
    expect([m.status, m.direct, code(m)]).toEqual([200, true, 'BAD_USER_INPUT']);
    const record = { query: 'mutation { recordEpisode(input: { agentId: "a", idempotencyKey: "direct-1" }) { id agentId } }' };
    const r = await same(gql(record));
    expect([r.status, r.direct]).toEqual([200, true]);
    const sub = await same(gql({ query: 'subscription { episodeAdded { id } }' }));
    expect([sub.status, code(sub), sub.direct]).toEqual([400, 'BAD_REQUEST', false]);
  });

  it('refuses documents that do not parse, are not valid or exceed the limits, alike', async () => {
    const deep = `${'{ viewer '.repeat(60)}${'}'.repeat(60)}`;
    const aliases = `{ ${'a: __typename '.repeat(200)} }`;
    for (const query of ['{ viewer { orgName }', '{ nope }', '{ viewer { nope } }', aliases, deep]) {
      const a = await same(gql({ query }));
      expect(a.status === 200 || !a.direct, query).toBe(true);
    }
    const costly = await same(
      gql({ query: `{ ${Array.from({ length: 40 }, (_, i) => `e${i}: episodes(first: 100) { edges { cursor } }`).join(' ')} }` }),
    );
    expect(costly.status).toBeGreaterThanOrEqual(400);
  });

  it('sends bodies Apollo Server refuses to it: no query, a list, wrong field types, extensions', async () => {
    const bodies = [
      '{}',
      '[]',
      '[{"query": "{ __typename }"}]',
      '{"query": ""}',
      '{"query": 5}',
      '{"query": "{ __typename }", "variables": "{}"}',
      '{"query": "{ __typename }", "variables": [1]}',
      '{"query": "{ __typename }", "operationName": 5}',
      '{"query": "{ __typename }", "extensions": {"persistedQuery": {"version": 1, "sha256Hash": "abc"}}}',
      '{"query": "{ __typename }", "extensions": "x"}',
      '{"operationName": "x"}',
    ];
    for (const body of bodies) {
      const a = await same(gql(body));
      expect([a.direct, code(a) !== undefined], body).toEqual([false, true]);
    }
  });

  it('answers bad JSON, another content type, and a missing or unknown key alike', async () => {
    for (const sent of [
      gql('{"query": '),
      gql('"text"'),
      gql({ query: '{ __typename }' }, { 'content-type': 'text/plain' }),
      gql({ query: '{ __typename }' }, { 'content-type': 'application/x-www-form-urlencoded' }),
      gql({ query: '{ __typename }' }, { authorization: '' }),
      gql({ query: '{ __typename }' }, { authorization: 'Bearer nope' }),
      gql({ query: '{ __typename }' }, { authorization: 'Basic abc' }),
    ]) {
      const a = await same(sent);
      expect([a.status >= 400, a.direct], JSON.stringify(sent)).toEqual([true, false]);
    }
  });

  it('answers GET, HEAD and OPTIONS through the other path, alike', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const path = `/graphql?query=${encodeURIComponent('{ __typename }')}`;
    for (const method of ['GET', 'HEAD', 'OPTIONS']) await same({ method, path, headers: { ...auth, 'apollo-require-preflight': 'true' } });
    await same({ method: 'GET', path, headers: auth });
  });

  it('refuses a key over its request rate at admission and over its points at charging with 429 and Retry-After', async () => {
    const query = { query: '{ __typename }' };
    const rate: string[] = [];
    for (let i = 0; i < 4; i++) {
      const a = await same(gql(query, {}, agent));
      rate.push(`${a.status} ${a.direct ? 'direct' : 'apollo'}`);
      if (a.status === 429) expect(a.headers).toContain('retry-after: -');
    }
    // refused at admission: answered by Apollo Server from the refusal
    expect(rate.slice(0, 3)).toEqual(['200 direct', '200 direct', '429 apollo']);
    const costly = { query: '{ episodes(first: 100) { edges { cursor } } }' };
    const points: string[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await same(gql(costly, {}, viewer));
      points.push(`${a.status} ${a.direct ? 'direct' : 'apollo'}`);
    }
    // refused when charged, after the document was checked: answered by the direct path
    expect(points).toContain('429 direct');
  });
});

describe('the document cache of the direct path', () => {
  const schema = buildSchema('type Query { a: Int, b: String }');
  it('keeps checked documents by their exact text, the least recently used dropped past its bound', () => {
    const cache = new DocumentCache(schema, specifiedRules, 30, 2);
    expect(cache.check('{ nope }')).toBeNull(); // not valid: not kept
    expect(cache.check('{ a')).toBeNull(); // does not parse: not kept
    const a = cache.check('{ a }')!;
    const b = cache.check('{ b }')!;
    expect(cache.get('{ a }')).toBe(a); // the same document object each time
    expect(cache.get('{ a }  ')).toBeUndefined(); // another text is another document
    cache.check('{ a b }'); // a third entry: '{ b }', least recently used, goes
    expect([cache.get('{ a }'), cache.get('{ b }')]).toEqual([a, undefined]);
    cache.check(`{ ${'a '.repeat(20)}}`); // over the text bound: the older ones go
    expect([cache.get('{ a }'), cache.get('{ a b }')]).toEqual([undefined, undefined]);
    expect(b.document.definitions).toHaveLength(1);
  });
});
