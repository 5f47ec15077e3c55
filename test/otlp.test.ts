import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlOk, wsClient } from './helpers/client';
import { exportSpans, fixture, jsonBody, newTraceId, postTraces, protobufBody, readableSpans } from './helpers/otlp';
import { startTestServer, type TestServer } from './helpers/server';
import { closeIdleTraces } from '../src/modules/otlp';

interface Segment {
  seq: number;
  role: string;
  content: string;
}
interface Ep {
  id: string;
  agentId: string;
  sessionId: string | null;
  title: string | null;
  task: string | null;
  createdAt: string;
  endedAt: string | null;
  executionIds: string[];
  metadata: Record<string, unknown> | null;
  segments: Segment[];
  facts: { externalId: string | null }[];
}
const EPISODES = `query($filter: EpisodeFilter) { episodes(filter: $filter, first: 20) { edges { node {
  id agentId sessionId title task createdAt endedAt executionIds metadata
  segments(limit: 20) { seq role content } facts(limit: 5) { externalId } } } } }`;

let s: TestServer;
let base: string;
let agent: string;

/** The organization's episodes made from trace `traceId`. */
async function episodesOf(traceId: string, token = agent): Promise<Ep[]> {
  const data = await gqlOk<{ episodes: { edges: { node: Ep }[] } }, unknown>(s.url, EPISODES, {}, token);
  return data.episodes.edges.map((e) => e.node).filter((e) => e.executionIds.includes(traceId));
}

const transcript = (e: Ep) => e.segments.map((x) => `${x.role}: ${x.content}`);

beforeAll(async () => {
  s = await startTestServer({ env: { OTLP_MAX_BODY_BYTES: String(256 * 1024) } });
  base = s.url.replace(/\/graphql$/, '');
  const { orgId } = await s.createOrg('otlp');
  agent = (await s.createKey(orgId, 'AGENT')).token;
});
afterAll(() => s?.close());

describe('POST /v1/traces', () => {
  it('turns a GenAI trace sent by the protobuf exporter (gzip) into one episode with its turns, tool call and usage', async () => {
    const traceId = newTraceId();
    const result = await exportSpans(base, agent, readableSpans(fixture('genai-current'), traceId), { gzip: true });
    expect(result.code).toBe(0);
    const [ep, ...more] = await episodesOf(traceId);
    expect(more).toEqual([]);
    expect(ep).toMatchObject({ agentId: 'Weather Agent', sessionId: 'conv_5j66UpCpwteGg4YSxUnt7lPY', task: 'Weather in Paris?' });
    expect(ep.title).toBe('invoke_agent Weather Agent');
    expect(transcript(ep)).toEqual([
      'system: You are a helpful weather assistant.',
      'user: Weather in Paris?',
      'assistant: [tool call get_weather] {"location":"Paris"}',
      'tool: {"tool":"get_weather","arguments":"{\\"location\\":\\"Paris\\"}","result":"rainy, 57°F"}',
      'assistant: The weather in Paris is currently rainy with a temperature of 57°F.',
    ]);
    expect(ep.metadata).toMatchObject({
      source: 'otlp',
      traceId,
      models: ['gpt-4o', 'gpt-4o-2024-08-06'],
      usage: { inputTokens: 237, outputTokens: 82 },
      finishReasons: ['tool_call', 'stop'],
      errors: [],
    });
    expect(new Date(ep.endedAt!).getTime() - new Date(ep.createdAt).getTime()).toBe(3000);
  });

  it('reads the older message events and OpenInference spans sent by the JSON exporter, and makes retrievals memory traces with credit', async () => {
    await gqlOk(
      s.url,
      `mutation($inputs: [FactInput!]!) { upsertFacts(inputs: $inputs) { id } }`,
      { inputs: [{ bankId: 'policy-agent', externalId: 'policy-refunds', text: 'Refunds are accepted within 30 days of purchase.' }] },
      agent,
    );
    const events = newTraceId();
    const oi = newTraceId();
    const spans = [...readableSpans(fixture('genai-events-v136'), events), ...readableSpans(fixture('openinference'), oi)];
    expect((await exportSpans(base, agent, spans, { json: true })).code).toBe(0);
    const [chat] = await episodesOf(events);
    expect(chat).toMatchObject({ agentId: 'support-bot', sessionId: null, task: 'How do I get a refund?' });
    expect(transcript(chat)).toEqual([
      'system: You answer billing questions.',
      'user: How do I get a refund?',
      'assistant: Open Billing, pick the order and press Refund.',
    ]);
    expect(chat.metadata).toMatchObject({ models: ['gpt-4o-mini-2024-07-18'], usage: { inputTokens: 24, outputTokens: 11 } });
    const [agentEp] = await episodesOf(oi);
    expect(agentEp).toMatchObject({ agentId: 'policy-agent', sessionId: 'sess-42', task: 'What is the refund window?' });
    expect(transcript(agentEp)).toEqual([
      'system: Answer from the context: Refunds are accepted within 30 days of purchase.',
      'user: What is the refund window?',
      'assistant: Refunds are accepted within 30 days.',
    ]);
    expect(agentEp.metadata?.retrievals).toEqual([
      { spanId: '0707070707070707', query: 'refund window', documentIds: ['policy-refunds', 'policy-unknown'] },
    ]);
    expect(agentEp.facts).toEqual([{ externalId: 'policy-refunds' }]);
    // the retrieval is a memory trace of the episode, and the fact it served and the episode used is credited once
    const TRACES = `query($id: ID!) { episode(id: $id) { memoryTrace { operation query items { rank factId used } } } }`;
    const SIGNALS = `query($id: ID!) { fact(id: $id) { signals(first: 10) { signalType source episodeId } } }`;
    const traced = await gqlOk<
      { episode: { memoryTrace: { operation: string; query: string; items: { rank: number; factId: string; used: boolean }[] }[] } },
      unknown
    >(s.url, TRACES, { id: agentEp.id }, agent);
    expect(traced.episode.memoryTrace).toEqual([
      { operation: 'RECALL', query: 'refund window', items: [{ rank: 1, factId: expect.any(String), used: true }] },
    ]);
    const factId = traced.episode.memoryTrace[0].items[0].factId;
    const signals = async () =>
      (await gqlOk<{ fact: { signals: unknown[] } }, unknown>(s.url, SIGNALS, { id: factId }, agent)).fact.signals;
    expect(await signals()).toEqual([{ signalType: 'USED', source: 'USAGE', episodeId: agentEp.id }]);
    // the same export again: still one trace, one credit
    expect((await exportSpans(base, agent, readableSpans(fixture('openinference'), oi), { json: true })).code).toBe(0);
    expect((await gqlOk<typeof traced, unknown>(s.url, TRACES, { id: agentEp.id }, agent)).episode.memoryTrace).toHaveLength(1);
    expect(await signals()).toHaveLength(1);
  });

  it('gives the same episode whatever the order and number of exports, retries included', async () => {
    const f = fixture('genai-current');
    const whole = newTraceId();
    expect((await exportSpans(base, agent, readableSpans(f, whole))).code).toBe(0);
    const split = newTraceId();
    const spans = readableSpans(f, split).reverse();
    // the last chat span first, then the tool, then the agent span with the first chat span; then a retry
    for (const part of [spans.slice(0, 1), spans.slice(1, 2), spans.slice(2), spans.slice(0, 2)])
      expect((await exportSpans(base, agent, part, { json: part.length === 1 })).code).toBe(0);
    const [a] = await episodesOf(whole);
    const [b, ...more] = await episodesOf(split);
    expect(more).toEqual([]);
    expect(transcript(b)).toEqual(transcript(a));
    expect({ ...b.metadata, traceId: null }).toEqual({ ...a.metadata, traceId: null });
    expect([b.agentId, b.sessionId, b.task, b.title]).toEqual([a.agentId, a.sessionId, a.task, a.title]);
    // the same protobuf body again changes nothing
    const before = await episodesOf(split);
    const again = await postTraces(base, agent, protobufBody(readableSpans(f, split)));
    expect(again.status).toBe(200);
    expect(await episodesOf(split)).toEqual(before);
  });

  it('makes one episode per agent invocation of a trace', async () => {
    const f = fixture('genai-current');
    const second = f.spans.map((x) => ({
      ...x,
      spanId: x.spanId.replace(/^./, '9'),
      parentSpanId: x.parentSpanId?.replace(/^./, '9') ?? null,
      start: x.start + 5000,
      end: x.end + 5000,
      attributes: x.attributes['gen_ai.agent.name'] ? { ...x.attributes, 'gen_ai.agent.name': 'Booking Agent' } : x.attributes,
    }));
    const traceId = newTraceId();
    // the later invocation arrives first: the earlier one still ends up as the trace's first episode
    await exportSpans(base, agent, readableSpans({ ...f, spans: second }, traceId));
    await exportSpans(base, agent, readableSpans(f, traceId));
    const eps = await episodesOf(traceId);
    expect(eps.map((e) => e.agentId).sort()).toEqual(['Booking Agent', 'Weather Agent']);
    for (const e of eps) expect(e.segments).toHaveLength(5);
  });

  it('answers the specification example (no GenAI attributes) with 200 and ignores it; refuses spans with invalid ids in partial_success', async () => {
    const example = readFileSync(join(__dirname, 'fixtures/otlp/spec-example-trace.json'), 'utf8');
    const ok = await postTraces(base, agent, example, { 'content-type': 'application/json' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(ok.body.toString())).toEqual({});
    expect(await episodesOf('5b8efff798038103d269b633813fc60c')).toEqual([]);
    const bad = JSON.parse(example) as { resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[] };
    bad.resourceSpans[0].scopeSpans[0].spans.push({ traceId: 'xyz', spanId: '01', name: 'broken' });
    const partial = await postTraces(base, agent, JSON.stringify(bad), { 'content-type': 'application/json' });
    expect(partial.status).toBe(200);
    expect(JSON.parse(partial.body.toString())).toMatchObject({ partialSuccess: { rejectedSpans: 1 } });
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/otlp_spans_total\{outcome="ignored"\} [1-9]/);
  });

  it('keeps malformed message JSON as raw text and cuts oversized attributes, saying so in the metadata', async () => {
    const traceId = newTraceId();
    const long = 'x'.repeat(40_000);
    const f = {
      resource: { 'service.name': 'odd' },
      spans: [
        {
          spanId: '1111111111111111',
          parentSpanId: null,
          name: 'chat',
          start: 0,
          end: 10,
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.input.messages': '[{"role":"user", "parts": [',
            'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: long }] }]),
          },
        },
      ],
    };
    expect((await exportSpans(base, agent, readableSpans(f, traceId), { gzip: true })).code).toBe(0);
    const [ep] = await episodesOf(traceId);
    expect(ep.task).toBe('[{"role":"user", "parts": [');
    expect(ep.segments[1].content).toHaveLength(32_768);
    expect(ep.metadata).toMatchObject({
      rawText: [{ spanId: '1111111111111111', attributes: ['gen_ai.input.messages'] }],
      truncated: [{ spanId: '1111111111111111', attributes: ['gen_ai.output.messages'] }],
    });
  });
});

describe('open traces', () => {
  it('keeps a trace spans only for the trace window; later spans of a closed trace are accepted and ignored', async () => {
    const f = fixture('genai-current');
    const traceId = newTraceId();
    const spans = readableSpans(f, traceId);
    expect((await exportSpans(base, agent, spans.slice(0, 2))).code).toBe(0);
    const em = s.app.db.orm.em.fork();
    const count = async (table: string) =>
      Number((await em.execute<{ n: string }[]>(`SELECT count(*) AS n FROM ${table} WHERE trace_id = ?`, [traceId]))[0].n);
    expect([await count('otlp_spans'), await count('otlp_traces')]).toEqual([2, 1]);
    // a trace with a span in the window stays open
    expect(await closeIdleTraces(em, 60)).toBe(0);
    await em.execute(`UPDATE otlp_traces SET last_span_at = now() - interval '61 minutes' WHERE trace_id = ?`, [traceId]);
    expect(await closeIdleTraces(em, 60)).toBe(1);
    expect([await count('otlp_spans'), await count('otlp_traces')]).toEqual([0, 0]);
    const before = await episodesOf(traceId);
    expect(before).toHaveLength(1);
    expect((await exportSpans(base, agent, spans.slice(2))).code).toBe(0);
    expect(await episodesOf(traceId)).toEqual(before);
    expect(await count('otlp_spans')).toBe(0);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/otlp_spans_total\{outcome="late"\} 2/);
  });

  it('refuses an export past the storage quota in partial_success, writing nothing', async () => {
    const { orgId } = await s.createOrg('small');
    const key = (await s.createKey(orgId, 'AGENT')).token;
    await s.app.db.orm.em.fork().execute(`INSERT INTO org_quotas (org_id, max_rows, max_bytes) VALUES (?, 3, NULL)`, [orgId]);
    const traceId = newTraceId();
    const r = await postTraces(base, key, jsonBody(readableSpans(fixture('genai-current'), traceId)), {
      'content-type': 'application/json',
    });
    expect(r.status).toBe(200);
    const answer = JSON.parse(r.body.toString()) as { partialSuccess: { rejectedSpans: number; errorMessage: string } };
    expect(answer.partialSuccess.rejectedSpans).toBe(4);
    expect(answer.partialSuccess.errorMessage).toMatch(/storage quota/);
    const rows = await s.app.db.orm.em
      .fork()
      .execute<{ n: string }[]>(
        `SELECT (SELECT count(*) FROM otlp_spans WHERE org_id = ?) + (SELECT count(*) FROM episodes WHERE org_id = ?) AS n`,
        [orgId, orgId],
      );
    expect(Number(rows[0].n)).toBe(0);
  });
});

describe('POST /v1/traces refusals', () => {
  const spansOf = () => readableSpans(fixture('genai-current'), newTraceId());

  it('401 without a key, 403 for a VIEWER key, with nothing written', async () => {
    const body = protobufBody(spansOf());
    expect((await postTraces(base, null, body)).status).toBe(401);
    const { orgId } = await s.createOrg('viewer-org');
    const viewer = (await s.createKey(orgId, 'VIEWER')).token;
    const refused = await postTraces(base, viewer, body);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body.toString())).toMatchObject({ code: 7 });
    const admin = (await s.createKey(orgId, 'ADMIN')).token;
    const data = await gqlOk<{ episodes: { edges: unknown[] } }, unknown>(s.url, EPISODES, {}, admin);
    expect(data.episodes.edges).toEqual([]);
  });

  it('400 for a truncated protobuf and for JSON that is not an export; 415 for another content type', async () => {
    const body = protobufBody(spansOf());
    expect((await postTraces(base, agent, body.subarray(0, body.length - 7))).status).toBe(400);
    expect((await postTraces(base, agent, '[1,2', { 'content-type': 'application/json' })).status).toBe(400);
    expect((await postTraces(base, agent, jsonBody(spansOf()), { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('413 for a gzip bomb, refused without inflating it whole, and for a body over the limit', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(256 * 1024);
    const rssBefore = process.memoryUsage().rss;
    const r = await postTraces(base, agent, bomb, { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' });
    expect(r.status).toBe(413);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(32 * 1024 * 1024);
    expect((await postTraces(base, agent, Buffer.alloc(300 * 1024))).status).toBe(413);
    // the server still serves
    expect((await exportSpans(base, agent, spansOf())).code).toBe(0);
  });

  it('attributes spans to the key organization only, whatever the spans say', async () => {
    const { orgId: otherOrg, token: otherAdmin } = await s.createOrg('other');
    const other = (await s.createKey(otherOrg, 'INTEGRATOR')).token;
    const traceId = newTraceId();
    const f = fixture('genai-current');
    const mine = readableSpans({ ...f, resource: { ...f.resource, 'org.id': otherOrg, 'tenant.id': otherOrg } }, traceId);
    expect((await exportSpans(base, agent, mine)).code).toBe(0);
    // the other organization sends the same trace id: its own episode, mine untouched
    const before = await episodesOf(traceId);
    expect((await exportSpans(base, other, readableSpans(fixture('genai-events-v136'), traceId))).code).toBe(0);
    expect(await episodesOf(traceId)).toEqual(before);
    const theirs = await episodesOf(traceId, otherAdmin);
    expect(theirs.map((e) => e.agentId)).toEqual(['support-bot']);
    // over WebSocket too
    const ws = wsClient(s.wsUrl, otherAdmin);
    try {
      const rows: Ep[] = await new Promise((resolve, reject) => {
        ws.subscribe<{ episodes: { edges: { node: Ep }[] } }>(
          { query: EPISODES },
          { next: (r) => resolve(r.data!.episodes.edges.map((e) => e.node)), error: reject, complete: () => {} },
        );
      });
      expect(rows.filter((e) => e.executionIds.includes(traceId)).map((e) => e.agentId)).toEqual(['support-bot']);
    } finally {
      await ws.dispose();
    }
  });

  it('429 with Retry-After over the budget', async () => {
    const limited = await startTestServer({ env: { BUDGET_AGENT: '1,200000,4' }, defaultBudgets: true });
    try {
      const { orgId } = await limited.createOrg('limited');
      const key = (await limited.createKey(orgId, 'AGENT')).token;
      const url = limited.url.replace(/\/graphql$/, '');
      const body = protobufBody(spansOf());
      expect((await postTraces(url, key, body)).status).toBe(200);
      const refused = await postTraces(url, key, body);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
    }
  });
});
