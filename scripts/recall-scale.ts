// Measures recall's in-process index at scale against a server started as its own process (so its
// RSS is the server's alone). DATABASE_URL names an existing PostgreSQL database (migrated here).
//   node dist/scripts/recall-scale.js flood   one organization recalls thousands of distinct bank ids
//                                             (30 aliases a request) while another recalls one bank
//   node dist/scripts/recall-scale.js large   100,000 facts of 512 dimensions in one bank
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { openDatabase } from '../src/app';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/core/logger';
import { createApiKey, createOrganization } from '../src/modules/orgs';
import { UNBOUNDED_BUDGETS } from '../bench/unbounded';

const mode = process.argv[2] ?? 'flood';
const dbUrl = process.env.DATABASE_URL;
if (!dbUrl) throw new Error('DATABASE_URL is required');

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Resident and virtual size of a process, MiB. */
function memoryOf(pid: number): { rssMb: number; vmMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), vmMb: Math.round(kb('VmSize') / 1024) };
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] * 10) / 10 : NaN;
};

async function setup(dim: number, seeds: { org: 'a' | 'b'; bank: string; n: number }[]) {
  const log = createLogger('warn');
  const db = await openDatabase(loadConfig({ DATABASE_URL: dbUrl!, LOG_LEVEL: 'warn' }), log, { migrate: true });
  const em = () => db.orm.em.fork();
  const stamp = Date.now().toString(36);
  const a = await createOrganization(em(), `scale-a-${stamp}`);
  const b = await createOrganization(em(), `scale-b-${stamp}`);
  const viewer = await createApiKey(em(), a.org.id, 'viewer', 'VIEWER');
  const orgOf = { a: a.org.id, b: b.org.id };
  for (const s of seeds) {
    // a random embedding per row (the subquery refers to the row, so it is evaluated per row)
    await em().execute(
      `INSERT INTO facts (id, org_id, bank_id, text, embedding, created_at, updated_at)
       SELECT gen_random_uuid(), ?, ?, 'fact ' || g, (SELECT array_agg(random() - 0.5) FROM generate_series(1, ?) d WHERE g > 0), now(), now()
       FROM generate_series(1, ?) g`,
      [orgOf[s.org], s.bank, dim, s.n],
    );
    await em().execute('INSERT INTO fact_embedding_dimensions (org_id, dimension) VALUES (?, ?) ON CONFLICT DO NOTHING', [
      orgOf[s.org],
      dim,
    ]);
  }
  await db.close();
  return { viewerA: viewer.token, tokenB: b.token };
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; logs: string[] }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--max-semi-space-size=32', join(__dirname, '..', 'src', 'main.js')], {
    env: { ...process.env, ...UNBOUNDED_BUDGETS, DATABASE_URL: dbUrl!, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  child.on('exit', (code, signal) => {
    console.error(`server exited: code ${code} signal ${signal}`);
    console.error(logs.slice(-8).join('\n'));
  });
  child.stdout.on('data', (d) => logs.push(...String(d).split('\n').filter(Boolean)));
  child.stderr.on('data', (d) => logs.push(...String(d).split('\n').filter(Boolean)));
  const url = `http://127.0.0.1:${port}/graphql`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return { child, url, logs };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start: ${logs.slice(-5).join('\n')}`);
}

async function gql(url: string, token: string, query: string, variables: Record<string, unknown>) {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };
  } catch (err) {
    // the server is gone (or refused the connection)
    return { errors: [{ message: `fetch: ${String((err as Error).cause ?? err)}` }] };
  }
}

const randomVector = (dim: number) => Array.from({ length: dim }, () => Math.random() - 0.5);
const ONE = `query R($input: RecallInput!) { recall(input: $input) { fact { id } finalScore } }`;

async function flood(): Promise<void> {
  const dim = 64;
  const { viewerA, tokenB } = await setup(dim, [
    { org: 'a', bank: 'real', n: 1 },
    { org: 'b', bank: 'small', n: 2000 },
  ]);
  const { child, url, logs } = await startServer({ RECALL_INDEX_MAX_MB: process.env.RECALL_INDEX_MAX_MB ?? '1024' });
  const q = randomVector(dim);
  const aliases = 30;
  const requests = Number(process.env.FLOOD_REQUESTS ?? 420);
  const query = `query F($q: [Float!]) { ${Array.from(
    { length: aliases },
    (_, i) => `a${i}: recall(input: { bankId: $b${i}, query: "q", queryEmbedding: $q, limit: 5 }) { fact { id } }`,
  ).join(' ')} }`.replace(
    'query F($q: [Float!])',
    `query F($q: [Float!], ${Array.from({ length: aliases }, (_, i) => `$b${i}: String!`).join(', ')})`,
  );
  const floodErrors = new Map<string, number>();
  let sent = 0;
  let floodDone = false;
  let peak = memoryOf(child.pid!);
  const started = Date.now();
  const attacker = async () => {
    while (sent < requests) {
      const r = sent++;
      const vars: Record<string, unknown> = { q };
      for (let i = 0; i < aliases; i++) vars[`b${i}`] = `bank-${r}-${i}`;
      const out = await gql(url, viewerA, query, vars);
      for (const e of out.errors ?? [])
        floodErrors.set(e.extensions?.code ?? e.message, (floodErrors.get(e.extensions?.code ?? e.message) ?? 0) + 1);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const m = memoryOf(child.pid!);
      if (m.rssMb > peak.rssMb || m.vmMb > peak.vmMb) peak = { rssMb: Math.max(m.rssMb, peak.rssMb), vmMb: Math.max(m.vmMb, peak.vmMb) };
    }
  };
  const latencies: number[] = [];
  const otherErrors = new Map<string, number>();
  const other = async () => {
    while (!floodDone && child.exitCode === null && child.signalCode === null) {
      const t = performance.now();
      const out = await gql(url, tokenB, ONE, { input: { bankId: 'small', query: 'q', queryEmbedding: randomVector(dim), limit: 10 } });
      latencies.push(performance.now() - t);
      for (const e of out.errors ?? [])
        otherErrors.set(e.extensions?.code ?? e.message, (otherErrors.get(e.extensions?.code ?? e.message) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const otherRun = other();
  await Promise.all([attacker(), attacker(), attacker(), attacker()]);
  floodDone = true;
  await otherRun;
  // after the flood: a new bank of the other organization
  const after = await gql(url, tokenB, ONE, { input: { bankId: 'small', query: 'q', queryEmbedding: randomVector(dim), limit: 10 } });
  console.log(
    JSON.stringify(
      {
        mode,
        distinctBanks: requests * aliases,
        seconds: (Date.now() - started) / 1000,
        floodErrors: Object.fromEntries(floodErrors),
        other: {
          requests: latencies.length,
          p50: percentile(latencies, 0.5),
          p99: percentile(latencies, 0.99),
          errors: Object.fromEntries(otherErrors),
        },
        otherAfterFloodErrors: after.errors?.map((e) => e.extensions?.code ?? e.message) ?? [],
        peak,
        end: child.exitCode === null && child.signalCode === null ? memoryOf(child.pid!) : 'server exited',
        serverErrors: logs.filter((l) => /"level":(50|60)/.test(l)).slice(0, 3),
      },
      null,
      1,
    ),
  );
  child.kill();
}

async function large(): Promise<void> {
  const dim = 512;
  const n = Number(process.env.FACTS ?? 100_000);
  const seedStart = Date.now();
  const { tokenB } = await setup(dim, [{ org: 'b', bank: 'big', n }]);
  const seedSeconds = (Date.now() - seedStart) / 1000;
  const { child, url, logs } = await startServer({ RECALL_INDEX_MAX_MB: process.env.RECALL_INDEX_MAX_MB ?? '1024' });
  const recallOnce = async () => {
    const t = performance.now();
    const out = await gql(url, tokenB, ONE, { input: { bankId: 'big', query: 'q', queryEmbedding: randomVector(dim), limit: 10 } });
    if (out.errors) throw new Error(JSON.stringify(out.errors));
    return performance.now() - t;
  };
  // the server before the bank is read (a recall of a bank with no fact warms the code paths)
  await gql(url, tokenB, ONE, { input: { bankId: 'none', query: 'q', queryEmbedding: randomVector(dim), limit: 10 } });
  const baseline = memoryOf(child.pid!);
  await recallOnce(); // the first request reads the bank
  const idle = memoryOf(child.pid!);
  const first = await recallOnce();
  const times: number[] = [];
  for (let i = 0; i < 40; i++) times.push(await recallOnce());
  console.log(
    JSON.stringify(
      {
        mode,
        facts: n,
        dim,
        seedSeconds,
        baseline,
        idleAfterBuild: idle,
        firstMs: Math.round(first),
        p50: percentile(times, 0.5),
        p99: percentile(times, 0.99),
        end: memoryOf(child.pid!),
        indexLog: logs.filter((l) => l.includes('recall index')).slice(-3),
      },
      null,
      1,
    ),
  );
  child.kill();
}

void (mode === 'large' ? large() : flood()).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
