import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, gql, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let org: { orgId: string; token: string };
const BODY_TIMEOUT_MS = 600;

beforeAll(async () => {
  s = await startTestServer({ env: { NODE_ENV: 'production', BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS) } });
  org = await s.createOrg('hardening');
});
afterAll(() => s?.close());

const levelOf = (requestId: string) => s.logs.find((l) => l.requestId === requestId && l.msg === 'request')?.level;
const errorLines = () => s.logs.filter((l) => l.level === 'error' || l.level === 'fatal');

/** A request written by hand on its own connection: its head, then as much of its body as the test sends. */
function rawRequest(head: Record<string, string>, bodyPart: string) {
  const socket: Socket = connect(s.app.server.port, '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (text += d));
  socket.on('error', () => {}); // a reset after the answer is what some tests expect
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(text)));
  const lines = Object.entries({ host: '127.0.0.1', ...head }).map(([k, v]) => `${k}: ${v}`);
  socket.write(`POST /graphql HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${bodyPart}`);
  return { socket, closed, answer: () => text };
}
const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
const jsonOf = (text: string) =>
  JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { errors: { message: string; extensions: { code: string } }[] };
const waitUntil = async (ok: () => boolean, ms = 5000) => {
  for (const end = Date.now() + ms; !ok() && Date.now() < end;) await new Promise((r) => setTimeout(r, 20));
};

describe('operations the document does not have, and subscriptions over HTTP', () => {
  it('answers an unknown operationName with 400 OPERATION_RESOLUTION_FAILURE, logged at info, over POST, GET and WebSocket', async () => {
    const post = await fetch(s.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${org.token}`, 'x-request-id': 'req-unknown-op-post' },
      body: JSON.stringify({ query: 'query A { viewer { orgId } }', operationName: 'B' }),
    });
    expect(post.status).toBe(400);
    const body = (await post.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0].extensions.code).toBe('OPERATION_RESOLUTION_FAILURE');
    expect(body.errors[0].message).toBe('Unknown operation named "B".');
    expect(levelOf('req-unknown-op-post')).toBe('info');

    const two = await gql(s.url, 'query A { viewer { orgId } } query B { viewer { role } }', {}, org.token);
    expect([two.status, codeOf(two)]).toEqual([400, 'OPERATION_RESOLUTION_FAILURE']);

    const get = await fetch(`${s.url}?query=${encodeURIComponent('query A { viewer { orgId } }')}&operationName=B`, {
      headers: { authorization: `Bearer ${org.token}`, 'apollo-require-preflight': 'true', 'x-request-id': 'req-unknown-op-get' },
    });
    expect(get.status).toBe(400);
    expect(codeOf((await get.json()) as { errors: [] })).toBe('OPERATION_RESOLUTION_FAILURE');
    expect(levelOf('req-unknown-op-get')).toBe('info');

    const client = wsClient(s.wsUrl, org.token);
    try {
      const r = await new Promise<unknown>((resolve) =>
        client.subscribe(
          { query: 'query A { viewer { orgId } }', operationName: 'B' },
          { next: resolve, error: resolve, complete: () => {} },
        ),
      );
      expect((r as { extensions: { code: string } }[])[0].extensions.code).toBe('OPERATION_RESOLUTION_FAILURE');
      expect((await wsOnce(client, '{ viewer { orgId } }')).data).toEqual({ viewer: { orgId: org.orgId } });
    } finally {
      await client.dispose();
    }
    expect(errorLines()).toEqual([]);
  });

  it('refuses a subscription over HTTP with a code and a message naming WebSocket, logged at info', async () => {
    const query = 'subscription { heartbeat(intervalSeconds: 5) }';
    const post = await gql(s.url, query, {}, org.token, { 'x-request-id': 'req-sub-post' });
    expect([post.status, codeOf(post)]).toEqual([400, 'BAD_REQUEST']);
    expect(post.errors?.[0].message).toMatch(/WebSocket/);
    expect(post.data).toBeUndefined();
    expect(levelOf('req-sub-post')).toBe('info');

    const get = await fetch(`${s.url}?query=${encodeURIComponent(query)}`, {
      headers: { authorization: `Bearer ${org.token}`, 'apollo-require-preflight': 'true', 'x-request-id': 'req-sub-get' },
    });
    expect(get.status).toBe(405);
    const body = (await get.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(body.errors[0].message).toMatch(/WebSocket/);
    expect(levelOf('req-sub-get')).toBe('info');
    expect(errorLines()).toEqual([]);
  });

  it('does not serve automatic persisted queries: a hash is PERSISTED_QUERY_NOT_SUPPORTED', async () => {
    const r = await fetch(s.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${org.token}` },
      body: JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } }),
    });
    // the status is Apollo Server's (200, as the persisted-query protocol has it); the code is what clients read
    expect(codeOf((await r.json()) as { errors: [] })).toBe('PERSISTED_QUERY_NOT_SUPPORTED');
  });
});

describe('the caller is known before the body is read', () => {
  const bigHead = (token?: string) => ({
    'content-type': 'application/json',
    'content-length': '999999',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  });

  it.each([
    ['no token', undefined, 'an API key is required'],
    ['an unknown token', 'ml_unknown-token-of-nobody', 'the API key is unknown'],
  ])('answers %s with 401 and closes the connection while the body is still coming', async (_name, token, reason) => {
    const r = rawRequest(bigHead(token), '{"query": "');
    const text = await r.closed;
    expect(statusOf(text)).toBe(401);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(jsonOf(text).errors[0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
    expect(jsonOf(text).errors[0].message).toContain(reason);
  });

  it('answers a revoked token with 401 before the body, on the chunked path too', async () => {
    const key = await s.createKey(org.orgId, 'AGENT');
    await s.app.db.orm.em.fork().execute(`UPDATE api_keys SET revoked_at = now() WHERE id = '${key.id}'`);
    const r = rawRequest(
      { 'content-type': 'application/json', 'transfer-encoding': 'chunked', authorization: `Bearer ${key.token}` },
      '5\r\n{"que\r\n',
    );
    const text = await r.closed;
    expect(statusOf(text)).toBe(401);
    expect(jsonOf(text).errors[0].message).toContain('the API key is revoked');
  });

  it('still serves the unauthenticated endpoints', async () => {
    expect((await fetch(s.url.replace('/graphql', '/healthz'))).status).toBe(200);
  });
});

describe('a body must arrive within BODY_TIMEOUT_MS', () => {
  it.each([
    ['with its length', { 'content-length': '5000' }, '{"query": "'],
    ['in chunks', { 'transfer-encoding': 'chunked' }, 'b\r\n{"query": "\r\n'],
  ])('answers a body sent %s that stops coming with 408 REQUEST_TIMEOUT and closes the connection', async (_name, head, part) => {
    const started = Date.now();
    const r = rawRequest({ 'content-type': 'application/json', authorization: `Bearer ${org.token}`, ...head }, part);
    const text = await r.closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50);
    expect(statusOf(text)).toBe(408);
    expect(jsonOf(text).errors[0].extensions.code).toBe('REQUEST_TIMEOUT');
    expect(jsonOf(text).errors[0].message).toContain('BODY_TIMEOUT_MS');
    expect(errorLines()).toEqual([]);
  });
});

describe('a client that goes away mid-body', () => {
  it.each([
    ['with its length', { 'content-length': '5000' }, '{"query": "', 'req-abort-length'],
    ['in chunks', { 'transfer-encoding': 'chunked' }, 'b\r\n{"query": "\r\n', 'req-abort-chunked'],
  ])('sent %s is logged at info, not as a server fault', async (_name, head, part, requestId) => {
    const r = rawRequest(
      { 'content-type': 'application/json', authorization: `Bearer ${org.token}`, 'x-request-id': requestId, ...head },
      part,
    );
    await new Promise((resolve) => setTimeout(resolve, 200)); // authenticated, reading the body
    r.socket.resetAndDestroy();
    await r.closed;
    await waitUntil(() => s.logs.some((l) => l.requestId === requestId));
    const lines = s.logs.filter((l) => l.requestId === requestId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'client went away' });
    expect(errorLines()).toEqual([]);
  });
});
