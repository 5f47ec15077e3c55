import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { execute, type ExecutionArgs, getOperationAST, GraphQLError, type GraphQLSchema } from 'graphql';
import { CloseCode, type Context as WsContext, type SubscribePayload } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { Gauge } from 'prom-client';
import { WebSocket, WebSocketServer } from 'ws';
import { newRequestId } from '../core/request-scope';
import { isSharedStream } from '../core/shared-stream';
import type { Context } from '../graphql/context.type';
import { eventContext } from '../graphql/context';
import { collapseTooLarge } from '../graphql/response-size';
import { LIMITS } from '../graphql/limits';
import type { Viewer } from '../modules/orgs';
import type { RunningSlot } from './budgets';
import type { Metrics } from './metrics';
import type { CheckedDocument, Pipeline } from './pipeline';
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
 * The `authorization` connection parameter, whatever the case of its name (`Authorization` as on
 * HTTP is common); an exact `authorization` wins over other spellings.
 */
function authorizationParam(params: Readonly<Record<string, unknown>> | undefined): unknown {
  if (!params) return undefined;
  if ('authorization' in params) return params.authorization;
  const key = Object.keys(params).find((k) => k.toLowerCase() === 'authorization');
  return key === undefined ? undefined : params[key];
}

const refuse = (message: string, code: string) => [new GraphQLError(message, { extensions: { code } })];

type Ctx = WsContext<Record<string, unknown>, { socket: WebSocket }>;
const socketOf = (ctx: WsContext) => (ctx.extra as { socket: WebSocket }).socket;

/** The open sockets: each one's caller and open operations, and what waits to be sent to it (./ws-outbox.ts). */
class Sockets {
  readonly states = new Map<WebSocket, SocketState>();
  readonly outboxes = new Map<WebSocket, SocketOutbox>();

  constructor(wss: WebSocketServer, metrics: Metrics, caps: KeyCaps, maxBufferedBytes: number) {
    wss.on('connection', (socket) => {
      metrics.sockets.inc();
      this.outboxes.set(socket, new SocketOutbox(socket, maxBufferedBytes));
      socket.on('close', () => {
        metrics.sockets.dec();
        const state = this.states.get(socket);
        if (state) metrics.subscriptions.dec(state.operations.size);
        if (state?.viewer) caps.closeSocket(state.viewer.apiKeyId, state.operations.size);
        this.states.delete(socket);
        this.outboxes.delete(socket);
      });
    });
  }

  stateOf(ctx: WsContext): SocketState {
    const socket = socketOf(ctx);
    let state = this.states.get(socket);
    if (!state) {
      state = { operations: new Set() };
      this.states.set(socket, state);
    }
    return state;
  }
}

/**
 * graphql-ws on the HTTP server's `/graphql`: a thin adapter over the request pipeline
 * (./pipeline.ts), with auth in `connection_init` and the same limits, error shape and
 * per-operation context as HTTP (Apollo's plugins do not run here).
 */
class WsAdapter {
  private readonly hub: SubscriptionHub;
  private readonly sharedFields: Set<string>;
  // the sharing key of a subscriber's operation, when it may share, and the socket's outbox
  private readonly shareKeys = new WeakMap<ExecutionArgs, string>();
  private readonly argOutboxes = new WeakMap<ExecutionArgs, SocketOutbox>();
  // running slots of queries and mutations, freed when they end
  private readonly releases = new WeakMap<ExecutionArgs, () => void>();

  constructor(
    private readonly pipeline: Pipeline,
    private readonly sockets: Sockets,
    private readonly caps: KeyCaps,
    private readonly metrics: Metrics,
  ) {
    // every subscription event, of a shared stream or of one subscriber, executes with a context of
    // its own: the subscriber's, with a fresh EntityManager and loaders
    this.hub = new SubscriptionHub(this.toEvent);
    this.sharedFields = sharedStreamFields(pipeline.schema);
    const hub = this.hub;
    new Gauge({
      name: 'graphql_subscription_streams_open',
      help: 'Shared subscription streams (one per distinct operation and organization)',
      registers: [metrics.registry],
      collect() {
        this.set(hub.size);
      },
    });
  }

  private readonly toEvent = (base: unknown) => eventContext(base as Context);

  /** connection_init: authenticate, then the key's socket cap. */
  readonly connect = async (ctx: Ctx): Promise<boolean> => {
    try {
      const viewer = await this.pipeline.authenticate(authorizationParam(ctx.connectionParams));
      if (!this.caps.admitSocket(ctx.extra.socket, viewer.apiKeyId)) return false;
      this.sockets.stateOf(ctx).viewer = viewer;
      return true;
    } catch (e) {
      // the key could not be checked: 1013 Try Again Later, not 4403
      if (e instanceof GraphQLError && e.extensions.code === 'SERVICE_UNAVAILABLE') ctx.extra.socket.close(1013, 'database unavailable');
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
  };

  /**
   * An operation through the pipeline's stages: admit (the key's cap and rates), check the
   * document, charge (cost and running slot), then open it. Errors returned here reach the client
   * through onError, which formats them.
   */
  readonly subscribe = async (ctx: Ctx, id: string, payload: SubscribePayload) => {
    const state = this.sockets.stateOf(ctx);
    if (!state.viewer) return refuse('not authenticated', 'UNAUTHENTICATED');
    // checked again once the budgets have answered: the socket may have closed or filled up meanwhile
    const noRoom = () =>
      this.sockets.states.get(ctx.extra.socket) !== state
        ? refuse('the socket is closed', 'BAD_REQUEST')
        : state.operations.size >= LIMITS.subscriptionsPerSocket
          ? refuse(`at most ${LIMITS.subscriptionsPerSocket} operations may be open on one socket`, 'GRAPHQL_VALIDATION_FAILED')
          : null;
    const refused = noRoom() ?? (await refuseOperation(this.caps, this.pipeline.budgets, state.viewer, payloadBytes(payload)));
    if (refused) return refused;
    const checked = this.pipeline.checkDocument(payload);
    if (!('document' in checked)) return checked;
    const op = { document: checked.document, operationName: payload.operationName, cost: checked.cost };
    // the key's role may have been re-checked meanwhile (./ws-keys.ts): the socket's viewer as it is now
    const release = await admitOperation(this.caps, this.pipeline.budgets, state.viewer, op, noRoom);
    if (Array.isArray(release)) return release;
    return this.open(ctx, id, payload, { state, checked, release });
  };

  /** An admitted operation: counted as open, with a context of its own, sharing a stream when it may. */
  private open(
    ctx: Ctx,
    id: string,
    payload: SubscribePayload,
    { state, checked, release }: { state: SocketState; checked: CheckedDocument; release: RunningSlot },
  ): ExecutionArgs {
    const viewer = state.viewer!;
    state.operations.add(id);
    this.metrics.subscriptions.inc();
    const contextValue: Context = this.pipeline.context(viewer, newRequestId(), release.aside);
    const { document } = checked;
    const args: ExecutionArgs = {
      schema: this.pipeline.schema,
      document,
      variableValues: payload.variables,
      operationName: payload.operationName,
      contextValue,
    };
    this.releases.set(args, release);
    const roots = rootFieldNames(document, payload.operationName);
    const shared = roots !== null && roots.size > 0 && [...roots].every((f) => this.sharedFields.has(f));
    // an operation of its own runs as the key is now (its role re-checked every KEY_RECHECK_MS);
    // a shared stream keeps the role it is shared by, and is ended when the socket's role changes
    if (!shared) Object.defineProperty(contextValue, 'viewer', { get: () => state.viewer });
    if (shared) {
      // the organization and role are part of the key: no event or result crosses organizations,
      // and what a role may see is decided for the role
      const { orgId, role } = viewer;
      this.shareKeys.set(args, JSON.stringify([orgId, role, payload.query, payload.operationName ?? null, payload.variables ?? null]));
      const outbox = this.sockets.outboxes.get(ctx.extra.socket);
      if (outbox) this.argOutboxes.set(args, outbox);
    }
    return args;
  }

  /** Executes a query or mutation, then frees its running slot. */
  readonly execute = async (args: ExecutionArgs) => {
    try {
      return await execute(args);
    } finally {
      this.releases.get(args)?.();
    }
  };

  readonly stream = (args: ExecutionArgs) => {
    const key = this.shareKeys.get(args);
    return key === undefined ? subscribeEach(args, this.toEvent) : this.hub.subscribe(key, args, this.argOutboxes.get(args));
  };

  /** Shapes a result's errors: the API's error shape, and an answer over the size budget collapsed. */
  readonly shape = (args: ExecutionArgs, result: { errors?: readonly GraphQLError[] }) => {
    if (!('errors' in result) || !result.errors?.length) return result;
    const requestId = (args.contextValue as Context).requestId;
    return collapseTooLarge({ ...result, errors: this.pipeline.formatErrors(result.errors, requestId) });
  };

  readonly complete = (ctx: WsContext, id: string) => {
    // after the socket closed, its state is gone and its subscriptions were counted down already
    const state = this.sockets.states.get(socketOf(ctx));
    if (state?.operations.delete(id)) {
      this.metrics.subscriptions.dec();
      if (state.viewer) this.caps.closeOperation(state.viewer.apiKeyId);
    }
  };

  /** Per-operation metrics: queries and mutations when they resolve; subscriptions are counted once. */
  readonly observe = <R>(args: ExecutionArgs, result: R): R => {
    const name = getOperationAST(args.document, args.operationName)?.name?.value ?? 'anonymous';
    const started = performance.now();
    Promise.resolve(result).then(
      () => this.metrics.observe(name, 'ws', (performance.now() - started) / 1000, true),
      () => this.metrics.observe(name, 'ws', (performance.now() - started) / 1000, false),
    );
    return result;
  };
}

export function attachWebSocketServer(httpServer: Server, pipeline: Pipeline, metrics: Metrics): GraphqlWsServer {
  const { config } = pipeline.services;
  const wss = new WebSocketServer({ server: httpServer, path: '/graphql', maxPayload: LIMITS.wsMessageBytes });
  // sockets and operations per API key
  const caps = new KeyCaps({ socketsPerKey: config.wsSocketsPerKey, operationsPerKey: config.wsSubscriptionsPerKey });
  const sockets = new Sockets(wss, metrics, caps, config.wsMaxBufferedBytes);
  const ws = new WsAdapter(pipeline, sockets, caps, metrics);
  const disposable = useServer<Record<string, unknown>, { socket: WebSocket }>(
    {
      schema: pipeline.schema,
      connectionInitWaitTimeout: 3_000,
      onConnect: ws.connect,
      onSubscribe: ws.subscribe,
      execute: ws.execute,
      subscribe: ws.stream,
      onNext: (_ctx, _id, _payload, args, result) => ws.shape(args, result),
      onError: (_ctx, _id, _payload, errors) => pipeline.formatErrors(errors, newRequestId()),
      onComplete: ws.complete,
      onOperation: (_ctx, _id, _payload, args, result) => ws.observe(args, result),
    },
    wss,
  );
  const keys = new SocketKeys(sockets.states, sockets.outboxes, pipeline.services);
  return {
    closeForKeys: (keyIds) => keys.closeForKeys(keyIds),
    pendingBytes: () => [...sockets.outboxes.values()].reduce((sum, o) => sum + o.pending, 0),
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
