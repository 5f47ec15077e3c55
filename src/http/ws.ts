import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import {
  type DocumentNode,
  execute,
  type ExecutionArgs,
  getOperationAST,
  GraphQLError,
  type GraphQLSchema,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import { CloseCode, type Context as WsContext } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { Gauge } from 'prom-client';
import { WebSocket, WebSocketServer } from 'ws';
import { newRequestId } from '../core/request-scope';
import { isSharedStream } from '../core/shared-stream';
import type { Context } from '../graphql/context.type';
import { eventContext, makeContext, viewerFor } from '../graphql/context';
import { formatGraphQLError } from '../graphql/errors';
import { collapseTooLarge } from '../graphql/response-size';
import { checkOperation, checkSource, LIMITS, limitRules } from '../graphql/limits';
import type { Services } from '../graphql/services';
import type { Viewer } from '../modules/orgs';
import type { Budgets } from './budgets';
import type { Metrics } from './metrics';
import { admitOperation, KeyCaps, refuseOperation } from './ws-caps';
import { rootFieldNames, SubscriptionHub, subscribeEach } from './subscription-hub';
import { SocketOutbox } from './ws-outbox';
import { SocketKeys } from './ws-keys';

/** The subscription fields marked as broadcasts: their subscribers may share one stream. */
function sharedStreamFields(schema: GraphQLSchema): Set<string> {
  return new Set(
    Object.values(schema.getSubscriptionType()?.getFields() ?? {})
      .filter((f) => isSharedStream(f.extensions))
      .map((f) => f.name),
  );
}

export interface SocketState {
  viewer?: Viewer;
  operations: Set<string>;
}

export interface GraphqlWsServer {
  /** closes every socket with 1001 and stops accepting new ones */
  close(): Promise<void>;
  /** closes the sockets opened with these API keys (4403) */
  closeForKeys(keyIds: Set<string>): void;
  /** bytes waiting to be sent over every open socket: results queued for them and frames not yet written */
  pendingBytes(): number;
}

/**
 * graphql-ws on the HTTP server's `/graphql`: auth in `connection_init`, and the same limits,
 * error shape and per-operation context as HTTP (Apollo's plugins do not run here).
 */
/**
 * The `authorization` connection parameter, whatever the case of its name (`Authorization` as on
 * HTTP is common); an exact `authorization` wins over other spellings.
 */
function authorizationParam(params: Readonly<Record<string, unknown>> | undefined): unknown {
  if (!params) return undefined;
  if ('authorization' in params) return params.authorization;
  const key = Object.keys(params).find((k) => k.toLowerCase() === 'authorization');
  return key === undefined ? undefined : params[key];
}

export function attachWebSocketServer(
  httpServer: Server,
  schema: GraphQLSchema,
  services: Services,
  metrics: Metrics,
  budgets: Budgets,
): GraphqlWsServer {
  const production = services.config.production;
  const rules = [...specifiedRules, ...limitRules, ...(production ? [NoSchemaIntrospectionCustomRule] : [])];
  const wss = new WebSocketServer({ server: httpServer, path: '/graphql', maxPayload: LIMITS.wsMessageBytes });
  const states = new Map<WebSocket, SocketState>();
  const format = (errors: readonly unknown[], requestId: string) =>
    errors.map((e) => formatGraphQLError(e, { production, log: services.log }, requestId));
  const refuse = (message: string, code: string) => [new GraphQLError(message, { extensions: { code } })];
  // every subscription event, of a shared stream or of one subscriber, executes with a context of
  // its own: the subscriber's, with a fresh EntityManager and loaders
  const toEvent = (base: unknown) => eventContext(base as Context);
  const hub = new SubscriptionHub(toEvent);
  const sharedFields = sharedStreamFields(schema);
  new Gauge({
    name: 'graphql_subscription_streams_open',
    help: 'Shared subscription streams (one per distinct operation and organization)',
    registers: [metrics.registry],
    collect() {
      this.set(hub.size);
    },
  });
  // the sharing key of a subscriber's operation, when it may share
  const shareKeys = new WeakMap<ExecutionArgs, string>();
  // sockets and operations per API key; running slots of queries and mutations, freed when they end
  const caps = new KeyCaps({ socketsPerKey: services.config.wsSocketsPerKey, operationsPerKey: services.config.wsSubscriptionsPerKey });
  const releases = new WeakMap<ExecutionArgs, () => void>();
  const stateOf = (ctx: WsContext) => {
    const socket = (ctx.extra as { socket: WebSocket }).socket;
    let state = states.get(socket);
    if (!state) {
      state = { operations: new Set() };
      states.set(socket, state);
    }
    return state;
  };

  // what waits to be sent to each socket, bounded (./ws-outbox.ts)
  const outboxes = new Map<WebSocket, SocketOutbox>();
  const argOutboxes = new WeakMap<ExecutionArgs, SocketOutbox>();
  wss.on('connection', (socket) => {
    metrics.sockets.inc();
    outboxes.set(socket, new SocketOutbox(socket, services.config.wsMaxBufferedBytes));
    socket.on('close', () => {
      metrics.sockets.dec();
      const state = states.get(socket);
      if (state) metrics.subscriptions.dec(state.operations.size);
      if (state?.viewer) caps.closeSocket(state.viewer.apiKeyId, state.operations.size);
      states.delete(socket);
      outboxes.delete(socket);
    });
  });

  const disposable = useServer<Record<string, unknown>, { socket: WebSocket }>(
    {
      schema,
      connectionInitWaitTimeout: 3_000,
      onConnect: async (ctx) => {
        try {
          const viewer = await viewerFor(services, authorizationParam(ctx.connectionParams));
          if (!caps.admitSocket(ctx.extra.socket, viewer.apiKeyId)) return false;
          stateOf(ctx).viewer = viewer;
          return true;
        } catch (e) {
          // the key could not be checked: 1013 Try Again Later, not 4403
          if (e instanceof GraphQLError && e.extensions.code === 'SERVICE_UNAVAILABLE')
            ctx.extra.socket.close(1013, 'database unavailable');
          // 4403 Forbidden, with the reason (graphql-ws would say only "Forbidden")
          else if (e instanceof GraphQLError && e.extensions.code === 'UNAUTHENTICATED') {
            const missing = e.extensions.reason === 'missing';
            ctx.extra.socket.close(
              CloseCode.Forbidden,
              missing ? 'an API key is required: connectionParams.authorization = "Bearer <token>"' : e.message,
            );
          }
          return false;
        }
      },
      onSubscribe: async (ctx, id, payload) => {
        // errors returned here reach the client through onError, which formats them
        const state = stateOf(ctx);
        if (!state.viewer) return refuse('not authenticated', 'UNAUTHENTICATED');
        // checked again once the budgets have answered: the socket may have closed or filled up meanwhile
        const noRoom = () =>
          states.get(ctx.extra.socket) !== state
            ? refuse('the socket is closed', 'BAD_REQUEST')
            : state.operations.size >= LIMITS.subscriptionsPerSocket
              ? refuse(`at most ${LIMITS.subscriptionsPerSocket} operations may be open on one socket`, 'GRAPHQL_VALIDATION_FAILED')
              : null;
        const refused = noRoom() ?? (await refuseOperation(caps, budgets, state.viewer, payloadBytes(payload)));
        if (refused) return refused;
        let document: DocumentNode;
        try {
          checkSource(payload.query);
          document = parse(payload.query);
        } catch (e) {
          if (e instanceof GraphQLError && e.extensions.code) return [e];
          return refuse(e instanceof GraphQLError ? e.message : 'the document cannot be parsed', 'GRAPHQL_PARSE_FAILED');
        }
        const errors = validate(schema, document, rules);
        if (errors.length > 0) return errors;
        // the same refusal as over HTTP, before anything is charged
        if (!getOperationAST(document, payload.operationName))
          return refuse(
            payload.operationName
              ? `Unknown operation named "${payload.operationName}".`
              : 'Must provide operation name if query contains multiple operations.',
            'OPERATION_RESOLUTION_FAILURE',
          );
        let cost: number;
        try {
          cost = checkOperation(schema, document, payload.variables, payload.operationName);
        } catch (e) {
          if (e instanceof GraphQLError) return [e];
          throw e;
        }
        const release = await admitOperation(caps, budgets, state.viewer, { document, operationName: payload.operationName, cost }, noRoom);
        if (Array.isArray(release)) return release;
        const requestId = newRequestId();
        state.operations.add(id);
        metrics.subscriptions.inc();
        const contextValue: Context = makeContext(services, state.viewer, requestId);
        const args: ExecutionArgs = {
          schema,
          document,
          variableValues: payload.variables,
          operationName: payload.operationName,
          contextValue,
        };
        releases.set(args, release);
        const roots = rootFieldNames(document, payload.operationName);
        const shared = roots !== null && roots.size > 0 && [...roots].every((f) => sharedFields.has(f));
        // an operation of its own runs as the key is now (its role re-checked every KEY_RECHECK_MS);
        // a shared stream keeps the role it is shared by, and is ended when the socket's role changes
        if (!shared) Object.defineProperty(contextValue, 'viewer', { get: () => state.viewer });
        if (shared) {
          // the organization and role are part of the key: no event or result crosses organizations,
          // and what a role may see is decided for the role
          const { orgId, role } = state.viewer;
          shareKeys.set(args, JSON.stringify([orgId, role, payload.query, payload.operationName ?? null, payload.variables ?? null]));
          const outbox = outboxes.get(ctx.extra.socket);
          if (outbox) argOutboxes.set(args, outbox);
        }
        return args;
      },
      execute: async (args) => {
        try {
          return await execute(args);
        } finally {
          releases.get(args)?.();
        }
      },
      subscribe: (args) => {
        const key = shareKeys.get(args);
        return key === undefined ? subscribeEach(args, toEvent) : hub.subscribe(key, args, argOutboxes.get(args));
      },
      onNext: (_ctx, _id, _payload, args, result) => {
        if (!('errors' in result) || !result.errors?.length) return result;
        const requestId = (args.contextValue as Context).requestId;
        return collapseTooLarge({ ...result, errors: format(result.errors, requestId) });
      },
      onError: (_ctx, _id, _payload, errors) => format(errors, newRequestId()),
      onComplete: (ctx, id) => {
        // after the socket closed, its state is gone and its subscriptions were counted down already
        const state = states.get((ctx.extra as { socket: WebSocket }).socket);
        if (state?.operations.delete(id)) {
          metrics.subscriptions.dec();
          if (state.viewer) caps.closeOperation(state.viewer.apiKeyId);
        }
      },
      onOperation: (_ctx, _id, _payload, args, result) => {
        const name = getOperationAST(args.document, args.operationName)?.name?.value ?? 'anonymous';
        const started = performance.now();
        // queries and mutations resolve here; subscriptions return an iterator and are counted once
        Promise.resolve(result).then(
          () => metrics.observe(name, 'ws', (performance.now() - started) / 1000, true),
          () => metrics.observe(name, 'ws', (performance.now() - started) / 1000, false),
        );
        return result;
      },
    },
    wss,
  );

  const keys = new SocketKeys(states, outboxes, services);

  return {
    closeForKeys: (keyIds) => keys.closeForKeys(keyIds),
    pendingBytes: () => [...outboxes.values()].reduce((sum, o) => sum + o.pending, 0),
    close: async () => {
      keys.stop();
      await disposable.dispose(); // closes every socket with 1001 Going Away
    },
  };
}

/** The bytes an operation's message carries (its document and variables), charged to the byte budget. */
function payloadBytes(payload: { query: string; variables?: Record<string, unknown> | null }): number {
  return Buffer.byteLength(payload.query) + (payload.variables ? Buffer.byteLength(JSON.stringify(payload.variables)) : 0);
}
