import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from './config';
import { createEventBus, type EventBus } from './core/event-bus';
import type { Logger } from './core/logger';
import { pruneChangeLog } from './db/change-feed';
import { startEmbedded } from './db/embedded';
import { usePreparedStatements } from './db/named-statements';
import { initOrm, migrate } from './db/orm';
import { startHttpServer, type RunningServer } from './http/server';
import { entities } from './modules';
import { createEmbedder, type Embedder, embeddingMetrics, Reembedder } from './modules/embeddings';
import { BankCounts, FactIndex } from './modules/facts';
import { CandidateCache } from './modules/memory';
import { ensureFirstOrganization, type FirstStart, KeyCache } from './modules/orgs';
import { closeIdleTraces } from './modules/otlp';
import { writeDefaultQuotas } from './modules/usage';

export interface Database {
  orm: MikroORM;
  embedded: boolean;
  close(): Promise<void>;
}

/** The database of this configuration (embedded or DATABASE_URL), migrated when asked to. */
export async function openDatabase(
  config: Config,
  log: Logger,
  opts: { migrate: boolean; onQuery?: (sql: string) => void },
): Promise<Database> {
  const embedded = config.databaseUrl === null ? await startEmbedded(config.dataDir, config.embeddedPgPort, log) : null;
  const orm = await initOrm({
    clientUrl: embedded ? embedded.url : (config.databaseUrl as string),
    replicaUrls: config.replicaUrls,
    entities,
    poolMax: config.dbPoolMax,
    logger: log,
    onQuery: opts.onQuery,
  });
  usePreparedStatements(orm.config, config.dbPreparedStatements);
  try {
    if (opts.migrate) {
      const applied = await migrate(orm);
      if (applied.length > 0) log.info({ applied }, 'migrations applied');
    }
  } catch (err) {
    await orm.close();
    await embedded?.stop();
    throw err;
  }
  return {
    orm,
    embedded: embedded !== null,
    close: async () => {
      await orm.close();
      await embedded?.stop();
    },
  };
}

export interface App {
  server: RunningServer;
  db: Database;
  bus: EventBus;
  firstStart: FirstStart | null;
  /** recall's in-process fact vectors (null when turned off) */
  factIndex: FactIndex | null;
  /** memoryContext's cached candidate lists */
  memoryCache: CandidateCache;
  /** the facts explorer's bank counts per organization */
  bankCounts: BankCounts;
  /** the server's embedder (provider 'none': disabled) */
  embedder: Embedder;
  /** the background re-embedding after a model change, with its progress */
  reembedder: Reembedder;
  /** drain traffic, then close the bus and the database; safe to call more than once */
  stop(): Promise<void>;
}

/** Everything `npm start` runs: database, migrations, first organization, HTTP + WebSocket server. */
export async function startApp(config: Config, log: Logger, opts: { onQuery?: (sql: string) => void } = {}): Promise<App> {
  const db = await openDatabase(config, log, { migrate: config.migrateOnStart, onQuery: opts.onQuery });
  const bus = createEventBus(config.redisUrl);
  let embedder: Embedder | null = null;
  try {
    // the storage quota triggers read the configured defaults from the database
    await writeDefaultQuotas(db.orm.em.fork(), config.quotas);
    const firstStart = await ensureFirstOrganization(db.orm.em.fork(), {
      orgName: config.initOrgName,
      adminToken: config.initAdminToken,
      embedded: db.embedded,
    });
    const factIndex =
      config.recallIndexMaxMb > 0 ? new FactIndex(config.recallIndexMaxMb * 1024 * 1024, log, config.recallIndexOrgShare / 100) : null;
    const memoryCache = new CandidateCache(config.memoryCacheMaxMb * 1024 * 1024);
    const bankCounts = new BankCounts();
    const keyCache = new KeyCache(config.keyCacheTtlMs);
    embedder = createEmbedder(config.embeddings, log);
    const server = await startHttpServer(
      { config, orm: db.orm, bus, log, factIndex, memoryCache, bankCounts, keyCache, embedder },
      config.port,
      config.host,
    );
    // the change log that in-process caches read is kept for an hour
    const pruning = setInterval(
      () => void pruneChangeLog(db.orm.em.fork()).catch((err) => log.warn({ err }, 'change log pruning failed')),
      5 * 60_000,
    );
    pruning.unref();
    // OTLP traces with no new span for the trace window are closed: their kept spans are deleted
    const closing = setInterval(
      () =>
        void closeIdleTraces(db.orm.em.fork(), config.otlp.traceWindowMinutes).catch((err) =>
          log.warn({ err }, 'closing idle traces failed'),
        ),
      60_000,
    );
    closing.unref();
    // vectors of another model than the server's are embedded again in the background (README: Embeddings)
    const reembedder = new Reembedder(db.orm.config.get('clientUrl'), embedder, embeddingMetrics(embedder), log);
    let retry: NodeJS.Timeout | undefined;
    const reembed = (): Promise<void> =>
      reembedder.run().then(
        (ran) => {
          // another instance holds the lock: look again later, in case it stops before the end
          if (!ran) retry = setTimeout(() => void (reembedding = reembed()), 5 * 60_000).unref();
        },
        (err: unknown) => {
          log.warn({ err }, 're-embedding failed; it resumes in a minute');
          retry = setTimeout(() => void (reembedding = reembed()), 60_000).unref();
        },
      );
    let reembedding = reembed();
    let stopping: Promise<void> | null = null;
    return {
      server,
      db,
      bus,
      firstStart,
      factIndex,
      memoryCache,
      bankCounts,
      embedder,
      reembedder,
      // each step runs even when an earlier one failed (a lost Redis must not keep the pool open);
      // failures are logged, and the drain still ends
      stop: () =>
        (stopping ??= (async () => {
          clearInterval(pruning);
          clearInterval(closing);
          clearTimeout(retry);
          reembedder.stop();
          for (const [step, run] of [
            ['server', () => server.stop()],
            ['event bus', () => bus.close()],
            ['re-embedding', () => reembedding],
            ['embedder', () => embedder!.close()],
            ['database', () => db.close()],
          ] as const) {
            try {
              await run();
            } catch (err) {
              log.error({ err, step }, 'shutdown step failed');
            }
          }
        })()),
    };
  } catch (err) {
    await embedder?.close();
    await bus.close();
    await db.close();
    throw err;
  }
}
