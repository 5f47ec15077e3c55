import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import express, { type NextFunction, type Request, type Response } from 'express';
import { StartupError } from '../core/errors';
import { portIsFree } from '../core/ports';
import { newRequestId, currentRequestScope, runInRequestScope } from '../core/request-scope';
import { migrationsApplied } from '../db/orm';
import { buildAppSchema } from '../graphql/build-schema';
import type { Context } from '../graphql/context.type';
import { makeContext, viewerFor } from '../graphql/context';
import { CompiledExecution } from '../graphql/compiled-execution';
import { formatGraphQLError } from '../graphql/errors';
import { LIMITS, limitRules } from '../graphql/limits';
import { embeddingMetrics } from '../modules/embeddings';
import type { Services } from '../graphql/services';
import type { Viewer } from '../modules/orgs';
import { documentLimits, documentRefusal } from './document-limits';
import { bodyRefusal, isPlainJsonPost, parseJsonBody, readBody, serveGraphql } from './graphql-post';
import { BudgetDoor } from './budget-door';
import { answerAndClose, bodyDeadline, hasBody, isClientAbort, logClientLeft, refusalBeforeBody } from './body-guard';
import { mountDashboard } from './dashboard';
import { admitHttpRequest, chargeHttpOperation } from './budget-guard';
import { Budgets, budgetStore, type OverBudget } from './budgets';
import { Metrics } from './metrics';
import { mountMetrics } from './metrics-endpoint';
import { operationPlugin } from './operation-plugin';
import { otlpTraces } from './otlp-route';
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
  /** drains HTTP and WebSocket traffic; safe to call more than once */
  stop(): Promise<void>;
}

function errorBody(status: number, code: string, message: string) {
  const scope = currentRequestScope();
  if (scope) scope.errorCode ??= code;
  return { status, body: { errors: [{ message, extensions: { code, requestId: scope?.requestId } }] } };
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

/** Express 5 + Apollo Server 5 on `/graphql`, graphql-ws on the same port and path, health and metrics. */
export async function startHttpServer(services: Services, port: number, host?: string): Promise<RunningServer> {
  const { config, log, orm } = services;
  const schema = buildAppSchema();
  // a busy port is said in one sentence before anything listens (the WebSocket server would
  // otherwise report the listen failure as an internal error of its own)
  if (port !== 0 && !(await portIsFree(port, host))) throw busyPort(port);
  const app = express();
  app.disable('x-powered-by');
  // no ETag on API answers: each would cost a hash of the whole body, and answers to POSTs are
  // never revalidated
  app.set('etag', false);
  // POST /graphql with a whole JSON body skips Express (see ./graphql-post.ts); once Apollo has started
  let plainPost: ((req: IncomingMessage, res: ServerResponse) => boolean) | null = null;
  // a request's headers and then its body must each arrive within BODY_TIMEOUT_MS (./body-guard.ts);
  // Node's own timeouts are the backstop, checked every second instead of every 30
  const bodyMs = config.bodyTimeoutMs;
  const httpServer = createServer(
    { headersTimeout: bodyMs, requestTimeout: 2 * bodyMs + 1000, connectionsCheckingInterval: 1000 },
    (req, res) => {
      bodyDeadline(req, res, bodyMs);
      if (!plainPost?.(req, res)) void app(req, res);
    },
  );
  const metrics = new Metrics(orm);
  for (const m of embeddingMetrics(services.embedder).all()) metrics.registry.registerMetric(m);
  const refused = (e: OverBudget) => metrics.budgetRefusals.inc({ scope: e.scope, budget: e.kind });
  const budgets = new Budgets(config.budgets, budgetStore(config.redisUrl, log), refused, config.runningSlots);
  const door = new BudgetDoor(refused);
  const ws = attachWebSocketServer(httpServer, schema, services, metrics, budgets);
  const revocations = services.bus.pubsub.subscribe('apiKeyRevoked');
  void (async () => {
    for await (const { apiKeyId } of revocations) {
      const keys = new Set([apiKeyId]);
      services.keyCache.forgetKeys(keys);
      ws.closeForKeys(keys);
    }
  })();

  const formatError = (error: unknown) => {
    const formatted = formatGraphQLError(error, { production: config.production, log });
    // the request's log line names the code of its first error
    const scope = currentRequestScope();
    if (scope) scope.errorCode ??= formatted.extensions?.code as string | undefined;
    return formatted;
  };
  const execution = new CompiledExecution(schema, config.compiledExecution, (plan) => metrics.executions.inc({ plan }));
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
    formatError: (_formatted, error) => formatError(error),
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer, stopGracePeriodMillis: config.shutdownGraceMs }),
      operationPlugin(
        metrics,
        (viewer, cost, authorization) => chargeHttpOperation(budgets, door, viewer, cost, authorization),
        formatError,
      ),
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

  // request id and one log line per request
  app.use(requestLog(log, metrics));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  let migrated = false;
  app.get('/readyz', async (_req, res) => {
    try {
      await orm.em.fork().execute('SELECT 1');
      migrated ||= await migrationsApplied(orm);
      if (!migrated) {
        res.status(503).json({ status: 'migrations pending' });
        return;
      }
      res.json({ status: 'ready' });
    } catch (err) {
      log.warn({ err }, 'readiness check failed');
      res.status(503).json({ status: 'database unreachable' });
    }
  });
  const metricsEndpoint = await mountMetrics(app, metrics, config, log);
  mountDashboard(app, { explorer: config.explorer });

  // the caller of a request with a body is known from its headers before the body is read: a
  // request without a valid key is answered at once and its connection closed, its body never read
  const viewers = new WeakMap<IncomingMessage, Viewer>();
  const authenticateFirst = async (req: IncomingMessage, res: ServerResponse): Promise<Viewer | null> => {
    try {
      return await viewerFor(services, req.headers.authorization);
    } catch (err) {
      const e = refusalBeforeBody(err, formatError);
      answerAndClose(res, e.status, e.body);
      return null;
    }
  };
  const graphqlContext = async (req: IncomingMessage, res: ServerResponse, bodyBytes: number) => {
    const viewer = viewers.get(req) ?? (await viewerFor(services, req.headers.authorization));
    await admitHttpRequest(budgets, door, viewer, req, res, bodyBytes);
    return makeContext(services, viewer, currentRequestScope()?.requestId ?? newRequestId());
  };
  app.use(
    '/graphql',
    door.middleware,
    (req: Request, res: Response, next: NextFunction) => {
      if (!hasBody(req)) return next(); // authenticated with the operation, as nothing waits to be read
      void authenticateFirst(req, res).then((viewer) => {
        if (!viewer) return;
        viewers.set(req, viewer);
        next();
      });
    },
    express.json({ limit: LIMITS.bodyBytes }),
    documentLimits(formatError),
    (req: Request, res: Response, next: NextFunction) => {
      serveGraphql(apollo, req, res, req.body, () => graphqlContext(req, res, requestBytes(req))).catch(next);
    },
  );

  // OpenTelemetry trace exports (./otlp-route.ts)
  const traces = otlpTraces(services, budgets, door, metrics);
  app.post('/v1/traces', door.middleware, (req: Request, res: Response, next: NextFunction) => traces(req, res, next));

  // failures outside GraphQL (a body too large or not JSON, an unexpected fault) in the GraphQL error shape
  const httpFailure = (err: { status?: number; message?: string }) => {
    const e =
      err.status === 413
        ? errorBody(413, 'PAYLOAD_TOO_LARGE', `request body exceeds ${LIMITS.bodyBytes} bytes`)
        : err.status && err.status < 500
          ? errorBody(err.status, 'BAD_REQUEST', err.message ?? 'bad request')
          : errorBody(500, 'INTERNAL_SERVER_ERROR', 'Unexpected error');
    if (e.status >= 500) log.error({ err }, 'unexpected HTTP error');
    return e;
  };
  const clientLeft = (err: unknown, req: IncomingMessage, res: ServerResponse) => logClientLeft(log, err, req, res);
  app.use((err: { status?: number; message?: string }, req: Request, res: Response, _next: NextFunction) => {
    if (isClientAbort(err, req)) return clientLeft(err, req, res);
    if (res.headersSent) {
      log.error({ err }, 'unexpected HTTP error after the answer started');
      return void res.destroy();
    }
    const e = httpFailure(err);
    sendJson(res, e.status, e.body);
  });

  // the request every GraphQL client sends, answered as the Express route above answers it
  const answerPlainPost = async (req: IncomingMessage, res: ServerResponse) => {
    const viewer = await authenticateFirst(req, res);
    if (!viewer) return;
    try {
      const raw = await readBody(req);
      const body = parseJsonBody(raw);
      if (body === undefined) {
        const e = httpFailure(await bodyRefusal(req, raw, LIMITS.bodyBytes));
        return sendJson(res, e.status, e.body);
      }
      const refused = documentRefusal((body as { query?: unknown }).query, formatError);
      if (refused) return sendJson(res, 400, { errors: [refused] });
      viewers.set(req, viewer);
      await serveGraphql(apollo, req, res, body, () => graphqlContext(req, res, raw.length));
    } catch (err) {
      if (isClientAbort(err, req)) return clientLeft(err, req, res);
      if (res.headersSent) return void res.destroy();
      const e = httpFailure(err as { status?: number; message?: string });
      sendJson(res, e.status, e.body);
    }
  };
  let plainPosts = 0;
  plainPost = (req, res) => {
    if (!isPlainJsonPost(req, LIMITS.bodyBytes) || !door.admits(req.headers.authorization)) return false;
    plainPosts += 1;
    const scope = logRequest(log, metrics, req, res, '/graphql');
    runInRequestScope(scope, () => void answerPlainPost(req, res));
    return true;
  };

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' || err.code === 'EACCES' ? busyPort(port, err.code) : err),
    );
    httpServer.listen(port, host, () => resolve());
  });
  const actualPort = (httpServer.address() as AddressInfo).port;

  let stopping: Promise<void> | null = null;
  return {
    httpServer,
    port: actualPort,
    url: `http://127.0.0.1:${actualPort}/graphql`,
    metrics,
    metricsUrl: metricsEndpoint.url,
    budgets,
    ws,
    plainPosts: () => plainPosts,
    stop: () =>
      (stopping ??= (async () => {
        await revocations.return?.();
        await ws.close();
        await apollo.stop(); // stops accepting, waits for in-flight requests up to the grace period
        await metricsEndpoint.close();
        await budgets.close();
      })()),
  };
}
