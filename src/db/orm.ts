import { MikroORM, type Options, ReflectMetadataProvider } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Logger } from '../core/logger';
import { migrationsDir } from './paths';

export interface OrmSettings {
  clientUrl: string;
  replicaUrls?: string[];
  entities: NonNullable<Options['entities']>;
  poolMax?: number;
  logger?: Logger;
  /** called with every SQL statement run (tests count them) */
  onQuery?: (sql: string) => void;
}

const knexLog = (logger: Logger | undefined, level: 'warn' | 'error' | 'debug') => (message: unknown) =>
  logger?.[level]({ driver: typeof message === 'string' ? message : String(message) }, 'database driver');

/** The MikroORM options shared by the server, the CLI, the migration tools and the tests. */
function ormOptions(s: OrmSettings): Options {
  return {
    clientUrl: s.clientUrl,
    replicas: (s.replicaUrls ?? []).map((url) => ({ clientUrl: url })),
    entities: s.entities,
    metadataProvider: ReflectMetadataProvider,
    discovery: { warnWhenNoEntities: false },
    extensions: [Migrator],
    pool: { min: 0, max: s.poolMax ?? 10 },
    driverOptions: {
      // a database that does not answer fails new connections after 5 s instead of hanging requests
      connection: { connectionTimeoutMillis: 5_000 },
      // the driver's own warnings (a dropped connection) as JSON log lines, not console output
      log: {
        warn: knexLog(s.logger, 'warn'),
        error: knexLog(s.logger, 'error'),
        deprecate: knexLog(s.logger, 'warn'),
        debug: knexLog(s.logger, 'debug'),
      },
    },
    // one set of loaders per request; entities are not shared between requests
    allowGlobalContext: false,
    forceUtcTimezone: true,
    // jsonb stays as parsed objects; bigint sums come back as strings and are parsed where used
    debug: s.onQuery ? ['query'] : false,
    colors: false,
    logger: s.onQuery ? (message: string) => s.onQuery!(message) : (message: string) => s.logger?.debug({ orm: message }),
    migrations: {
      path: migrationsDir,
      glob: '!(*.d).js',
      emit: 'js',
      snapshot: false,
      transactional: true,
      allOrNothing: true,
      disableForeignKeys: false,
      fileName: (timestamp: string, name?: string) => `Migration${timestamp}${name ? '_' + name : ''}`,
    },
    schemaGenerator: { disableForeignKeys: false },
  };
}

export const initOrm = (s: OrmSettings): Promise<MikroORM> => MikroORM.init(ormOptions(s));

/** Applies pending migrations; returns the names applied. */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const done = await orm.getMigrator().up();
  return done.map((m) => m.name);
}

/** True when every migration in migrations/ has been applied. */
export async function migrationsApplied(orm: MikroORM): Promise<boolean> {
  const pending = await orm.getMigrator().getPendingMigrations();
  return pending.length === 0;
}
