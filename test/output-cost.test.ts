import { getOperationAST, graphql, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenarios } from '../bench/scenarios';
import { LIMITS } from '../src/core/limits';
import { createLogger } from '../src/core/logger';
import { buildAppSchema } from '../src/graphql/build-schema';
import { operationCost } from '../src/graphql/cost';
import { formatGraphQLError } from '../src/graphql/errors';
import { collapseTooLarge, guardResponseSize } from '../src/graphql/response-size';
import { codeOf, fieldOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

const MAX_BYTES = 64 * 1024;
let s: TestServer;
let a: { orgId: string; token: string };
let b: { orgId: string; token: string };
let long: string; // 105 short segments
let large: string; // 10 segments of 10,000 characters: 100 KB of content

const RECORD = 'mutation($input: RecordEpisodeInput!) { recordEpisode(input: $input) { id } }';
const record = async (token: string, segments: { role: string; content: string }[]) =>
  (await gqlOk<{ recordEpisode: { id: string } }, unknown>(s.url, RECORD, { input: { agentId: 'cost', segments } }, token)).recordEpisode
    .id;

beforeAll(async () => {
  s = await startTestServer({ env: { MAX_RESPONSE_BYTES: String(MAX_BYTES) } });
  a = await s.createOrg('A');
  b = await s.createOrg('B');
  long = await record(
    a.token,
    Array.from({ length: 105 }, (_, i) => ({ role: 'user', content: `turn ${i + 1}` })),
  );
  large = await record(
    a.token,
    Array.from({ length: 10 }, (_, i) => ({ role: 'user', content: String(i).repeat(10_000) })),
  );
});
afterAll(() => s?.close());

type Segments = { episode: { segments: { seq: number }[] } | null };
const SEGMENTS = 'query($id: ID!, $limit: Int) { episode(id: $id) { segments(limit: $limit) { seq } } }';

describe('episode context lists have a maximum', () => {
  it('returns the newest 100 without a limit, up to 1,000 with one, and refuses more, on HTTP and WebSocket', async () => {
    const seqs = (r: { data?: Segments | null }) => r.data?.episode?.segments.map((x) => x.seq);
    const c = wsClient(s.wsUrl, a.token);
    for (const run of [
      (v: object) => gql<Segments, object>(s.url, SEGMENTS, v, a.token),
      (v: object) => wsOnce<Segments, object>(c, SEGMENTS, v),
    ]) {
      expect(seqs(await run({ id: long }))).toEqual(Array.from({ length: 100 }, (_, i) => i + 6));
      expect(seqs(await run({ id: long, limit: 1000 }))).toHaveLength(105);
      const refused = await run({ id: long, limit: 1001 });
      expect(codeOf(refused)).toBe('BAD_USER_INPUT');
      expect(fieldOf(refused)).toBe('limit');
    }
    await c.dispose();
  });

  it('charges a context list by its limit: a page of 100 with 1,000 segments each is refused, with 10 each it runs', async () => {
    const page = (limit: number) => `{ episodes(first: 100) { edges { node { segments(limit: ${limit}) { id } } } } }`;
    const r = await gql(s.url, page(1000), {}, a.token);
    expect(r.status).toBe(400);
    expect(r.errors?.[0].message).toBe('query complexity 100100 exceeds the limit of 50000');
    const c = wsClient(s.wsUrl, a.token);
    expect((await wsOnce(c, page(1000))).errors?.[0].message).toBe('query complexity 100100 exceeds the limit of 50000');
    expect((await wsOnce(c, page(10))).errors).toBeUndefined();
    await c.dispose();
    expect((await gql(s.url, page(10), {}, a.token)).errors).toBeUndefined();
  });

  it('keeps every benchmark operation (everyday traffic) under the cost limit', () => {
    const schema = buildAppSchema();
    for (const scenario of scenarios) {
      const doc = parse(scenario.query);
      const cost = operationCost(schema, doc, getOperationAST(doc)!, {
        first: 20,
        input: {},
        inputs: [{}],
        signals: [{}],
        segments: [{}],
        agentId: 'agent',
        query: 'query',
      }).value;
      expect(cost, scenario.id).toBeLessThanOrEqual(LIMITS.complexity);
      expect(cost, scenario.id).toBeGreaterThan(0);
    }
  });
});

describe('responses larger than MAX_RESPONSE_BYTES', () => {
  const ALIASES = `query($id: ID!) { episode(id: $id) { ${Array.from({ length: 10 }, (_, i) => `a${i}: segments(limit: ${1000 - i}) { content }`).join(' ')} } }`;

  it('refuses ten aliases of a large episode with one RESPONSE_TOO_LARGE error and no data, HTTP 400', async () => {
    const r = await gql(s.url, ALIASES, { id: large }, a.token);
    expect(r.status).toBe(400);
    expect(r.data ?? null).toBeNull();
    expect(r.errors).toHaveLength(1);
    expect(r.errors?.[0]).toMatchObject({
      message: expect.stringContaining(`more than ${MAX_BYTES} bytes`),
      extensions: { code: 'RESPONSE_TOO_LARGE', requestId: expect.any(String) },
    });
  });

  it('refuses it the same way over WebSocket, and the socket keeps serving', async () => {
    const c = wsClient(s.wsUrl, a.token);
    const r = await wsOnce(c, ALIASES, { id: large });
    expect(r.data ?? null).toBeNull();
    expect(r.errors?.map((e) => e.extensions?.code)).toEqual(['RESPONSE_TOO_LARGE']);
    const one = await wsOnce<{ episode: { segments: { content: string }[] } }, object>(
      c,
      'query($id: ID!) { episode(id: $id) { segments(limit: 5) { content } } }',
      { id: large },
    );
    expect(one.data?.episode.segments.map((x) => x.content.length)).toEqual([10_000, 10_000, 10_000, 10_000, 10_000]);
    await c.dispose();
  });

  it('serves what fits: one copy of 50 KB of content, and the same request of another organization', async () => {
    const r = await gql<{ episode: { segments: { content: string }[] } }, object>(
      s.url,
      'query($id: ID!) { episode(id: $id) { segments(limit: 5) { content } } }',
      { id: large },
      a.token,
    );
    expect(r.status).toBe(200);
    expect(r.data?.episode.segments).toHaveLength(5);
    // another organization asking for the same id sees nothing, and is not refused
    const other = await gql(s.url, ALIASES, { id: large }, b.token);
    expect(other.errors).toBeUndefined();
    expect(other.data).toEqual({ episode: null });
    const c = wsClient(s.wsUrl, b.token);
    expect(await wsOnce(c, ALIASES, { id: large })).toEqual({ data: { episode: null } });
    await c.dispose();
  });
});

describe('the response guard stops resolving once over', () => {
  it('resolves about as many values as fit, not the whole list', async () => {
    let resolved = 0;
    const item = new GraphQLObjectType({
      name: 'Item',
      fields: {
        text: {
          type: new GraphQLNonNull(GraphQLString),
          resolve: () => {
            resolved += 1;
            return 'x'.repeat(1000);
          },
        },
      },
    });
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Query',
        fields: {
          items: {
            type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(item))),
            resolve: () => Array.from({ length: 10_000 }, () => ({})),
          },
          again: { type: new GraphQLList(item), resolve: () => Array.from({ length: 10_000 }, () => ({})) },
        },
      }),
    });
    guardResponseSize(schema);
    const contextValue = { services: { config: { maxResponseBytes: 64 * 1024 } } };
    const result = await graphql({ schema, source: '{ items { text } again { text } }', contextValue });
    // 64 values of 1,002 bytes fit in 64 KiB; the 66th crosses it, and nothing after it resolves
    expect(resolved).toBe(66);
    const collapsed = collapseTooLarge({
      ...result,
      errors: result.errors?.map((e) => formatGraphQLError(e, { production: true, log: createLogger('silent') }, 'r')),
    });
    expect(collapsed.data).toBeNull();
    expect(collapsed.errors).toHaveLength(1);
    // the same schema without a limit in the context resolves everything
    resolved = 0;
    const free = await graphql({ schema, source: '{ items { text } }', contextValue: {} });
    expect(free.errors).toBeUndefined();
    expect(resolved).toBe(10_000);
  });
});
