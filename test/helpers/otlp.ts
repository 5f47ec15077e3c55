import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Attributes, type HrTime, SpanKind, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** A recorded trace: its resource and its spans, times in milliseconds from the trace start. */
export interface TraceFixture {
  resource: Attributes;
  spans: {
    spanId: string;
    parentSpanId: string | null;
    name: string;
    start: number;
    end: number;
    attributes: Attributes;
    events?: { name: string; at: number; attributes: Attributes }[];
    error?: string;
  }[];
}

export const fixture = (name: string): TraceFixture =>
  JSON.parse(readFileSync(join(__dirname, '../fixtures/otlp', `${name}.json`), 'utf8')) as TraceFixture;

export const newTraceId = () => randomBytes(16).toString('hex');

const hr = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

/** The fixture's spans as the SDK's finished spans of trace `traceId`, started at `t0` (ms since the epoch). */
export function readableSpans(f: TraceFixture, traceId: string, t0 = Date.now() - 60_000): ReadableSpan[] {
  const resource = resourceFromAttributes(f.resource);
  return f.spans.map((s) => ({
    name: s.name,
    kind: SpanKind.INTERNAL,
    spanContext: () => ({ traceId, spanId: s.spanId, traceFlags: TraceFlags.SAMPLED }),
    parentSpanContext: s.parentSpanId ? { traceId, spanId: s.parentSpanId, traceFlags: TraceFlags.SAMPLED } : undefined,
    startTime: hr(t0 + s.start),
    endTime: hr(t0 + s.end),
    status: s.error ? { code: SpanStatusCode.ERROR, message: s.error } : { code: SpanStatusCode.UNSET },
    attributes: s.attributes,
    links: [],
    events: (s.events ?? []).map((e) => ({ name: e.name, time: hr(t0 + e.at), attributes: e.attributes })),
    duration: hr(s.end - s.start),
    ended: true,
    resource,
    instrumentationScope: { name: 'fixture' },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  }));
}

/** Sends spans with the OpenTelemetry JS OTLP exporter (protobuf or JSON, gzip or not); resolves with its result. */
export async function exportSpans(
  baseUrl: string,
  token: string,
  spans: ReadableSpan[],
  opts: { json?: boolean; gzip?: boolean } = {},
): Promise<{ code: number; error?: Error }> {
  const config = {
    url: `${baseUrl}/v1/traces`,
    headers: { Authorization: `Bearer ${token}` },
    compression: opts.gzip ? CompressionAlgorithm.GZIP : CompressionAlgorithm.NONE,
  };
  const exporter = opts.json ? new JsonExporter(config) : new ProtoExporter(config);
  try {
    return await new Promise((resolve) => exporter.export(spans, resolve));
  } finally {
    await exporter.shutdown();
  }
}

/** The bytes the exporters send for these spans (their own serializers). */
export const protobufBody = (spans: ReadableSpan[]) => Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
export const jsonBody = (spans: ReadableSpan[]) => Buffer.from(JsonTraceSerializer.serializeRequest(spans)!);

/** One POST to /v1/traces. */
export async function postTraces(
  baseUrl: string,
  token: string | null,
  body: Buffer | string,
  headers: Record<string, string> = { 'content-type': 'application/x-protobuf' },
): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(`${baseUrl}/v1/traces`, {
    method: 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}
