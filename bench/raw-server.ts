import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { namedQuery, rawHandlers } from './raw-sql';

export interface RawServer {
  port: number;
  /** SQL statements run so far */
  statements(): number;
  close(): Promise<void>;
}

/**
 * The floor: node:http + pg + JSON.stringify. POST /<scenario-id> with the same `{query, variables}`
 * body the GraphQL server gets; the query text is ignored, the scenario id picks the SQL. Every
 * request is authenticated with the GraphQL server's statement (bearer token hash -> key and org).
 */
export async function startRawServer(opts: { databaseUrl: string; poolMax: number; port?: number }): Promise<RawServer> {
  const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolMax });
  let statements = 0;
  const handlers = rawHandlers(pool, (n) => (statements += n));
  const authenticate = async (header: string | undefined) => {
    const token = /^Bearer (.+)$/.exec(header ?? '')?.[1];
    if (!token) return null;
    statements += 1;
    const r = await namedQuery(
      pool,
      `SELECT k.id, k.name, k.role, k.org_id, o.name AS org_name
         FROM api_keys k JOIN organizations o ON o.id = k.org_id
        WHERE k.token_hash = $1 AND k.revoked_at IS NULL`,
      [createHash('sha256').update(token, 'utf8').digest('hex')],
    );
    return (r.rows[0] as { org_id: string } | undefined) ?? null;
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // `<id>-1` is scenario <id> measured with one connection: the same SQL
      const id = (req.url ?? '/').slice(1);
      const handler = handlers[id] ?? handlers[id.replace(/-1$/, '')];
      if (req.method !== 'POST' || !handler) {
        res.writeHead(404).end();
        return;
      }
      let variables: Record<string, unknown>;
      try {
        variables = JSON.parse(Buffer.concat(chunks).toString('utf8')).variables ?? {};
      } catch {
        res.writeHead(400).end();
        return;
      }
      const reply = (status: number, payload: unknown) => {
        const body = JSON.stringify(payload);
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
      };
      authenticate(req.headers.authorization)
        .then(async (viewer) => {
          if (!viewer) return reply(401, { errors: [{ message: 'unauthenticated' }] });
          try {
            reply(200, { data: await handler(viewer.org_id, { ...variables, viewer }) });
          } catch (err) {
            reply(500, { errors: [{ message: (err as Error).message }] });
          }
        })
        .catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    statements: () => statements,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}

/** Child-process entry: `RAW_DATABASE_URL`, `DB_POOL_MAX`; answers `stats` over IPC. */
async function main(): Promise<void> {
  const raw = await startRawServer({
    databaseUrl: process.env.RAW_DATABASE_URL!,
    poolMax: Number(process.env.DB_POOL_MAX ?? 10),
  });
  process.on('message', (m: { type: string }) => {
    if (m.type === 'stats')
      process.send!({ type: 'stats', statements: raw.statements(), cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000 });
  });
  process.on('SIGTERM', () => void raw.close().then(() => process.exit(0)));
  process.send!({ type: 'ready', port: raw.port });
}

if (require.main === module)
  main().catch((err) => {
    process.stderr.write(`raw server failed: ${String(err)}\n`);
    process.exit(1);
  });
