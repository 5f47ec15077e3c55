import { SpanKind, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import type { ServerStats } from './children';

export const OTLP_ID = 'otlp';

/** One phase of the OTLP run. */
export interface OtlpPhase {
  exporters: number;
  batch: number;
  exports: number;
  spans: number;
  seconds: number;
  spansPerSecond: number;
  /** ms of one export, request to response */
  p50: number;
  p99: number;
  max: number;
  errors: number;
  statementsPerExport: number;
  cpuMsPerExport: number;
  /** spans per second offered (paced phase), null when every exporter sends its next export as soon as the last is answered */
  offered: number | null;
}

/**
 * How soon an `episodeAdded` subscriber over WebSocket hears of the episodes an export created, in
 * ms from the moment that export's 200 reached the exporter (negative: the event came first).
 */
interface OtlpDelivery {
  /** episodes the paced phase's exports created, each expected once */
  expected: number;
  delivered: number;
  /** expected episodes whose event had not arrived 5 s after the last export was answered */
  missed: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * What `--only otlp` measures: exporters sending protobuf batches to POST /v1/traces, each one
 * export at a time. `saturated`: each sends its next export as soon as the last is answered (the
 * most the server takes; an export's time is then mostly waiting behind the others). `paced`: each
 * sends on a fixed schedule so that all together offer the target rate, as batch span processors do.
 */
export interface OtlpResult {
  saturated: OtlpPhase;
  paced: OtlpPhase;
  /** the paced phase's episodes as a subscriber received them */
  delivery: OtlpDelivery;
  /** what the database holds afterwards: one episode per trace */
  traces: number;
  episodes: number;
  segments: number;
}

/** Spans of one agent run: invoke_agent, then chat, tool, chat, tool, chat (each chat repeating the history). */
const SPANS_PER_TRACE = 6;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0').slice(-width);
const hr = (ms: number): [number, number] => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

function traceSpans(exporter: number, trace: number, t0: number): ReadableSpan[] {
  const traceId = hex(exporter + 1, 8) + hex(trace + 1, 8) + 'a'.repeat(16);
  const spanId = (k: number) => hex(trace + 1, 8) + hex(k + 1, 8);
  const resource = resourceFromAttributes({ 'service.name': `bench-agent-${exporter}` });
  const history: { role: string; parts: { type: string; content: string }[] }[] = [
    {
      role: 'user',
      parts: [{ type: 'text', content: `Plan trip ${trace} of exporter ${exporter}: find flights, hotels and the weather.` }],
    },
  ];
  const span = (k: number, name: string, attributes: Record<string, string | number | string[]>): ReadableSpan => ({
    name,
    kind: SpanKind.INTERNAL,
    spanContext: () => ({ traceId, spanId: spanId(k), traceFlags: TraceFlags.SAMPLED }),
    parentSpanContext: k === 0 ? undefined : { traceId, spanId: spanId(0), traceFlags: TraceFlags.SAMPLED },
    startTime: hr(t0 + k * 100),
    endTime: hr(t0 + (k === 0 ? 1000 : k * 100 + 90)),
    status: { code: SpanStatusCode.UNSET },
    attributes,
    links: [],
    events: [],
    duration: hr(k === 0 ? 1000 : 90),
    ended: true,
    resource,
    instrumentationScope: { name: 'bench' },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  });
  const spans = [
    span(0, 'invoke_agent Travel Agent', {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'Travel Agent',
      'gen_ai.conversation.id': `conv-${exporter}-${trace}`,
    }),
  ];
  for (let k = 1; k < SPANS_PER_TRACE; k += 1) {
    if (k % 2 === 0) {
      spans.push(
        span(k, 'execute_tool search', {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'search',
          'gen_ai.tool.call.arguments': JSON.stringify({ query: `step ${k} of trip ${trace}` }),
          'gen_ai.tool.call.result': `Result ${k}: three options found, the cheapest at ${100 + k} EUR, all available next week.`,
        }),
      );
      continue;
    }
    const input = JSON.stringify(history);
    const answer = {
      role: 'assistant',
      parts: [{ type: 'text', content: `Step ${k}: I looked at the options for trip ${trace} and chose the next search.` }],
    };
    history.push(answer);
    spans.push(
      span(k, 'chat gpt-4o', {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 50 * k,
        'gen_ai.usage.output_tokens': 20,
        'gen_ai.response.finish_reasons': ['stop'],
        'gen_ai.input.messages': input,
        'gen_ai.output.messages': JSON.stringify([answer]),
      }),
    );
  }
  return spans;
}

/** One export: its protobuf body and the traces whose first span it carries (the export that creates their episodes). */
interface Body {
  bytes: Buffer;
  opens: string[];
}

/** `count` protobuf bodies of `batch` spans for one exporter; a trace may be cut between two batches, as exporters do. */
function exporterBodies(exporter: number, count: number, batch: number): Body[] {
  const all: ReadableSpan[] = [];
  const t0 = Date.now() - 3_600_000;
  for (let trace = 0; all.length < count * batch; trace += 1) all.push(...traceSpans(exporter, trace, t0 + trace * 1000));
  const seen = new Set<string>();
  return Array.from({ length: count }, (_, i) => {
    const spans = all.slice(i * batch, (i + 1) * batch);
    const opens = [...new Set(spans.map((x) => x.spanContext().traceId))].filter((t) => !seen.has(t));
    for (const t of opens) seen.add(t);
    return { bytes: Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!), opens };
  });
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};

/** Sends each exporter's bodies, one export at a time each; paced at `rate` spans/s over all exporters when given. */
async function phase(
  send: (body: Buffer) => Promise<Response>,
  bodies: Body[][],
  batch: number,
  stats: () => Promise<ServerStats>,
  rate: number | null,
  answered?: (body: Body, at: number) => void,
): Promise<OtlpPhase> {
  const times: number[] = [];
  let errors = 0;
  const before = await stats();
  const started = performance.now();
  const interval = rate ? (bodies.length * batch * 1000) / rate : 0;
  await Promise.all(
    bodies.map(async (list, e) => {
      for (const [i, body] of list.entries()) {
        if (rate) {
          const due = started + (e / bodies.length + i) * interval;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
        const t = performance.now();
        const res = await send(body.bytes);
        await res.arrayBuffer();
        answered?.(body, performance.now());
        times.push(performance.now() - t);
        if (res.status !== 200) errors += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = await stats();
  const exports = bodies.length * bodies[0].length;
  return {
    exporters: bodies.length,
    batch,
    exports,
    spans: exports * batch,
    seconds,
    spansPerSecond: (exports * batch) / seconds,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: Math.max(...times),
    errors,
    statementsPerExport: (after.statements - before.statements) / exports,
    cpuMsPerExport: (after.cpuMs - before.cpuMs) / exports,
    offered: rate,
  };
}

/** The saturated phase, then the paced one at `rate` spans/s, each with `exportsPerExporter` batches per exporter. */
export async function runOtlp(opts: {
  baseUrl: string;
  token: string;
  databaseUrl: string;
  stats: () => Promise<ServerStats>;
  exporters?: number;
  batch?: number;
  exportsPerExporter?: number;
  rate?: number;
}): Promise<OtlpResult> {
  const exporters = opts.exporters ?? 10;
  const batch = opts.batch ?? 512;
  const count = opts.exportsPerExporter ?? 12;
  const send = (body: Buffer) =>
    fetch(`${opts.baseUrl}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf', authorization: `Bearer ${opts.token}` },
      body: new Uint8Array(body),
    });
  // one warm-up export (first use of the route and its statements), not measured
  await (await send(Buffer.from(ProtobufTraceSerializer.serializeRequest(traceSpans(99, 0, Date.now()))!))).arrayBuffer();
  const saturated = await phase(send, bodiesOf(0, exporters, count, batch), batch, opts.stats, null);
  const pacedBodies = bodiesOf(exporters, exporters, count, batch);
  const watch = await watchEpisodes(opts.baseUrl, opts.token);
  const answeredAt = new Map<string, number>();
  const paced = await phase(send, pacedBodies, batch, opts.stats, opts.rate ?? 2000, (body, at) => {
    for (const t of body.opens) answeredAt.set(t, at);
  });
  const delivery = await watch.finish(answeredAt);
  const c = new pg.Client({ connectionString: opts.databaseUrl });
  await c.connect();
  const counts = (
    await c.query<{ traces: number; episodes: number; segments: number }>(
      `SELECT (SELECT count(DISTINCT trace_id) FROM otlp_episodes)::int AS traces,
        (SELECT count(*) FROM otlp_episodes)::int AS episodes,
        (SELECT count(*) FROM episode_segments s JOIN otlp_episodes o ON o.episode_id = s.episode_id)::int AS segments`,
    )
  ).rows[0];
  await c.end();
  return { saturated, paced, delivery, ...counts };
}

/**
 * A subscriber of `episodeAdded` over WebSocket, open before the paced phase starts: it notes when
 * each trace's episode arrived. `finish` waits up to 5 s for the stragglers, then compares.
 */
async function watchEpisodes(baseUrl: string, token: string) {
  const arrived = new Map<string, number>();
  let ready!: () => void;
  const acked = new Promise<void>((r) => (ready = r));
  const client = createClient({
    url: baseUrl.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    connectionParams: { authorization: `Bearer ${token}` },
    on: { connected: () => ready() },
  });
  client.subscribe<{ episodeAdded: { executionIds: string[] } | null }>(
    { query: 'subscription { episodeAdded { executionIds } }' },
    {
      next: (e) => {
        const at = performance.now();
        for (const t of e.data?.episodeAdded?.executionIds ?? []) if (!arrived.has(t)) arrived.set(t, at);
      },
      error: (err) => console.error('episodeAdded subscription failed', err),
      complete: () => {},
    },
  );
  await acked;
  // the subscription is registered once the server has read the subscribe message
  await new Promise((r) => setTimeout(r, 500));
  return {
    async finish(answeredAt: Map<string, number>): Promise<OtlpDelivery> {
      const deadline = performance.now() + 5000;
      while (performance.now() < deadline && [...answeredAt.keys()].some((t) => !arrived.has(t)))
        await new Promise((r) => setTimeout(r, 50));
      await client.dispose();
      const lags = [...answeredAt].flatMap(([t, at]) => (arrived.has(t) ? [arrived.get(t)! - at] : []));
      return {
        expected: answeredAt.size,
        delivered: lags.length,
        missed: answeredAt.size - lags.length,
        p50: percentile(lags, 50),
        p99: percentile(lags, 99),
        max: lags.length ? Math.max(...lags) : 0,
      };
    },
  };
}

const bodiesOf = (first: number, exporters: number, count: number, batch: number) =>
  Array.from({ length: exporters }, (_, e) => exporterBodies(first + e, count, batch));

const phaseLine = (name: string, r: OtlpPhase) =>
  `${name}${r.offered ? ` at ${r.offered} spans/s offered` : ''}: ${r.exporters} exporters x ${r.exports / r.exporters} exports of ${r.batch} spans, ` +
  `${r.spansPerSecond.toFixed(0)} spans/s, export p50 ${r.p50.toFixed(0)} / p99 ${r.p99.toFixed(0)} / max ${r.max.toFixed(0)} ms, ${r.errors} errors, ` +
  `${r.statementsPerExport.toFixed(1)} statements and ${r.cpuMsPerExport.toFixed(1)} server CPU ms per export`;

export const otlpMarkdown = (r: OtlpResult) =>
  [
    phaseLine('OTLP ingest, saturated', r.saturated),
    phaseLine('OTLP ingest, paced', r.paced),
    `episodeAdded over WebSocket during the paced phase: ${r.delivery.delivered} of ${r.delivery.expected} episodes delivered ` +
      `(${r.delivery.missed} missed), export 200 to event p50 ${r.delivery.p50.toFixed(0)} / p99 ${r.delivery.p99.toFixed(0)} / max ${r.delivery.max.toFixed(0)} ms`,
    `${r.traces} traces became ${r.episodes} episodes with ${r.segments} segments`,
  ].join('\n');
