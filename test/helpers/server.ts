import { Writable } from 'node:stream';
import { startApp, type App } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { createLogger } from '../../src/core/logger';
import { createApiKey, createOrganization } from '../../src/modules/orgs/orgs.service';
import type { Role } from '../../src/modules/orgs/role';
import { UNBOUNDED_BUDGETS } from '../../bench/unbounded';
import { cloneDatabase } from './db';

export interface TestServer {
  app: App;
  url: string;
  wsUrl: string;
  dbUrl: string;
  config: Config;
  /** JSON log lines the server wrote */
  logs: Record<string, unknown>[];
  /** SQL statements run since the last reset; `besidesAuth` leaves out API key lookups (the key cache skips them for a busy key) */
  sql: { count: number; statements: string[]; readonly besidesAuth: number; reset(): void };
  createOrg(name?: string): Promise<{ orgId: string; token: string }>;
  createKey(orgId: string, role: Role, name?: string): Promise<{ id: string; token: string }>;
  close(): Promise<void>;
}

/**
 * A real server (HTTP + WebSocket) on a free port over its own clone of the migrated database.
 * Pass `dbUrl` to start a second instance on the same database. Budgets over time are out of
 * reach unless `defaultBudgets` is set or `env` sets them: whether a test that is not about
 * budgets passes must not depend on how fast the machine sends.
 */
export async function startTestServer(
  opts: { env?: Record<string, string>; dbUrl?: string; defaultBudgets?: boolean } = {},
): Promise<TestServer> {
  const dbUrl = opts.dbUrl ?? (await cloneDatabase());
  const budgets = opts.defaultBudgets ? {} : UNBOUNDED_BUDGETS;
  const config = loadConfig({
    LOG_LEVEL: 'info',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: dbUrl,
    MIGRATE_ON_START: 'false',
    // the server makes no vectors unless a test asks for a provider: the exactness tests keep their
    // client vectors, and the local model loads only where a test needs it
    EMBEDDINGS_PROVIDER: 'none',
    ...budgets,
    ...opts.env,
  });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      done();
    },
  });
  const sql = {
    count: 0,
    statements: [] as string[],
    get besidesAuth() {
      return this.statements.filter((q) => !/\btoken_hash = /.test(q)).length;
    },
    reset() {
      this.count = 0;
      this.statements = [];
    },
  };
  const app = await startApp(config, createLogger('info', sink), {
    onQuery: (message) => {
      sql.count += 1;
      sql.statements.push(message);
    },
  });
  const em = () => app.db.orm.em.fork();
  return {
    app,
    url: app.server.url,
    wsUrl: app.server.url.replace('http://', 'ws://'),
    dbUrl,
    config,
    logs,
    sql,
    createOrg: async (name = 'org') => {
      const { org, token } = await createOrganization(em(), name);
      return { orgId: org.id, token };
    },
    createKey: async (orgId, role, name = role.toLowerCase()) => {
      const { apiKey, token } = await createApiKey(em(), orgId, name, role);
      return { id: apiKey.id, token };
    },
    close: () => app.stop(),
  };
}
