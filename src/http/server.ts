import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { StartupError } from '../core/errors';
import type { Logger } from '../core/logger';
import { portIsFree } from '../core/ports';
import { newRequestId, currentRequestScope, runInRequestScope } from '../core/request-scope';
import { migrationsApplied } from '../db/orm';
import { buildAppSchema } from '../graphql/build-schema';
import type { Context } from '../graphql/context.type';
import { CompiledExecution } from '../graphql/compiled-execution';
import { LIMITS, limitRules } from '../graphql/limits';
import { embeddingMetrics } from '../modules/embeddings';
import type { Services } from '../graphql/services';
import type { Viewer } from '../modules/orgs';
import { DirectPost, type DirectPostHost, directRequest } from './direct-post';
import { documentLimits, documentRefusal } from './document-limits';
import { admitHttpRequestNow } from './budget-guard';
import { bodyRefusal, isPlainJsonPost, parseJsonBody, readBody, serveGraphql } from './graphql-post';
import { answerAndClose, bodyDeadline, hasBody, isClientAbort, logClientLeft, refusalBeforeBody } from './body-guard';
import { mountDashboard } from './dashboard';
import type { Budgets } from './budgets';
import { Metrics } from './metrics';
import { mountMetrics } from './metrics-endpoint';
import { operationPlugin } from './operation-plugin';
import { otlpTraces } from './otlp-route';
import { Pipeline } from './pipeline';
import { logRequest, requestLog } from './request-log';
import { attachWebSocketServer, type GraphqlWsServer } from './ws';

export interface RunningServer {
  httpServer: Server;
  port: number;
  url: string;
  metrics: Metrics;
  /** the separate `/metrics` listener, when METRICS_PORT is set */
  metricsUrl: string | null;
  budgets: Budgets;
  ws: GraphqlWsServer;
  /** POSTs to /graphql served without Express (a whole JSON body, see ./graphql-post.ts) so far */
  plainPosts(): number;
  /** POSTs to /graphql answered by the direct path (./direct-post.ts) so far */
  directPosts(): number;
  /** drains HTTP and WebSocket traffic; safe to call more than once */
  stop(): Promise<void>;
}

type HttpError = { status?: number; message?: string };

function errorBody(status: number, code: string, message: string) {
  const scope = currentRequestScope();
  if (scope) scope.errorCode ??= code;
  return { status, body: { errors: [{ message, extensions: { code, requestId: scope?.requestId } }] } };
}

/** A failure outside GraphQL (a body too large or not JSON, an unexpected fault) in the GraphQL error shape. */
function httpFailure(log: Logger, err: HttpError) {
  const e =
    err.status === 413
      ? errorBody(413, 'PAYLOAD_TOO_LARGE', `request body exceeds ${LIMITS.bodyBytes} bytes`)
      : err.status && err.status < 500
        ? errorBody(err.status, 'BAD_REQUEST', err.message ?? 'bad request')
        : errorBody(500, 'INTERNAL_SERVER_ERROR', 'Unexpected error');
  if (e.status >= 500) log.error({ err }, 'unexpected HTTP error');
  return e;
}

/** The bytes of a request's body that Express read: its declared length, else (chunked) the parsed body's size. */
function requestBytes(req: Request): number {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > 0) return declared;
  return req.body === undefined ? 0 : Buffer.byteLength(JSON.stringify(req.body));
}

/** A JSON answer, as Express's `res.json` writes it. */
function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

const busyPort = (port: number, code = 'EADDRINUSE') =>
  new StartupError(
    `port ${port} (PORT) ${code === 'EACCES' ? 'may not be used by this user' : 'is in use by another program'}: set PORT to a free port`,
  );

/** Apollo Server over the pipeline: the limits as validation rules, the cost charged once the operation is resolved. */
async function startApollo(
  httpServer: Server,
  pipeline: Pipeline,
  metrics: Metrics,
  execution: CompiledExecution,
): Promise<ApolloServer<Context>> {
  const { config, log } = pipeline.services;
  const apollo = new ApolloServer<Context>({
    gateway: execution.gateway(),
    introspection: !config.production,
    hideSchemaDetailsFromClientErrors: config.production,
    includeStacktraceInErrorResponses: false,
    csrfPrevention: true,
    // automatic persisted queries are off: no client of this API sends hashes instead of documents,
    // and their cache would be one more store a caller fills (a hash sent is PERSISTED_QUERY_NOT_SUPPORTED)
    persistedQueries: false,
    stopOnTerminationSignals: false, // main.ts owns signal handling (drain, then exit 0)
    validationRules: limitRules,
    formatError: (_formatted, error) => pipeline.formatError(error),
    stringifyResult: pipeline.answerText,
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer, stopGracePeriodMillis: config.shutdownGraceMs }),
      operationPlugin(metrics, (viewer, cost, authorization) => pipeline.chargeHttp(viewer, cost, authorization), pipeline.formatError),
      // no HTTP cache hints are served; the cache-control plugin would wrap every field resolver
      // of the schema (HTTP and WebSocket) with a per-field hook
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      // browsers get the bundled explorer (./dashboard.ts) instead of a page loaded from a CDN
      ApolloServerPluginLandingPageDisabled(),
    ],
    logger: log,
  });
  await apollo.start();
  return apollo;
}

/** `/healthz` (the process answers) and `/readyz` (the database answers and its migrations are applied). */
function mountHealth(app: Express, services: Services): void {
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  let migrated = false;
  app.get('/readyz', async (_req, res) => {
    try {
      await services.orm.em.fork().execute('SELECT 1');
      migrated ||= await migrationsApplied(services.orm);
      if (!migrated) {
        res.status(503).json({ status: 'migrations pending' });
        return;
      }
      res.json({ status: 'ready' });
    } catch (err) {
      services.log.warn({ err }, 'readiness check failed');
      res.status(503).json({ status: 'database unreachable' });
    }
  });
}

/**
 * The HTTP transport of `/graphql` over the pipeline: the caller of a request with a body is
 * known from its headers before the body is read (a request without a valid key is answered at
 * once and its connection closed, its body never read); the rest goes through Apollo Server. A
 * POST with a whole JSON body skips Express (`plainPost`); every other request takes `route`.
 */
class GraphqlHttp {
  private readonly viewers = new WeakMap<IncomingMessage, Viewer>();
  posts = 0;
  /** the direct path of plain POSTs (GRAPHQL_DIRECT_POST), off once the server stops */
  direct: DirectPost | null;
  /** Express's handlers of `/graphql`, after the door. */
  readonly route: express.RequestHandler[];
  /** characters of a long answer written at a time (SLICE_CHARS) */
  private readonly sliceChars: number;

  constructor(
    private readonly pipeline: Pipeline,
    private readonly apollo: ApolloServer<Context>,
    private readonly metrics: Metrics,
    execution: CompiledExecution,
  ) {
    this.direct = pipeline.services.config.directPost ? new DirectPost(pipeline, execution, metrics) : null;
    this.sliceChars = pipeline.services.config.slices.chars;
    this.route = [
      (req, res, next) => {
        if (!hasBody(req)) return next(); // authenticated with the operation, as nothing waits to be read
        void this.authenticateFirst(req, res).then((viewer) => {
          if (!viewer) return;
          this.viewers.set(req, viewer);
          next();
        });
      },
      express.json({ limit: LIMITS.bodyBytes }),
      documentLimits(pipeline.formatError),
      (req, res, next) => {
        serveGraphql(this.apollo, req, res, req.body, () => this.context(req, res, requestBytes(req)), this.sliceChars).catch(next);
      },
    ];
  }

  /** authenticate: the caller, or null once the request was answered and its connection closed */
  private async authenticateFirst(req: IncomingMessage, res: ServerResponse): Promise<Viewer | null> {
    try {
      return await this.pipeline.authenticate(req.headers.authorization);
    } catch (err) {
      const e = refusalBeforeBody(err, this.pipeline.formatError);
      answerAndClose(res, e.status, e.body);
      return null;
    }
  }

  /** admit, then a context to execute with (Apollo asks for it before parsing the document) */
  private async context(req: IncomingMessage, res: ServerResponse, bodyBytes: number): Promise<Context> {
    const viewer = this.viewers.get(req) ?? (await this.pipeline.authenticate(req.headers.authorization));
    const slot = await this.pipeline.admitHttp(viewer, req, res, bodyBytes);
    return this.pipeline.context(viewer, currentRequestScope()?.requestId ?? newRequestId(), slot.aside);
  }

  private failed(req: IncomingMessage, res: ServerResponse, err: unknown): void {
    const log = this.pipeline.services.log;
    if (isClientAbort(err, req)) return logClientLeft(log, err, req, res);
    if (res.headersSent) return void res.destroy();
    const e = httpFailure(log, err as HttpError);
    sendJson(res, e.status, e.body);
  }

  /** The request every GraphQL client sends, answered as the Express route answers it; false for any other. */
  readonly plainPost = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!isPlainJsonPost(req, LIMITS.bodyBytes) || !this.pipeline.door.admits(req.headers.authorization)) return false;
    this.posts += 1;
    const scope = logRequest(this.pipeline.services.log, this.metrics, req, res, '/graphql');
    runInRequestScope(scope, () => void this.answerPlainPost(req, res));
    return true;
  };

  private async answerPlainPost(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const viewer = this.pipeline.authenticateNow(req.headers.authorization) ?? (await this.authenticateFirst(req, res));
    if (!viewer) return;
    try {
      const raw = await readBody(req);
      const body = parseJsonBody(raw);
      if (body === undefined) {
        const e = httpFailure(this.pipeline.services.log, await bodyRefusal(req, raw, LIMITS.bodyBytes));
        return sendJson(res, e.status, e.body);
      }
      const request = this.direct ? directRequest(req, body) : null;
      if (this.direct && request) return await this.direct.answer(req, res, request, this.directHost(req, res, body, raw.length, viewer));
      if (this.refuseOverLimits(res, body)) return;
      this.viewers.set(req, viewer);
      await serveGraphql(this.apollo, req, res, body, () => this.context(req, res, raw.length), this.sliceChars);
    } catch (err) {
      this.failed(req, res, err);
    }
  }

  /** answers a document over the token and nesting limits with 400; false when it is within them */
  private refuseOverLimits(res: ServerResponse, body: unknown): boolean {
    const refused = documentRefusal((body as { query?: unknown }).query, this.pipeline.formatError);
    if (refused) sendJson(res, 400, { errors: [refused] });
    return refused !== null;
  }

  /** What the direct path asks of this transport for one request. */
  private directHost(req: IncomingMessage, res: ServerResponse, body: unknown, bodyBytes: number, viewer: Viewer): DirectPostHost {
    const { budgets, door } = this.pipeline;
    return {
      admit: () => admitHttpRequestNow(budgets, door, viewer, req, res, bodyBytes),
      context: (aside) => this.pipeline.context(viewer, currentRequestScope()?.requestId ?? newRequestId(), aside),
      viaApollo: (context) => serveGraphql(this.apollo, req, res, body, context, this.sliceChars),
      refuseOverLimits: () => this.refuseOverLimits(res, body),
    };
  }

  /** Express's last handler: failures outside GraphQL in the GraphQL error shape. */
  readonly errors = (err: HttpError, req: Request, res: Response, _next: NextFunction) => {
    if (!isClientAbort(err, req) && res.headersSent) {
      this.pipeline.services.log.error({ err }, 'unexpected HTTP error after the answer started');
      return void res.destroy();
    }
    this.failed(req, res, err);
  };
}

/** The HTTP server: a request's headers and then its body must each arrive within BODY_TIMEOUT_MS (./body-guard.ts). */
function createHttpServer(services: Services, handle: (req: IncomingMessage, res: ServerResponse) => void): Server {
  const bodyMs = services.config.bodyTimeoutMs;
  // Node's own timeouts are the backstop, checked every second instead of every 30
  return createServer({ headersTimeout: bodyMs, requestTimeout: 2 * bodyMs + 1000, connectionsCheckingInterval: 1000 }, (req, res) => {
    bodyDeadline(req, res, bodyMs);
    handle(req, res);
  });
}

/** A revoked key's sockets are closed, and it is forgotten by the key cache. */
function watchRevocations(services: Services, ws: GraphqlWsServer) {
  const revocations = services.bus.pubsub.subscribe('apiKeyRevoked');
  void (async () => {
    for await (const { apiKeyId } of revocations) {
      const keys = new Set([apiKeyId]);
      services.keyCache.forgetKeys(keys);
      ws.closeForKeys(keys);
    }
  })();
  return revocations;
}

async function listen(httpServer: Server, port: number, host: string | undefined): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' || err.code === 'EACCES' ? busyPort(port, err.code) : err),
    );
    httpServer.listen(port, host, () => resolve());
  });
  return (httpServer.address() as AddressInfo).port;
}

/** Express 5 + Apollo Server 5 on `/graphql`, graphql-ws on the same port and path, health and metrics. */
export async function startHttpServer(services: Services, port: number, host?: string): Promise<RunningServer> {
  const { config, log, orm } = services;
  // a busy port is said in one sentence before anything listens (the WebSocket server would
  // otherwise report the listen failure as an internal error of its own)
  if (port !== 0 && !(await portIsFree(port, host))) throw busyPort(port);
  const app = express();
  app.disable('x-powered-by');
  // no ETag on API answers: each would cost a hash of the whole body, and answers to POSTs are never revalidated
  app.set('etag', false);
  let graphql: GraphqlHttp | null = null; // once Apollo has started
  const httpServer = createHttpServer(services, (req, res) => {
    if (!graphql?.plainPost(req, res)) void app(req, res);
  });
  const metrics = new Metrics(orm);
  for (const m of embeddingMetrics(services.embedder).all()) metrics.registry.registerMetric(m);
  const pipeline = new Pipeline(services, buildAppSchema(), metrics);
  const ws = attachWebSocketServer(httpServer, pipeline, metrics);
  const revocations = watchRevocations(services, ws);
  const execution = new CompiledExecution(pipeline.schema, config.compiledExecution, (plan) => metrics.executions.inc({ plan }));
  const apollo = await startApollo(httpServer, pipeline, metrics, execution);
  const http = new GraphqlHttp(pipeline, apollo, metrics, execution);
  const direct = http.direct;
  app.use(requestLog(log, metrics)); // request id and one log line per request
  mountHealth(app, services);
  const metricsEndpoint = await mountMetrics(app, metrics, config, log);
  mountDashboard(app, { explorer: config.explorer });
  app.use('/graphql', pipeline.door.middleware, ...http.route);
  // OpenTelemetry trace exports (./otlp-route.ts)
  const traces = otlpTraces(services, pipeline.budgets, pipeline.door, metrics);
  app.post('/v1/traces', pipeline.door.middleware, (req: Request, res: Response, next: NextFunction) => traces(req, res, next));
  app.use(http.errors);
  graphql = http;
  const actualPort = await listen(httpServer, port, host);
  let stopping: Promise<void> | null = null;
  return {
    httpServer,
    port: actualPort,
    url: `http://127.0.0.1:${actualPort}/graphql`,
    metrics,
    metricsUrl: metricsEndpoint.url,
    budgets: pipeline.budgets,
    ws,
    plainPosts: () => http.posts,
    directPosts: () => direct?.answered ?? 0,
    stop: () =>
      (stopping ??= (async () => {
        await revocations.return?.();
        await ws.close();
        http.direct = null; // a request that comes while the server drains is Apollo Server's to answer
        await apollo.stop(); // stops accepting, waits for in-flight requests up to the grace period
        await metricsEndpoint.close();
        await pipeline.budgets.close();
      })()),
  };
}
