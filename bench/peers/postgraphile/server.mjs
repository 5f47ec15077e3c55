// PostGraphile v5 as the benchmark runs it beside our server: its recommended preset (Amber) over the
// schema `peer` of the benchmark database (views of one organization's rows, made by bench/peers.ts),
// served by its own Node.js HTTP adapter, in production mode and without GraphiQL. Run by the Node.js
// binary installed next to it; started by the benchmark with PEER_DATABASE_URL and PEER_POOL_MAX,
// it reports its port, and on request its statements and CPU time, over IPC as our server does.
import { createServer } from 'node:http';
import pg from 'pg';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';

// every statement sent to PostgreSQL counted at the driver, as the benchmark counts ours
let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (...args) {
  statements += 1;
  return query.apply(this, args);
};

const preset = {
  extends: [PostGraphileAmberPreset],
  pgServices: [
    makePgService({
      connectionString: process.env.PEER_DATABASE_URL,
      schemas: ['peer'],
      poolConfig: { max: Number(process.env.PEER_POOL_MAX ?? 10) },
    }),
  ],
  grafserv: { graphqlPath: '/graphql', graphiql: false, watch: false, websockets: false },
  grafast: { explain: false },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
await serv.addTo(server);
// the schema is built before the first request is measured
await pgl.getSchema();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

process.on('message', (m) => {
  if (m?.type !== 'stats') return;
  const u = process.cpuUsage();
  process.send({ type: 'stats', statements, cpuMs: (u.user + u.system) / 1000 });
});
process.on('SIGTERM', () => {
  server.close();
  void Promise.resolve(pgl.release()).finally(() => process.exit(0));
});
process.send({ type: 'ready', port: server.address().port });
