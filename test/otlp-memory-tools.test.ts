import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlOk, wsClient, wsOnce } from './helpers/client';
import { exportSpans, newTraceId, readableSpans, type TraceFixture } from './helpers/otlp';
import { runCli } from './helpers/process';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let base: string;
let a: { orgId: string; token: string };
let b: { orgId: string; token: string };
let agentA: string;
let factA: string;
let factB: string;

interface Trace {
  operation: string;
  query: string | null;
  items: { rank: number; factId: string; used: boolean }[];
}
const EPISODES = `query { episodes(first: 20) { edges { node { id executionIds } } } }`;
type Page = { episodes: { edges: { node: { id: string; executionIds: string[] } }[] } };
const EPISODE = `query($id: ID!) { episode(id: $id) { id memoryTrace { operation query items { rank factId used } } facts(limit: 10) { id } } }`;
type One = { episode: { id: string; memoryTrace: Trace[]; facts: { id: string }[] } };
const SIGNALS = `query($id: ID!) { fact(id: $id) { signals(first: 10) { signalType source episodeId } } }`;

async function episodeOf(traceId: string, token = a.token) {
  const page = await gqlOk<Page, unknown>(s.url, EPISODES, {}, token);
  const found = page.episodes.edges.find((e) => e.node.executionIds.includes(traceId));
  return found ? (await gqlOk<One, unknown>(s.url, EPISODE, { id: found.node.id }, token)).episode : null;
}

const cli = (...args: string[]) => runCli(['set-memory-tools', ...args], { DATABASE_URL: s.dbUrl, MIGRATE_ON_START: 'false' });

/** An agent run: its invocation, then one call of each tool with its arguments and result. */
function toolTrace(tools: { name: string; args: unknown; result: unknown }[]): TraceFixture {
  return {
    resource: { 'service.name': 'memory-agent' },
    spans: [
      {
        spanId: 'a0a0a0a0a0a0a0a0',
        parentSpanId: null,
        name: 'invoke_agent Tea Agent',
        start: 0,
        end: 1000,
        attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'Tea Agent' },
      },
      ...tools.map((t, i) => ({
        spanId: `b${i}b${i}b${i}b${i}b${i}b${i}b${i}b${i}`,
        parentSpanId: 'a0a0a0a0a0a0a0a0',
        name: `execute_tool ${t.name}`,
        start: 100 * (i + 1),
        end: 100 * (i + 1) + 50,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': t.name,
          'gen_ai.tool.call.id': `call-${i}`,
          'gen_ai.tool.call.arguments': typeof t.args === 'string' ? t.args : JSON.stringify(t.args),
          'gen_ai.tool.call.result': typeof t.result === 'string' ? t.result : JSON.stringify(t.result),
        },
      })),
    ],
  };
}

beforeAll(async () => {
  s = await startTestServer();
  base = s.url.replace(/\/graphql$/, '');
  a = await s.createOrg('memory-tools-a');
  b = await s.createOrg('memory-tools-b');
  agentA = (await s.createKey(a.orgId, 'AGENT')).token;
  const upsert = `mutation($inputs: [FactInput!]!) { upsertFacts(inputs: $inputs) { id } }`;
  type Upserted = { upsertFacts: { id: string }[] };
  [{ id: factA }] = (
    await gqlOk<Upserted, unknown>(
      s.url,
      upsert,
      {
        inputs: [
          { bankId: 'tea', text: 'Green tea steeps at 80 degrees for two minutes.' },
          { bankId: 'tea', externalId: 'tea-black', text: 'Black tea steeps at 95 degrees for four minutes.' },
        ],
      },
      a.token,
    )
  ).upsertFacts;
  [{ id: factB }] = (
    await gqlOk<Upserted, unknown>(s.url, upsert, { inputs: [{ bankId: 'tea', text: 'Organization B keeps this to itself.' }] }, b.token)
  ).upsertFacts;
  const set = await cli('--org', a.orgId, '--tools', 'recall_memory, search_notes');
  expect(set.code).toBe(0);
  expect(JSON.parse(set.stdout)).toEqual({ orgId: a.orgId, memoryTools: ['recall_memory', 'search_notes'] });
});
afterAll(() => s?.close());

describe("the organization's memory tools", () => {
  it('make a named tool call whose result carries fact ids a memory trace, linking and crediting only the organization’s facts', async () => {
    const traceId = newTraceId();
    const trace = toolTrace([
      {
        name: 'recall_memory',
        args: { query: 'how long to steep tea' },
        result: { facts: [{ id: factA, text: 'Green tea...' }, { externalId: 'tea-black' }, { id: factB }, 'not-a-fact'] },
      },
    ]);
    expect((await exportSpans(base, agentA, readableSpans(trace, traceId))).code).toBe(0);
    const ep = (await episodeOf(traceId))!;
    expect(ep.memoryTrace).toEqual([
      {
        operation: 'RECALL',
        query: 'how long to steep tea',
        items: [
          { rank: 1, factId: factA, used: true },
          { rank: 2, factId: expect.any(String), used: true },
        ],
      },
    ]);
    const black = ep.memoryTrace[0].items[1].factId;
    expect(ep.facts.map((f) => f.id).sort()).toEqual([factA, black].sort());
    const signals = async (id: string, token = a.token) =>
      (await gqlOk<{ fact: { signals: unknown[] } | null }, unknown>(s.url, SIGNALS, { id }, token)).fact?.signals;
    expect(await signals(factA)).toEqual([{ signalType: 'USED', source: 'USAGE', episodeId: ep.id }]);
    // B's fact, named in A's trace, is neither linked nor credited, and B sees nothing of A's episode
    expect(await signals(factB, b.token)).toEqual([]);
    expect(await episodeOf(traceId, b.token)).toBeNull();
    const c = wsClient(s.wsUrl, b.token);
    const overWs = await wsOnce<Page, unknown>(c, EPISODES, {});
    expect(overWs.data?.episodes.edges.filter((e) => e.node.executionIds.includes(traceId))).toEqual([]);
    await c.dispose();
    // the same export again: still one trace, one credit
    expect((await exportSpans(base, agentA, readableSpans(trace, traceId))).code).toBe(0);
    expect((await episodeOf(traceId))!.memoryTrace).toHaveLength(1);
    expect(await signals(factA)).toHaveLength(1);
  });

  it('leaves tools of other names, and named tools whose result carries no fact ids, without a trace', async () => {
    const traceId = newTraceId();
    const trace = toolTrace([
      { name: 'web_search', args: { query: 'tea' }, result: { results: [{ id: factA }] } },
      { name: 'search_notes', args: { query: 'tea' }, result: 'Steep green tea for two minutes.' },
      { name: 'search_notes', args: { query: 'tea' }, result: { answer: factA } },
    ]);
    expect((await exportSpans(base, agentA, readableSpans(trace, traceId))).code).toBe(0);
    const ep = (await episodeOf(traceId))!;
    expect(ep.memoryTrace).toEqual([]);
    expect(ep.facts).toEqual([]);
  });

  it('reads ids from a bare list and from `results`, `documents`, `memories` or `items` (by `factId`, `fact_id`, `id` or a `fact` object)', async () => {
    const traceId = newTraceId();
    const trace = toolTrace([
      { name: 'search_notes', args: 'tea please', result: [factA] },
      { name: 'search_notes', args: {}, result: { memories: [{ fact: { id: factA } }] } },
      { name: 'recall_memory', args: { question: 'black tea' }, result: { items: [{ fact_id: 'tea-black' }] } },
    ]);
    expect((await exportSpans(base, agentA, readableSpans(trace, traceId))).code).toBe(0);
    const ep = (await episodeOf(traceId))!;
    expect(ep.memoryTrace.map((t) => [t.query, t.items.length])).toEqual([
      ['tea please', 1],
      ['{}', 1],
      ['black tea', 1],
    ]);
  });

  it('is set with the CLI, refusing bad names with exit code 2; "none" clears it', async () => {
    const blank = await cli('--org', a.orgId, '--tools', ' , ');
    expect(blank.code).toBe(2);
    expect(blank.stderr).toMatch(/--tools needs one or more names/);
    const long = await cli('--org', a.orgId, '--tools', 'x'.repeat(201));
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/at most 200 characters/);
    const missing = await runCli(['set-memory-tools', '--org', a.orgId], { DATABASE_URL: s.dbUrl, MIGRATE_ON_START: 'false' });
    expect(missing.code).toBe(2);
    // B never named a memory tool: the same call in B's trace is no trace
    const agentB = (await s.createKey(b.orgId, 'AGENT')).token;
    const inB = newTraceId();
    const trace = toolTrace([{ name: 'recall_memory', args: { query: 'x' }, result: [factB] }]);
    expect((await exportSpans(base, agentB, readableSpans(trace, inB))).code).toBe(0);
    expect((await episodeOf(inB, b.token))!.memoryTrace).toEqual([]);
    const none = await cli('--org', a.orgId, '--tools', 'none');
    expect(JSON.parse(none.stdout)).toEqual({ orgId: a.orgId, memoryTools: [] });
    const later = newTraceId();
    expect((await exportSpans(base, agentA, readableSpans(trace, later))).code).toBe(0);
    expect((await episodeOf(later))!.memoryTrace).toEqual([]);
  });
});
