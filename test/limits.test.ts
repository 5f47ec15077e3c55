import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeartbeatDocument, ViewerDocument } from './generated/graphql';
import { codeOf, gql, gqlOk, wsClient, wsOnce, wsSubscribe } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let token: string;

beforeAll(async () => {
  s = await startTestServer();
  token = (await s.createOrg()).token;
});
afterAll(() => s?.close());

const deepQuery = (depth: number) => {
  // `viewer` nested through inline fragments would not add depth; nest real fields instead
  let body = 'orgId';
  for (let i = 1; i < depth; i++) body = `viewer { ${body} }`;
  return `{ ${body} }`;
};
const aliasQuery = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: viewer { orgId }`).join(' ')} }`;

async function stillServes() {
  expect((await gqlOk(s.url, ViewerDocument, {}, token)).viewer.role).toBe('ADMIN');
}

describe('query limits over HTTP', () => {
  it('refuses a depth-20 query', async () => {
    const r = await gql(s.url, deepQuery(20), {}, token);
    expect(r.status).toBe(400);
    expect(
      r.errors?.some((e) => /depth 20 exceeds the limit of 12/.test(e.message) && e.extensions?.code === 'GRAPHQL_VALIDATION_FAILED'),
    ).toBe(true);
    expect(r.data ?? null).toBeNull();
    await stillServes();
  });

  it('refuses a 100-alias query and accepts 30', async () => {
    const r = await gql(s.url, aliasQuery(100), {}, token);
    expect(r.status).toBe(400);
    expect(r.errors?.map((e) => e.message)).toContain('the document uses more than 30 aliases');
    const ok = await gql(s.url, aliasQuery(30), {}, token);
    expect(ok.errors).toBeUndefined();
    await stillServes();
  });

  it('refuses a 2 MB body with 413 PAYLOAD_TOO_LARGE', async () => {
    const padding = 'x'.repeat(2 * 1024 * 1024);
    const r = await gql(s.url, `{ viewer { orgId } } # ${padding}`, {}, token);
    expect(r.status).toBe(413);
    expect(codeOf(r)).toBe('PAYLOAD_TOO_LARGE');
    await stillServes();
  });

  it('reports a variable of the wrong type as BAD_USER_INPUT naming the variable', async () => {
    const r = await gql(s.url, 'mutation($r: Role!) { createApiKey(name: "x", role: $r) { token } }', { r: 'EMPEROR' }, token);
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(r.errors?.[0].extensions?.field).toBe('r');
    expect(r.errors?.[0].extensions?.requestId).toEqual(expect.any(String));
  });

  it('prices the same document by its variables each time (page size, sub-list limit, @include), refusing only what costs too much with HTTP 400', async () => {
    // an edge costs 2 (node, id) + 5 context lists x limit x 5 fields (a list without a limit
    // counts its default of 100); a page costs first x that; the second copy counts only when included
    const list = (name: string, fields: string, extra = '') => `${name}(limit: $n${extra}) { ${fields} }`;
    const page = `edges { node { id ${list('segments', 'id seq role content tokenEstimate')} ${list('canvasContext', 'id canvasType action createdAt canvasId')}
      ${list('feedbackContext', 'id feedbackType score createdAt rating')} ${list('outputs', 'id kind content difficulty qualityScore')}
      ${list('facts', 'id text kind status usefulness')} } }`;
    const query = `query Priced($first: Int, $n: Int, $twice: Boolean!) { a: episodes(first: $first) { ${page} } b: episodes(first: $first) @include(if: $twice) { ${page} } }`;
    const cases: [first: number, n: number | null, twice: boolean, cost: number][] = [
      [100, 10, false, 25_200],
      [100, 10, true, 50_400],
      [1, 10, true, 504],
      [20, null, false, 50_040],
      [19, null, false, 47_538],
      [100, 10, false, 25_200],
    ];
    for (const [first, n, twice, cost] of cases) {
      const r = await gql(s.url, query, { first, n, twice }, token);
      if (cost > 50_000) {
        expect(r.status, `first ${first}, n ${n}, twice ${twice}`).toBe(400);
        expect(codeOf(r)).toBe('GRAPHQL_VALIDATION_FAILED');
        expect(r.errors?.[0].message).toBe(`query complexity ${cost} exceeds the limit of 50000`);
      } else expect(r.errors, `first ${first}, n ${n}, twice ${twice}`).toBeUndefined();
    }
  });

  it('refuses requests without a JSON content type (CSRF prevention)', async () => {
    const res = await fetch(s.url + '?query=%7Bviewer%7BorgId%7D%7D', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(400);
  });
});

describe('query limits over WebSocket', () => {
  it('refuses a depth-20 query and a 100-alias query, then keeps serving the socket', async () => {
    const c = wsClient(s.wsUrl, token);
    const deep = await wsOnce(c, deepQuery(20));
    expect(deep.errors?.some((e) => /depth 20 exceeds/.test(e.message))).toBe(true);
    expect(deep.errors?.[0].extensions?.requestId).toEqual(expect.any(String));
    const aliases = await wsOnce(c, aliasQuery(100));
    expect(aliases.errors?.map((e) => e.message)).toContain('the document uses more than 30 aliases');
    expect((await wsOnce(c, ViewerDocument)).data?.viewer.role).toBe('ADMIN');
    await c.dispose();
  });

  it('closes a socket that sends a 2 MB message with 1009, and other sockets keep working', async () => {
    const c = wsClient(s.wsUrl, token);
    await wsOnce(c, ViewerDocument);
    void wsOnce(c, `{ viewer { orgId } } # ${'x'.repeat(2 * 1024 * 1024)}`);
    expect((await c.closed).code).toBe(1009);
    const other = wsClient(s.wsUrl, token);
    expect((await wsOnce(other, ViewerDocument)).data?.viewer.role).toBe('ADMIN');
    await other.dispose();
    await stillServes();
  });

  it('refuses the 51st subscription on one socket and keeps the other 50', async () => {
    const c = wsClient(s.wsUrl, token);
    const subs = Array.from({ length: 50 }, () => wsSubscribe(c, HeartbeatDocument, { intervalSeconds: 3600 }));
    await Promise.all(subs.map((x) => x.waitFor(1)));
    expect(subs.every((x) => x.events.length === 1 && x.errors.length === 0)).toBe(true);
    const extra = wsSubscribe(c, HeartbeatDocument, { intervalSeconds: 3600 });
    await extra.waitFor(1);
    expect(extra.events).toHaveLength(0);
    expect(JSON.stringify(extra.errors)).toContain('at most 50 operations');
    // closing one frees a slot
    subs[0].dispose();
    await new Promise((r) => setTimeout(r, 100));
    const again = wsSubscribe(c, HeartbeatDocument, { intervalSeconds: 3600 });
    await again.waitFor(1);
    expect(again.events).toHaveLength(1);
    await c.dispose();
  });

  it('refuses a heartbeat interval out of range with BAD_USER_INPUT', async () => {
    const c = wsClient(s.wsUrl, token);
    const sub = wsSubscribe(c, HeartbeatDocument, { intervalSeconds: 0 });
    await sub.waitFor(1);
    const errs = (sub.events[0]?.errors ?? sub.errors.flat()) as { extensions?: { code?: string; field?: string } }[];
    expect(errs[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'intervalSeconds' });
    await c.dispose();
  });
});
