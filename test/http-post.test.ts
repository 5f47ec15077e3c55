import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';

// A POST to /graphql whose JSON body comes with its length is served without Express's router and
// body parser; every other request (a chunked body, another content type or encoding, a body over
// the limit) goes through them. Both must answer alike: the same status, headers and body.
let s: TestServer;
let token: string;

beforeAll(async () => {
  s = await startTestServer();
  token = (await s.createOrg('http-post')).token;
});
afterAll(async () => {
  await s?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One POST over a raw connection: with a Content-Length, or chunked (no length known in advance). */
function post(body: Buffer | string, headers: Record<string, string>, chunked: boolean): Promise<Answer> {
  const url = new URL(s.url);
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: chunked ? headers : { ...headers, 'content-length': String(bytes.length) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (chunked) {
      // two writes: the body arrives in more than one piece
      req.write(bytes.subarray(0, bytes.length >> 1));
      req.write(bytes.subarray(bytes.length >> 1));
    } else req.write(bytes);
    req.end();
  });
}

/** The answer with what differs by design (the date, a request id the server made up) left out. */
function comparable(a: Answer) {
  const { date: _date, ...headers } = a.headers;
  const given = headers['x-request-id'];
  const kept: Answer['headers'] = { ...headers, 'x-request-id': typeof given === 'string' && given.startsWith('req-') ? given : '-' };
  return {
    status: a.status,
    headers: kept,
    body: a.body.replace(/"requestId":"[0-9a-f-]{36}"/g, '"requestId":"-"'),
  };
}

/** Sends `body` with its length and chunked, expects the same answer both ways and returns it. */
async function bothWays(body: Buffer | string, headers: Record<string, string> = {}) {
  const all = { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers };
  const plain = s.app.server.plainPosts();
  const withLength = comparable(await post(body, all, false));
  const plainAfter = s.app.server.plainPosts();
  const chunked = comparable(await post(body, all, true));
  // the chunked form always goes through Express
  expect(s.app.server.plainPosts()).toBe(plainAfter);
  expect(withLength).toEqual(chunked);
  return { ...withLength, plain: plainAfter > plain };
}

const parsed = (a: { body: string }) =>
  JSON.parse(a.body) as { data?: unknown; errors?: { message: string; extensions: { code: string } }[] };

describe('POST /graphql', () => {
  it('answers a query the same with a Content-Length and chunked, headers included', async () => {
    const a = await bothWays(JSON.stringify({ query: '{ viewer { orgName role } }' }), { 'x-request-id': 'req-http-post-1' });
    expect(a.status).toBe(200);
    expect(parsed(a)).toEqual({ data: { viewer: { orgName: 'http-post', role: 'ADMIN' } } });
    expect(a.headers['x-request-id']).toBe('req-http-post-1');
    expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(a.body));
    expect(a.plain).toBe(true);
  });

  it('takes charset=utf-8, any case of the media type, a byte order mark and multi-byte text', async () => {
    const query = JSON.stringify({ query: '{ viewer { orgName } } # résumé ✓ 日本' });
    const plain = await bothWays(query);
    expect(parsed(plain).data).toEqual({ viewer: { orgName: 'http-post' } });
    expect(plain.plain).toBe(true);
    expect(await bothWays(query, { 'content-type': 'Application/JSON; Charset="UTF-8"' })).toEqual(plain);
    expect(await bothWays(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(query)]))).toEqual(plain);
    // another charset, or a compressed body, is Express's to read (or refuse)
    const latin1 = await bothWays(query, { 'content-type': 'application/json; charset=latin1' });
    expect([latin1.status, latin1.plain]).toEqual([415, false]);
  });

  it('refuses malformed JSON and JSON that is not an object or a list with 400 BAD_REQUEST and the parser message', async () => {
    for (const body of ['{"query": ', '"a string"', '  123', 'null', '{"query": "{ viewer { orgName } }"} trailing']) {
      const a = await bothWays(body);
      expect(a.status, body).toBe(400);
      const e = parsed(a).errors![0];
      expect(e.extensions.code, body).toBe('BAD_REQUEST');
      expect(e.message, body).toMatch(/JSON/);
      expect(a.plain, body).toBe(true);
    }
  });

  it('answers an empty body, an empty object and a list (batching is off) as GraphQL requests without a query', async () => {
    for (const body of ['', '{}', '[]', '[{"query": "{ viewer { orgName } }"}]']) {
      const a = await bothWays(body);
      expect(a.status, body).toBe(400);
      expect(parsed(a).errors![0].extensions.code, body).toBe('BAD_REQUEST');
    }
  });

  it('refuses a caller without a key, and a body of another content type, alike both ways', async () => {
    const query = JSON.stringify({ query: '{ viewer { orgName } }' });
    const anonymous = await bothWays(query, { authorization: '' });
    expect(anonymous.status).toBe(401);
    expect(parsed(anonymous).errors![0].extensions.code).toBe('UNAUTHENTICATED');
    // a simple request a browser could send across sites is refused before it runs
    const text = await bothWays(query, { 'content-type': 'text/plain' });
    expect([text.status, text.plain]).toEqual([400, false]);
  });
});
