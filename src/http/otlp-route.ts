import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { GraphQLError } from 'graphql';
import { Counter } from 'prom-client';
import { currentRequestScope } from '../core/request-scope';
import { isDatabaseUnavailable } from '../db/unavailable';
import { quotaRefusalOf } from '../db/quota';
import { viewerFor } from '../graphql/context';
import type { Services } from '../graphql/services';
import { CAN } from '../modules/orgs';
import { decodeJson, decodeProtobuf, exportResponse, ingestSpans, UndecodableExport } from '../modules/otlp';
import { answerAndClose, clientAbort } from './body-guard';
import type { BudgetDoor } from './budget-door';
import { admitHttpRequest } from './budget-guard';
import type { Budgets } from './budgets';
import type { Metrics } from './metrics';

const inflate = promisify(gunzip);

/** An OTLP/HTTP refusal: its status and the `google.rpc.Status` JSON body the specification asks for. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

// google.rpc.Status codes of the refusals, by HTTP status
const RPC_CODES: Record<number, number> = { 400: 3, 401: 16, 403: 7, 413: 3, 415: 3, 429: 8, 500: 13, 503: 14 };

/** The body, read only up to `max` bytes: a longer one is refused without reading the rest. */
function readBounded(req: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        ended = true;
        req.pause();
        reject(new Refusal(413, `the export exceeds ${max} bytes (OTLP_MAX_BODY_BYTES)`));
      } else chunks.push(c);
    });
    req.on('end', () => {
      ended = true;
      resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
    req.on('close', () => ended || reject(clientAbort()));
  });
}

/** Gunzips at most `max` bytes: inflating stops as soon as the output passes it (a zip bomb is never inflated whole). */
async function decompress(body: Buffer, encoding: string, max: number): Promise<Buffer> {
  if (encoding === '' || encoding === 'identity') return body;
  if (encoding !== 'gzip') throw new Refusal(415, `Content-Encoding ${encoding} is not supported: send gzip or none`);
  try {
    return await inflate(body, { maxOutputLength: max });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError)
      throw new Refusal(413, `the export decompresses past ${max} bytes (OTLP_MAX_BODY_BYTES)`);
    throw new Refusal(400, `the body is not valid gzip: ${(err as Error).message}`);
  }
}

/** Counts of spans by what became of them, on `/metrics`. */
function spanCounter(metrics: Metrics): Counter<'outcome'> {
  const existing = metrics.registry.getSingleMetric('otlp_spans_total');
  if (existing) return existing as Counter<'outcome'>;
  return new Counter({
    name: 'otlp_spans_total',
    help: 'OTLP spans received, by outcome: stored, repeated (sent again), ignored (no GenAI attributes), late (trace closed), rejected (invalid ids or over quota)',
    labelNames: ['outcome'] as const,
    registers: [metrics.registry],
  });
}

/**
 * POST /v1/traces: OTLP/HTTP trace exports (protobuf or JSON, gzip or not) turned into episodes of
 * the caller's organization (src/modules/otlp). The caller is known from its headers before the body
 * is read; the request is admitted by the same budgets as a GraphQL request.
 */
export function otlpTraces(services: Services, budgets: Budgets, door: BudgetDoor, metrics: Metrics) {
  const spans = spanCounter(metrics);
  const max = services.config.otlp.maxBodyBytes;
  const refuse = (res: ServerResponse, e: Refusal) => {
    const scope = currentRequestScope();
    if (scope) scope.errorCode ??= `OTLP_${e.status}`;
    if (e.retryAfterSeconds !== null) res.setHeader('Retry-After', String(e.retryAfterSeconds));
    answerAndClose(res, e.status, { code: RPC_CODES[e.status] ?? 2, message: e.message });
  };
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    const protobuf = type === 'application/x-protobuf';
    if (!protobuf && type !== 'application/json') throw new Refusal(415, 'Content-Type must be application/x-protobuf or application/json');
    const encoding = String(req.headers['content-encoding'] ?? '')
      .trim()
      .toLowerCase();
    let viewer;
    try {
      viewer = await viewerFor(services, req.headers.authorization);
    } catch (err) {
      const status = err instanceof GraphQLError ? ((err.extensions.http as { status?: number } | undefined)?.status ?? 500) : 500;
      throw new Refusal(status, err instanceof Error ? err.message : 'unexpected error');
    }
    if (!(CAN.agentWrite as readonly string[]).includes(viewer.role))
      throw new Refusal(403, `an API key of role ${viewer.role} may not send traces: use an AGENT or INTEGRATOR key`);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) throw new Refusal(413, `the export exceeds ${max} bytes (OTLP_MAX_BODY_BYTES)`);
    try {
      await admitHttpRequest(budgets, door, viewer, req, res, Number.isFinite(declared) ? declared : 0);
    } catch (err) {
      if (err instanceof GraphQLError && err.extensions.code === 'RATE_LIMITED')
        throw new Refusal(429, err.message, Math.max(1, Math.ceil(Number(err.extensions.retryAfterMs) / 1000)));
      throw err;
    }
    const body = await decompress(await readBounded(req, max), encoding, max);
    let decoded;
    try {
      decoded = protobuf ? decodeProtobuf(body) : decodeJson(body);
    } catch (err) {
      if (err instanceof UndecodableExport) throw new Refusal(400, err.message);
      throw err;
    }
    let rejected = decoded.rejected;
    let reason = decoded.reason;
    try {
      const r = await ingestSpans(services.orm.em.fork(), viewer.orgId, decoded.spans, services);
      spans.inc({ outcome: 'stored' }, r.stored);
      spans.inc({ outcome: 'repeated' }, r.repeated);
      spans.inc({ outcome: 'ignored' }, r.ignored);
      spans.inc({ outcome: 'late' }, r.late);
    } catch (err) {
      const quota = quotaRefusalOf(err);
      if (quota) {
        // refused for good, not to be retried: every span of the export is reported as rejected
        rejected += decoded.spans.length;
        reason = quota.message;
      } else if (isDatabaseUnavailable(err)) throw new Refusal(503, 'the database is unavailable; retry later', 5);
      else throw err;
    }
    spans.inc({ outcome: 'rejected' }, rejected);
    const answer = exportResponse(rejected, reason, protobuf);
    res.statusCode = 200;
    res.setHeader('Content-Type', protobuf ? 'application/x-protobuf' : 'application/json');
    res.setHeader('Content-Length', answer.length);
    res.end(answer);
  };
  return (req: IncomingMessage, res: ServerResponse, fail: (err: unknown) => void): void => {
    serve(req, res).catch((err: unknown) => {
      if (err instanceof Refusal && !res.headersSent) return refuse(res, err);
      fail(err);
    });
  };
}
