import * as root from '@opentelemetry/otlp-transformer/build/src/generated/root';

/** An attribute value as the mapping reads it: OTLP's AnyValue with 64-bit integers as numbers and bytes as base64. */
export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };
export type Attrs = Record<string, AttrValue>;

/** One span of an export, the same whether it came as protobuf or as JSON. */
export interface SpanIn {
  /** 32 lower-case hex digits */
  traceId: string;
  /** 16 lower-case hex digits */
  spanId: string;
  /** '' for a root span */
  parentSpanId: string;
  name: string;
  startMs: number;
  endMs: number;
  /** 2 is an error (OTLP's STATUS_CODE_ERROR) */
  statusCode: number;
  statusMessage: string;
  attributes: Attrs;
  events: { name: string; timeMs: number; attributes: Attrs }[];
  resource: Attrs;
}

/** The spans of an export, and how many were refused (no valid trace or span id) with why. */
export interface DecodedExport {
  spans: SpanIn[];
  rejected: number;
  reason: string | null;
}

/** The body could not be read as an OTLP trace export: answered 400. */
export class UndecodableExport extends Error {}

// The generated protobufjs code and message definitions that OpenTelemetry JS ships in
// @opentelemetry/otlp-transformer; its typings name only the root, so the shapes read are stated here.
interface Long {
  toNumber(): number;
}
interface PbAnyValue {
  value?: string;
  stringValue?: string;
  boolValue?: boolean;
  intValue?: Long | number;
  doubleValue?: number;
  bytesValue?: Uint8Array;
  arrayValue?: { values?: PbAnyValue[] };
  kvlistValue?: { values?: PbKeyValue[] };
}
interface PbKeyValue {
  key?: string;
  value?: PbAnyValue | null;
}
interface PbSpan {
  traceId?: Uint8Array;
  spanId?: Uint8Array;
  parentSpanId?: Uint8Array;
  name?: string;
  startTimeUnixNano?: Long | number;
  endTimeUnixNano?: Long | number;
  attributes?: PbKeyValue[];
  events?: { name?: string; timeUnixNano?: Long | number; attributes?: PbKeyValue[] }[];
  status?: { code?: number; message?: string } | null;
}
interface PbRequest {
  resourceSpans?: { resource?: { attributes?: PbKeyValue[] } | null; scopeSpans?: { spans?: PbSpan[] }[] }[];
}
interface MessageType<T> {
  decode(bytes: Uint8Array): T;
  encode(message: T): { finish(): Uint8Array };
}
const collector = (
  root as unknown as {
    opentelemetry: {
      proto: {
        collector: {
          trace: {
            v1: {
              ExportTraceServiceRequest: MessageType<PbRequest>;
              ExportTraceServiceResponse: MessageType<{ partialSuccess?: { rejectedSpans: number; errorMessage: string } }>;
            };
          };
        };
      };
    };
  }
).opentelemetry.proto.collector.trace.v1;

// NUL and unpaired surrogates: PostgreSQL's text and jsonb hold neither, so they become U+FFFD
const UNSTORABLE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\0/g;
const clean = (s: string): string => s.replace(UNSTORABLE, '\ufffd');

const num = (v: Long | number | string | null | undefined): number =>
  v === null || v === undefined ? 0 : typeof v === 'object' ? v.toNumber() : Number(v);
const nsToMs = (v: Long | number | string | null | undefined): number => {
  const n = num(v);
  return Number.isFinite(n) ? n / 1e6 : 0;
};
const hex = (b: Uint8Array | undefined): string => (b && b.length > 0 ? Buffer.from(b.buffer, b.byteOffset, b.length).toString('hex') : '');

function pbValue(v: PbAnyValue | null | undefined): AttrValue {
  if (!v) return null;
  switch (v.value) {
    case 'stringValue':
      return clean(v.stringValue ?? '');
    case 'boolValue':
      return v.boolValue ?? false;
    case 'intValue':
      return num(v.intValue);
    case 'doubleValue':
      return v.doubleValue ?? 0;
    case 'bytesValue':
      return Buffer.from(v.bytesValue ?? []).toString('base64');
    case 'arrayValue':
      return (v.arrayValue?.values ?? []).map(pbValue);
    case 'kvlistValue':
      return pbAttrs(v.kvlistValue?.values);
    default:
      return null;
  }
}
function pbAttrs(list: PbKeyValue[] | undefined): Attrs {
  const out: Attrs = {};
  for (const kv of list ?? []) if (kv.key) out[clean(kv.key)] = pbValue(kv.value);
  return out;
}

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** Keeps the spans with valid ids; counts the others. */
function collect(spans: SpanIn[]): DecodedExport {
  const valid = spans.filter(
    (s) => TRACE_ID.test(s.traceId) && s.traceId !== ZERO_TRACE && SPAN_ID.test(s.spanId) && s.spanId !== ZERO_SPAN,
  );
  const rejected = spans.length - valid.length;
  return {
    spans: valid,
    rejected,
    reason: rejected > 0 ? 'a span without a valid trace id (16 bytes) and span id (8 bytes) is refused' : null,
  };
}

/** An `ExportTraceServiceRequest` in protobuf; throws UndecodableExport for bytes that are not one. */
export function decodeProtobuf(body: Uint8Array): DecodedExport {
  let req: PbRequest;
  try {
    req = collector.ExportTraceServiceRequest.decode(body);
  } catch (err) {
    throw new UndecodableExport(`the body is not an OTLP ExportTraceServiceRequest in protobuf: ${(err as Error).message}`);
  }
  const spans: SpanIn[] = [];
  for (const rs of req.resourceSpans ?? []) {
    const resource = pbAttrs(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? [])
        spans.push({
          traceId: hex(s.traceId),
          spanId: hex(s.spanId),
          parentSpanId: hex(s.parentSpanId),
          name: clean(s.name ?? ''),
          startMs: nsToMs(s.startTimeUnixNano),
          endMs: nsToMs(s.endTimeUnixNano),
          statusCode: s.status?.code ?? 0,
          statusMessage: clean(s.status?.message ?? ''),
          attributes: pbAttrs(s.attributes),
          events: (s.events ?? []).map((e) => ({
            name: clean(e.name ?? ''),
            timeMs: nsToMs(e.timeUnixNano),
            attributes: pbAttrs(e.attributes),
          })),
          resource,
        });
  }
  return collect(spans);
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? clean(v) : '');
const jsonNs = (v: unknown): number => nsToMs(typeof v === 'string' || typeof v === 'number' ? v : 0);

/** A status code as a number, or as the enum's name some encoders write. */
const statusCode = (v: unknown): number =>
  v === 'STATUS_CODE_ERROR' ? 2 : v === 'STATUS_CODE_OK' ? 1 : typeof v === 'number' || typeof v === 'string' ? Number(v) || 0 : 0;

function jsonValue(v: unknown): AttrValue {
  const o = obj(v);
  if ('stringValue' in o) return str(o.stringValue);
  if ('boolValue' in o) return o.boolValue === true;
  if ('intValue' in o) return Number(o.intValue);
  if ('doubleValue' in o) return Number(o.doubleValue);
  if ('bytesValue' in o) return str(o.bytesValue);
  if ('arrayValue' in o) return arr(obj(o.arrayValue).values).map(jsonValue);
  if ('kvlistValue' in o) return jsonAttrs(obj(o.kvlistValue).values);
  return null;
}
function jsonAttrs(list: unknown): Attrs {
  const out: Attrs = {};
  for (const kv of arr(list)) {
    const key = str(obj(kv).key);
    if (key) out[key] = jsonValue(obj(kv).value);
  }
  return out;
}

/**
 * An `ExportTraceServiceRequest` in the JSON form of OTLP/HTTP (proto3 JSON with lowerCamelCase
 * names, trace and span ids as hex); throws UndecodableExport when the text is not JSON of that shape.
 */
export function decodeJson(body: Buffer): DecodedExport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new UndecodableExport(`the body is not JSON: ${(err as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UndecodableExport('the body is not an OTLP ExportTraceServiceRequest: a JSON object with resourceSpans');
  const spans: SpanIn[] = [];
  for (const rs of arr((parsed as Json).resourceSpans)) {
    const resource = jsonAttrs(obj(obj(rs).resource).attributes);
    for (const ss of arr(obj(rs).scopeSpans))
      for (const raw of arr(obj(ss).spans)) {
        const s = obj(raw);
        spans.push({
          traceId: str(s.traceId).toLowerCase(),
          spanId: str(s.spanId).toLowerCase(),
          parentSpanId: str(s.parentSpanId).toLowerCase(),
          name: str(s.name),
          startMs: jsonNs(s.startTimeUnixNano),
          endMs: jsonNs(s.endTimeUnixNano),
          statusCode: statusCode(obj(s.status).code),
          statusMessage: str(obj(s.status).message),
          attributes: jsonAttrs(s.attributes),
          events: arr(s.events).map((e) => ({
            name: str(obj(e).name),
            timeMs: jsonNs(obj(e).timeUnixNano),
            attributes: jsonAttrs(obj(e).attributes),
          })),
          resource,
        });
      }
  }
  return collect(spans);
}

/** The `ExportTraceServiceResponse` of an export, in protobuf or in JSON. */
export function exportResponse(rejected: number, reason: string | null, protobuf: boolean): Buffer {
  const partialSuccess = rejected > 0 || reason ? { rejectedSpans: rejected, errorMessage: reason ?? '' } : undefined;
  if (protobuf) return Buffer.from(collector.ExportTraceServiceResponse.encode(partialSuccess ? { partialSuccess } : {}).finish());
  return Buffer.from(JSON.stringify(partialSuccess ? { partialSuccess } : {}));
}
