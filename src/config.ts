import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Role } from './modules/orgs';

/** What one API key (by its role) or one organization may spend. */
export interface Budget {
  requestsPerSecond: number;
  /** complexity points per second (the cost every operation is priced at before it runs) */
  pointsPerSecond: number;
  /** requests executing at once on one instance; more wait in line */
  concurrent: number;
  /** request bytes per second: HTTP bodies and WebSocket operation messages */
  bytesPerSecond: number;
}

/** Budgets over time: per API key by its role, and per organization for all its keys together. */
export interface BudgetSettings {
  roles: Record<Role, Budget>;
  org: Budget;
  /** requests that may wait for a slot, per key and per organization, before more are refused */
  queue: number;
  /** rates are counted over fixed windows this long (a window admits rate x window) */
  windowSeconds: number;
}

const MIB = 1024 * 1024;

export const DEFAULT_BUDGETS: BudgetSettings = {
  roles: {
    ADMIN: { requestsPerSecond: 100, pointsPerSecond: 200_000, concurrent: 4, bytesPerSecond: MIB },
    INTEGRATOR: { requestsPerSecond: 200, pointsPerSecond: 200_000, concurrent: 4, bytesPerSecond: 2 * MIB },
    OPERATOR: { requestsPerSecond: 100, pointsPerSecond: 80_000, concurrent: 2, bytesPerSecond: MIB / 4 },
    AGENT: { requestsPerSecond: 200, pointsPerSecond: 200_000, concurrent: 4, bytesPerSecond: MIB },
    VIEWER: { requestsPerSecond: 50, pointsPerSecond: 80_000, concurrent: 2, bytesPerSecond: MIB / 4 },
  },
  org: { requestsPerSecond: 500, pointsPerSecond: 400_000, concurrent: 8, bytesPerSecond: 4 * MIB },
  queue: 100,
  windowSeconds: 1,
};

/** What each organization may store: rows and bytes of episodes, segments and facts together. */
interface Quotas {
  rows: number;
  bytes: number;
}

const DEFAULT_QUOTAS: Quotas = { rows: 50_000_000, bytes: 10 * 1024 * MIB };

/** How the server turns text into vectors (README: Embeddings). */
export interface EmbeddingSettings {
  /** local: Universal Sentence Encoder lite in worker threads; openai: any OpenAI-compatible endpoint; none: client vectors only */
  provider: 'local' | 'openai' | 'none';
  /** openai: the API root including /v1, e.g. https://api.openai.com/v1 */
  baseUrl: string | null;
  /** openai: sent as `Authorization: Bearer <apiKey>` when set; never logged */
  apiKey: string | null;
  /** openai: the model name sent with every call */
  model: string;
  /** openai: asked of the endpoint only when set */
  dimensions: number | null;
  /** one embedding call (openai: all its retries) may take this long */
  timeoutMs: number;
  /** openai: texts per call */
  batchSize: number;
  /** local: inference threads; each holds the model and its own WebAssembly heap (docs/design.md) */
  workers: number;
  /** local: texts per model call; the WebAssembly heap grows to the largest call and never shrinks */
  localBatch: number;
  /** local: texts per model call for the documents of writes (a query waits for one such call at most) */
  localWriteBatch: number;
  /** texts waiting for a worker or an endpoint before more are refused */
  queue: number;
  /** repeated texts answered from memory, per (organization, model, purpose, text) */
  cacheEntries: number;
}

/** Every setting of the service, read from the environment in this one place. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** null: run the embedded PostgreSQL in dataDir */
  databaseUrl: string | null;
  /** read replicas for queries (comma-separated URLs) */
  replicaUrls: string[];
  /** null: the port this data directory remembers, or a free one chosen on its first start */
  embeddedPgPort: number | null;
  migrateOnStart: boolean;
  /** queries run through plans compiled per document (COMPILED_EXECUTION, default true) */
  compiledExecution: boolean;
  /** plain POSTs of one query or mutation answered without Apollo Server's HTTP layer (GRAPHQL_DIRECT_POST, default true) */
  directPost: boolean;
  initOrgName: string | null;
  initAdminToken: string | null;
  logLevel: string;
  production: boolean;
  /** serve the GraphQL explorer on GET /graphql to browsers (on in development, off in production unless EXPLORER=true) */
  explorer: boolean;
  redisUrl: string | null;
  shutdownGraceMs: number;
  dbPoolMax: number;
  /** reads of fixed text run as named prepared statements (DB_PREPARED_STATEMENTS, default true) */
  dbPreparedStatements: boolean;
  /** how long a request's headers, and then its body, may take to arrive (BODY_TIMEOUT_MS) */
  bodyTimeoutMs: number;
  /** bytes a WebSocket may have waiting to be sent (queued results and unsent frames) before it is closed */
  wsMaxBufferedBytes: number;
  /** how often open WebSockets re-check that their API key is still valid */
  keyRecheckMs: number;
  /** how long a valid API key is remembered without a lookup (0: looked up on every request) */
  keyCacheTtlMs: number;
  /** per-day decay rate of recency and usefulness scores */
  decayLambda: number;
  /** memory for recall's in-process fact vectors, in MiB (0: PostgreSQL ranks every recall alone) */
  recallIndexMaxMb: number;
  /** percent of RECALL_INDEX_MAX_MB one organization keeps when others want room */
  recallIndexOrgShare: number;
  /** bytes of string and JSON values one response may carry before it is refused */
  maxResponseBytes: number;
  budgets: BudgetSettings;
  /** storage quotas per organization (QUOTA_ROWS, QUOTA_BYTES), enforced by the database */
  quotas: Quotas;
  /** WebSockets open at once per API key, and operations (subscriptions, queries in flight) open at once per key over all its sockets; per instance */
  wsSocketsPerKey: number;
  /** requests executing at once on one instance over every organization, shared fairly (0: no such cap); default twice the cores */
  runningSlots: number;
  /**
   * long synchronous work is cut into slices with a turn on the event loop between them, shared
   * fairly by organizations: objects a query completes per slice (SLICE_OBJECTS) and characters of
   * an answer written per slice (SLICE_CHARS); 0 does it in one piece
   */
  slices: { objects: number; chars: number };
  wsSubscriptionsPerKey: number;
  /** when set, `/metrics` requires `Authorization: Bearer <metricsToken>` */
  metricsToken: string | null;
  /** when set, `/metrics` is served on its own listener (metricsHost:metricsPort) instead of the API port */
  metricsPort: number | null;
  metricsHost: string;
  /** heap the memoryContext candidate cache may hold, in MiB (0: no cache) */
  memoryCacheMaxMb: number;
  embeddings: EmbeddingSettings;
  /** OTLP trace ingest (README: OpenTelemetry) */
  otlp: {
    /** bytes an export may have, compressed and decompressed (OTLP_MAX_BODY_BYTES) */
    maxBodyBytes: number;
    /** a trace's spans are kept this long after its last span arrived; later spans of it are ignored (OTLP_TRACE_WINDOW_MINUTES) */
    traceWindowMinutes: number;
  };
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`invalid ${variable}: ${message}`);
  }
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | null {
  const v = env[name];
  return v === undefined || v.trim() === '' ? null : v.trim();
}

function int(env: Env, name: string, def: number, min: number, max: number): number {
  const v = str(env, name);
  if (v === null) return def;
  if (!/^\d+$/.test(v)) throw new ConfigError(name, `expected an integer, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(name, `expected ${min}..${max}, got ${n}`);
  return n;
}

function num(env: Env, name: string, def: number, min: number, max: number): number {
  const v = str(env, name);
  if (v === null) return def;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max) throw new ConfigError(name, `expected a number in ${min}..${max}, got "${v}"`);
  return n;
}

function bool(env: Env, name: string, def: boolean): boolean {
  const v = str(env, name);
  if (v === null) return def;
  if (/^(true|1|yes)$/i.test(v)) return true;
  if (/^(false|0|no)$/i.test(v)) return false;
  throw new ConfigError(name, `expected true or false, got "${v}"`);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const v = str(env, name);
  if (v === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new ConfigError(name, 'not a valid URL');
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(name, `expected a ${protocols.join(' or ')} URL`);
  return v;
}

/** `requests/s,points/s,concurrent[,bytes/s]`, e.g. `200,50000,4` or `200,50000,4,1048576` (bytes/s omitted: the default's) */
function budget(env: Env, name: string, def: Budget): Budget {
  const v = str(env, name);
  if (v === null) return def;
  const parts = v.split(',').map((p) => p.trim());
  if ((parts.length !== 3 && parts.length !== 4) || !parts.every((p) => /^[1-9]\d{0,14}$/.test(p))) {
    throw new ConfigError(name, `expected three or four positive integers "requests/s,points/s,concurrent[,bytes/s]", got "${v}"`);
  }
  const [requestsPerSecond, pointsPerSecond, concurrent, bytesPerSecond = def.bytesPerSecond] = parts.map(Number);
  return { requestsPerSecond, pointsPerSecond, concurrent, bytesPerSecond };
}

function budgets(env: Env): BudgetSettings {
  const roles = Object.fromEntries(
    Object.entries(DEFAULT_BUDGETS.roles).map(([role, def]) => [role, budget(env, `BUDGET_${role}`, def)]),
  ) as BudgetSettings['roles'];
  return {
    roles,
    org: budget(env, 'BUDGET_ORG', DEFAULT_BUDGETS.org),
    queue: int(env, 'BUDGET_QUEUE', DEFAULT_BUDGETS.queue, 0, 100_000),
    windowSeconds: int(env, 'BUDGET_WINDOW_SECONDS', DEFAULT_BUDGETS.windowSeconds, 1, 3600),
  };
}

const PROVIDERS = ['local', 'openai', 'none'] as const;

/**
 * One local inference thread unless told otherwise: each costs about 100 MB for its model plus a
 * WebAssembly heap that never shrinks, and two no longer fit the memory a server holding 100,000
 * facts is meant to stay within (measurements: docs/design.md, "Embeddings made by the server").
 */
const DEFAULT_LOCAL_WORKERS = 1;

function embeddings(env: Env): EmbeddingSettings {
  const provider = (str(env, 'EMBEDDINGS_PROVIDER') ?? 'local').toLowerCase();
  if (!(PROVIDERS as readonly string[]).includes(provider)) {
    throw new ConfigError('EMBEDDINGS_PROVIDER', `expected one of ${PROVIDERS.join(', ')}, got "${provider}"`);
  }
  const baseUrl = url(env, 'EMBEDDINGS_BASE_URL', ['http:', 'https:']);
  if (provider === 'openai' && baseUrl === null) {
    throw new ConfigError('EMBEDDINGS_BASE_URL', 'required when EMBEDDINGS_PROVIDER=openai (e.g. https://api.openai.com/v1)');
  }
  const model = str(env, 'EMBEDDINGS_MODEL');
  if (provider === 'openai' && model === null) throw new ConfigError('EMBEDDINGS_MODEL', 'required when EMBEDDINGS_PROVIDER=openai');
  return {
    provider: provider as EmbeddingSettings['provider'],
    baseUrl: baseUrl?.replace(/\/+$/, '') ?? null,
    apiKey: str(env, 'EMBEDDINGS_API_KEY'),
    model: model ?? 'use-lite-512',
    dimensions: str(env, 'EMBEDDINGS_DIMENSIONS') === null ? null : int(env, 'EMBEDDINGS_DIMENSIONS', 0, 1, 65_536),
    timeoutMs: int(env, 'EMBEDDINGS_TIMEOUT_MS', 30_000, 100, 600_000),
    batchSize: int(env, 'EMBEDDINGS_BATCH_SIZE', 64, 1, 2048),
    workers: int(env, 'EMBEDDINGS_WORKERS', DEFAULT_LOCAL_WORKERS, 1, 256),
    localBatch: int(env, 'EMBEDDINGS_LOCAL_BATCH', 16, 1, 256),
    localWriteBatch: int(env, 'EMBEDDINGS_LOCAL_WRITE_BATCH', 4, 1, 256),
    queue: int(env, 'EMBEDDINGS_QUEUE', 10_000, 1, 10_000_000),
    cacheEntries: int(env, 'EMBEDDINGS_CACHE_ENTRIES', 10_000, 0, 10_000_000),
  };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const logLevel = (str(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}`);
  const nodeEnv = str(env, 'NODE_ENV') ?? 'development';

  const initOrgName = str(env, 'INIT_ORG_NAME');
  const initAdminToken = str(env, 'INIT_ADMIN_TOKEN');
  if ((initOrgName === null) !== (initAdminToken === null)) {
    throw new ConfigError(
      initOrgName === null ? 'INIT_ORG_NAME' : 'INIT_ADMIN_TOKEN',
      'INIT_ORG_NAME and INIT_ADMIN_TOKEN must be set together',
    );
  }
  if (initAdminToken !== null && initAdminToken.length < 32) {
    throw new ConfigError('INIT_ADMIN_TOKEN', 'must be at least 32 characters');
  }
  if (initOrgName !== null && initOrgName.length > 200) throw new ConfigError('INIT_ORG_NAME', 'at most 200 characters');

  const metricsToken = str(env, 'METRICS_TOKEN');
  if (metricsToken !== null && metricsToken.length < 16) throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters');

  const replicas = str(env, 'DATABASE_REPLICA_URLS');
  const replicaUrls = (replicas ?? '')
    .split(',')
    .filter((u) => u.trim() !== '')
    .map((u) => url({ DATABASE_REPLICA_URLS: u }, 'DATABASE_REPLICA_URLS', ['postgres:', 'postgresql:']) as string);

  return {
    port: int(env, 'PORT', 4000, 0, 65535),
    host: str(env, 'HOST') ?? '0.0.0.0',
    dataDir: resolve(str(env, 'DATA_DIR') ?? './.data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    replicaUrls,
    embeddedPgPort: str(env, 'EMBEDDED_PG_PORT') === null ? null : int(env, 'EMBEDDED_PG_PORT', 0, 1, 65535),
    migrateOnStart: bool(env, 'MIGRATE_ON_START', true),
    compiledExecution: bool(env, 'COMPILED_EXECUTION', true),
    directPost: bool(env, 'GRAPHQL_DIRECT_POST', true),
    initOrgName,
    initAdminToken,
    logLevel,
    production: nodeEnv === 'production',
    explorer: bool(env, 'EXPLORER', nodeEnv !== 'production'),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    dbPoolMax: int(env, 'DB_POOL_MAX', 10, 1, 1000),
    dbPreparedStatements: bool(env, 'DB_PREPARED_STATEMENTS', true),
    bodyTimeoutMs: int(env, 'BODY_TIMEOUT_MS', 10_000, 100, 300_000),
    wsMaxBufferedBytes: int(env, 'WS_MAX_BUFFERED_BYTES', 8 * 1024 * 1024, 64 * 1024, 1024 * 1024 * 1024),
    keyRecheckMs: int(env, 'KEY_RECHECK_MS', 30_000, 100, 60_000),
    keyCacheTtlMs: int(env, 'KEY_CACHE_TTL_MS', 10_000, 0, 60_000),
    decayLambda: num(env, 'DECAY_LAMBDA', 0.05, 0, 10),
    recallIndexMaxMb: int(env, 'RECALL_INDEX_MAX_MB', 1024, 0, 1_048_576),
    recallIndexOrgShare: int(env, 'RECALL_INDEX_ORG_SHARE', 50, 1, 100),
    maxResponseBytes: int(env, 'MAX_RESPONSE_BYTES', 4 * 1024 * 1024, 64 * 1024, 1024 * 1024 * 1024),
    budgets: budgets(env),
    quotas: {
      rows: int(env, 'QUOTA_ROWS', DEFAULT_QUOTAS.rows, 0, Number.MAX_SAFE_INTEGER),
      bytes: int(env, 'QUOTA_BYTES', DEFAULT_QUOTAS.bytes, 0, Number.MAX_SAFE_INTEGER),
    },
    wsSocketsPerKey: int(env, 'WS_SOCKETS_PER_KEY', 100, 1, 1_000_000),
    runningSlots: int(env, 'RUNNING_SLOTS', 2 * availableParallelism(), 0, 100_000),
    slices: {
      objects: int(env, 'SLICE_OBJECTS', 1_000, 0, 1_000_000_000),
      chars: int(env, 'SLICE_CHARS', 256 * 1024, 0, 1024 * 1024 * 1024),
    },
    wsSubscriptionsPerKey: int(env, 'WS_SUBSCRIPTIONS_PER_KEY', 500, 1, 10_000_000),
    metricsToken,
    metricsPort: str(env, 'METRICS_PORT') === null ? null : int(env, 'METRICS_PORT', 0, 0, 65535),
    metricsHost: str(env, 'METRICS_HOST') ?? '127.0.0.1',
    memoryCacheMaxMb: int(env, 'MEMORY_CACHE_MAX_MB', 256, 0, 1_048_576),
    embeddings: embeddings(env),
    otlp: {
      maxBodyBytes: int(env, 'OTLP_MAX_BODY_BYTES', 16 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
      traceWindowMinutes: int(env, 'OTLP_TRACE_WINDOW_MINUTES', 60, 1, 7 * 24 * 60),
    },
  };
}
