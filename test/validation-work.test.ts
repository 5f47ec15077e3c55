import { type DocumentNode, getOperationAST, parse, visit } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../src/core/limits';
import { buildAppSchema } from '../src/graphql/build-schema';
import { operationCost } from '../src/graphql/cost';
import { checkSource } from '../src/graphql/limits';
import { depthsOf } from '../src/graphql/walk';
import { ViewerDocument } from './generated/graphql';
import { codeOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

/** Fields, inline fragments and spreads written in the document. */
function selectionsOf(doc: DocumentNode): number {
  let n = 0;
  const count = () => {
    n += 1;
  };
  visit(doc, { Field: count, InlineFragment: count, FragmentSpread: count });
  return n;
}

/** `n` fragments, each selecting a field and spreading the next one `times` times: times^n paths. */
const chained = (n: number, times: number) =>
  `query Chained { ...F0 } ${Array.from({ length: n }, (_, i) => `fragment F${i} on Query { viewer { orgId } ${`...F${i + 1} `.repeat(times)}}`).join(' ')} fragment F${n} on Query { viewer { orgId } }`;

/** Inline fragments nested `n` deep, the doubled chain at the bottom of each level. */
const deepInline = (n: number) => {
  let body = '...F0 ...F0';
  for (let i = 0; i < n; i++) body = `... on Query { viewer { orgId } ${body} }`;
  return `query DeepInline { ${body} } ${Array.from({ length: 20 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F20 on Query { viewer { role } }`;
};

const adversarial: [string, string][] = [
  ['30 fragments, each spreading the next twice (2^30 paths)', chained(30, 2)],
  ['6 fragments, each spreading the next 10 times (10^6 paths)', chained(6, 10)],
  ['inline fragments 50 deep over a doubled chain', deepInline(50)],
];

describe('validation work is linear in the document', () => {
  const schema = buildAppSchema();
  for (const [name, source] of adversarial) {
    it(`visits each selection at most once: ${name}`, () => {
      const doc = parse(source);
      const selections = selectionsOf(doc);
      const depth = depthsOf(doc);
      expect(depth.visits).toBeLessThanOrEqual(selections);
      const cost = operationCost(schema, doc, getOperationAST(doc)!, {});
      expect(cost.visits).toBeLessThanOrEqual(selections);
      // the fragments still count every time they are spread: the cost is far over the limit
      expect(cost.value).toBeGreaterThan(LIMITS.complexity);
      expect(depth.value.size).toBe(1);
    });
  }

  it('finds the depth through fragments and inline fragments', () => {
    const doc = parse(
      'query A { ...F } query B { viewer { orgId } } fragment F on Query { ... on Query { viewer { ...G } } } fragment G on Viewer { orgId }',
    );
    expect([...depthsOf(doc).value]).toEqual([
      ['A', 2],
      ['B', 2],
    ]);
  });
});

let s: TestServer;
let token: string;

beforeAll(async () => {
  s = await startTestServer();
  token = (await s.createOrg()).token;
});
afterAll(() => s?.close());

const limitDocuments: [string, string, RegExp][] = [
  ['the doubled fragment chain', chained(30, 2), /^query complexity \d+ exceeds the limit of 50000$/],
  [
    'inline fragments nested 5,000 deep (beyond what the parser can recurse)',
    `{ ${'... on Query { '.repeat(5000)}viewer { orgId }${' }'.repeat(5000)} }`,
    /nests brackets more than 64 deep/,
  ],
  [
    'a chain of 10,000 fragments (beyond what the standard rules can recurse)',
    `{ ...F0 } ${Array.from({ length: 10_000 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} }`).join(' ')} fragment F10000 on Query { viewer { orgId } }`,
    /more than 10000 tokens/,
  ],
  [
    'a list literal nested 100 deep',
    `{ recall(input: { bankId: "b", query: "q", queryEmbedding: ${'['.repeat(100)}1${']'.repeat(100)} }) { finalScore } }`,
    /nests brackets more than 64 deep/,
  ],
];

describe('document limits answer 400 and GRAPHQL_VALIDATION_FAILED on HTTP and WebSocket', () => {
  for (const [name, source, message] of limitDocuments) {
    it(name, async () => {
      const r = await gql(s.url, source, {}, token);
      expect(r.status).toBe(400);
      expect(codeOf(r)).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(r.errors?.[0].message).toMatch(message);
      expect(r.errors?.[0].extensions?.requestId).toEqual(expect.any(String));

      const c = wsClient(s.wsUrl, token);
      const w = await wsOnce(c, source);
      expect(codeOf(w)).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(w.errors?.[0].message).toMatch(message);
      expect((await wsOnce(c, ViewerDocument)).data?.viewer.role).toBe('ADMIN');
      await c.dispose();
      expect((await gqlOk(s.url, ViewerDocument, {}, token)).viewer.role).toBe('ADMIN');
    });
  }

  it('still accepts documents inside the token and nesting limits', async () => {
    const nested = `{ ${'... on Query { '.repeat(LIMITS.nesting - 3)}viewer { orgId }${' }'.repeat(LIMITS.nesting - 3)} }`;
    expect((await gql(s.url, nested, {}, token)).errors).toBeUndefined();
    // an 8,192-dimension embedding written into the document: 8,214 tokens
    const embedding = Array.from({ length: 8192 }, (_, i) => (i % 7) / 10).join(',');
    const r = await gql(s.url, `{ recall(input: { bankId: "b", query: "q", queryEmbedding: [${embedding}] }) { finalScore } }`, {}, token);
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ recall: [] });
  });

  it('counts tokens and brackets exactly', () => {
    const tokens = (n: number) => `{ viewer { ${'orgId '.repeat(n - 5)}} }`;
    expect(() => checkSource(tokens(LIMITS.tokens))).not.toThrow();
    expect(() => checkSource(tokens(LIMITS.tokens + 1))).toThrow(/more than 10000 tokens/);
    // strings and comments are single tokens or none, whatever brackets they hold
    expect(() => checkSource(`{ viewer { orgId } } # ${'{'.repeat(1000)}`)).not.toThrow();
    expect(() => checkSource(`{ recall(input: { bankId: "${'['.repeat(1000)}", query: "q" }) { finalScore } }`)).not.toThrow();
    const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(() => checkSource(nested(LIMITS.nesting))).not.toThrow();
    expect(() => checkSource(nested(LIMITS.nesting + 1))).toThrow(/more than 64 deep/);
  });
});
