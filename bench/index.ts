import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import 'reflect-metadata';
import pg from 'pg';
import { buildAppSchema } from '../src/graphql/build-schema';
import { createLogger } from '../src/core/logger';
import { startEmbedded } from '../src/db/embedded';
import { startChild, type Child } from './children';
import { runFanOut, type FanOutResult } from './fanout';
import { compareAnswers } from './answers';
import { measureAlternating, once, type LoadResult, type Target } from './load';
import { markdown, type Row } from './report';
import { insertKey, noisyMarkdown, runNoisyTenant, seedNoisyMemoryAgent, UNBOUNDED, type NoisyResult } from './noisy';
import { loadBenchData } from './data';
import { compareRecall, type RecallAgreement } from './recall-agreement';
import { fanOut, scenarios } from './scenarios';
import { benchSteps, Progress } from './progress';
import { seed } from './seed';
import { OTLP_ID, otlpMarkdown, runOtlp } from './otlp';
import { PEERS_ID, runPeers } from './peers';
import { peersTable, type PeersResult } from './peer-report';
import { QUALITY_ID, runQuality } from './quality';
import { ERASURE_ID, runErasure } from './erasure';
import { qualityTable, type QualityResult } from './quality-score';
import { runSemantic, SEMANTIC_ID } from './semantic';
import { LEARNING_CURVE_ID, runLearningCurve } from './learning-curve';
import { learningTable } from './learning-svg';

interface Args {
  scale: number;
  duration: number;
  warmup: number;
  connections: number;
  subscribers: number;
  events: number;
  writers: number;
  only: string[];
  facts: number | null;
  dim: number | null;
  noRaw: boolean;
  /** the peer comparison's second runtime of our server: '24', a Node.js binary, or 'none' */
  node: string;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    scale: 1,
    duration: 10,
    warmup: 2,
    connections: 10,
    subscribers: 1000,
    events: 20,
    writers: 1,
    only: [],
    facts: null,
    dim: null,
    noRaw: false,
    node: '24',
  };
  for (let i = 0; i < argv.length; i++) {
    const [k, v] = [argv[i], argv[i + 1]];
    const num = () => {
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0) throw new Error(`${k} expects a number`);
      i++;
      return n;
    };
    if (k === '--scale') a.scale = num();
    else if (k === '--duration') a.duration = num();
    else if (k === '--warmup') a.warmup = num();
    else if (k === '--connections') a.connections = num();
    else if (k === '--subscribers') a.subscribers = num();
    else if (k === '--events') a.events = num();
    else if (k === '--writers') a.writers = num();
    else if (k === '--only') {
      a.only = (v ?? '').split(',');
      i++;
    } else if (k === '--facts') a.facts = num();
    else if (k === '--dim') a.dim = num();
    else if (k === '--no-raw') a.noRaw = true;
    else if (k === '--node') {
      a.node = v ?? '24';
      i++;
    } else
      throw new Error(
        `unknown option ${k} (--scale --duration --warmup --connections --subscribers --events --writers --only --facts --dim --no-raw --node)`,
      );
  }
  return a;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });

/** A fresh database: on BENCH_DATABASE_URL's server when set, else an embedded PostgreSQL in a temp dir. */
async function openDatabase(): Promise<{ url: string; close(): Promise<void> }> {
  const admin = process.env.BENCH_DATABASE_URL;
  if (admin) {
    const name = `memory_loop_bench_${Date.now()}`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    const u = new URL(admin);
    u.pathname = '/' + name;
    return {
      url: u.toString(),
      close: async () => {
        const d = new pg.Client({ connectionString: admin });
        await d.connect();
        await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await d.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'memory-loop-bench-'));
  const db = await startEmbedded(dir, await freePort(), createLogger('warn', 2));
  return {
    url: db.url,
    close: async () => {
      await db.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The root fields of the schema the server runs (built in this process from the same classes). */
function rootFields(): Set<string> {
  const schema = buildAppSchema();
  const names = new Set<string>();
  for (const t of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()])
    for (const f of Object.keys(t?.getFields() ?? {})) names.add(`${t!.name}.${f}`);
  return names;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const poolMax = String(Number(process.env.DB_POOL_MAX ?? 10));
  const token = `ml_${randomBytes(24).toString('hex')}`;
  const children: Child[] = [];
  const db = await openDatabase();
  try {
    const baseEnv = {
      DATABASE_URL: db.url,
      PORT: '0',
      HOST: '127.0.0.1',
      INIT_ORG_NAME: 'bench',
      INIT_ADMIN_TOKEN: token,
      LOG_LEVEL: 'warn',
      DB_POOL_MAX: poolMax,
      NODE_ENV: 'production',
      REDIS_URL: '',
      // the speed scenarios send their own vectors, as before server-made embeddings: they measure the
      // server, not a model (the quality scenario runs the local model)
      EMBEDDINGS_PROVIDER: 'none',
    };
    // the scenarios and the fan-out measure the server, not its budgets (the noisy tenant does)
    const gqlEnv = { ...baseEnv, ...UNBOUNDED };
    const gql = await startChild('graphql', 'graphql-server', gqlEnv);
    children.push(gql);
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const orgId = (await c.query(`SELECT id FROM organizations WHERE name = 'bench'`)).rows[0].id as string;
    await c.end();
    const quality = () => runQuality({ env: gqlEnv, databaseUrl: db.url, token, orgId, schema: buildAppSchema() });
    const semantic = () =>
      runSemantic({
        env: gqlEnv,
        databaseUrl: db.url,
        token,
        orgId,
        facts: args.facts ?? 100_000,
        duration: args.duration,
        warmup: args.warmup,
      });
    if (args.only.length && args.only.every((id) => id === QUALITY_ID || id === SEMANTIC_ID)) {
      // the quality and semantic scenarios write their own banks: no seeding, no load
      const date = new Date().toISOString();
      const own = {
        ...(args.only.includes(SEMANTIC_ID) ? { semantic: await semantic() } : {}),
        ...(args.only.includes(QUALITY_ID) ? { quality: await quality() } : {}),
      };
      writeResults({ date, args, node: process.version, ...own });
      return;
    }
    if (args.only.length && args.only.every((id) => id === ERASURE_ID)) {
      // the erasure scenario seeds its own volume (--facts, default 1,000,000, and a tenth as many episodes)
      const facts = args.facts ?? Math.round(1_000_000 * args.scale);
      const erasure = await runErasure({
        url: `http://127.0.0.1:${gql.port}/graphql`,
        databaseUrl: db.url,
        orgId,
        facts,
        episodes: Math.round(facts / 10),
        asOfFacts: 100_000,
      });
      writeResults({ date: new Date().toISOString(), args, node: process.version, erasure });
      console.log(JSON.stringify(erasure, null, 2));
      return;
    }
    if (args.only.length && args.only.every((id) => id === OTLP_ID)) {
      // the OTLP ingest writes its own episodes: no seeding
      const otlp = await runOtlp({ baseUrl: `http://127.0.0.1:${gql.port}`, token, databaseUrl: db.url, stats: () => gql.stats() });
      writeResults({ date: new Date().toISOString(), args, node: process.version, otlp });
      console.log('\n' + otlpMarkdown(otlp));
      return;
    }
    if (args.only.length && args.only.every((id) => id === LEARNING_CURVE_ID)) {
      // the learning curve writes its own organizations and banks: no seeding, no load
      const learningCurve = await runLearningCurve({ gql, dbUrl: db.url });
      console.log('\n' + learningTable(learningCurve).join('\n'));
      writeResults({ date: new Date().toISOString(), args, node: process.version, learningCurve });
      return;
    }
    const overrides = { ...(args.facts !== null ? { facts: args.facts } : {}), ...(args.dim !== null ? { embeddingDim: args.dim } : {}) };
    const progress = new Progress(benchSteps(scenarios, fanOut, args, !!process.env.REDIS_URL));
    progress.start('seed');
    const seeded = await seed(db.url, args.scale, orgId, overrides);
    console.log(`seeded scale ${args.scale} in ${(seeded.ms / 1000).toFixed(1)} s: ${JSON.stringify(seeded.plan)}`);
    const data = await loadBenchData(db.url, seeded);
    const raw = await startChild('raw', 'raw-server', { RAW_DATABASE_URL: db.url, DB_POOL_MAX: poolMax });
    children.push(raw);
    const gqlUrl = `http://127.0.0.1:${gql.port}/graphql`;
    const fields = rootFields();
    const rows: Row[] = [];
    const load = { connections: args.connections, warmup: args.warmup, duration: args.duration };
    let recallAt10: RecallAgreement | string = 'not measured';
    for (const s of scenarios) {
      if (args.only.length && !args.only.includes(s.id)) continue;
      progress.start(s.id);
      if (!fields.has(`${s.root.type}.${s.root.field}`)) {
        console.log(`skip ${s.title}: the schema has no ${s.root.type}.${s.root.field} yet`);
        rows.push({ scenario: s.title, skipped: `no ${s.root.type}.${s.root.field}` });
        continue;
      }
      const body = (i: number) => JSON.stringify({ query: s.query, variables: s.variables(data, i) });
      const targets: Target[] = [
        { name: 'graphql', url: gqlUrl, headers: { authorization: `Bearer ${token}` }, stats: () => gql.stats() },
        {
          name: 'raw',
          url: `http://127.0.0.1:${raw.port}/${s.id}`,
          headers: { authorization: `Bearer ${token}` },
          stats: () => raw.stats(),
        },
      ].filter((t) => t.name === 'graphql' || (s.raw !== false && !args.noRaw));
      const res: Partial<Record<'graphql' | 'raw', LoadResult>> = {};
      let failed: string | null = null;
      // the first request of a scenario includes what a server does on first use (reading a bank into the recall index)
      let firstMs = 0;
      for (const t of targets) {
        const started = Date.now();
        const check = await once(t, body(0));
        if (t.name === 'graphql') firstMs = Date.now() - started;
        if (!check.ok) {
          failed = `${t.name} answered with an error: ${check.text.slice(0, 300)}`;
          break;
        }
      }
      if (failed) {
        console.log(`skip ${s.title}: ${failed}`);
        rows.push({ scenario: s.title, skipped: failed });
        continue;
      }
      if (s.id === 'recall' && targets.length === 2) recallAt10 = await compareRecall(targets, data);
      const answers = targets.length === 2 ? await compareAnswers(s, targets, body) : undefined;
      if (answers?.firstDifference) console.log(`answers differ in ${s.title}: ${answers.firstDifference}`);
      Object.assign(res, await measureAlternating(targets, body, { ...load, connections: s.connections ?? load.connections }));
      rows.push({
        scenario: s.title,
        connections: s.connections ?? load.connections,
        firstRequestMs: firstMs,
        answers,
        graphql: res.graphql,
        raw: res.raw,
        graphqlRssMb: gql.peakRssMb(),
        rawRssMb: raw.peakRssMb(),
      });
      console.log(`done ${s.title}`);
    }
    const fan: Record<string, FanOutResult | string> = {};
    if (!args.only.length || args.only.includes(fanOut.id)) {
      progress.start(fanOut.id);
      if (!fields.has(`Subscription.${fanOut.root.field}`) || !fields.has('Mutation.submitFeedback')) {
        fan.inProcess = 'skipped: the schema has no Subscription.feedbackAdded / Mutation.submitFeedback yet';
        console.log(`skip 9 fan-out: ${fan.inProcess}`);
      } else {
        const fo = { token, episodeId: data.hotEpisodeId, subscribers: args.subscribers, events: args.events, writers: args.writers };
        fan.inProcess = await runFanOut({ ...fo, subWsUrl: `ws://127.0.0.1:${gql.port}/graphql`, mutationUrl: gqlUrl });
        if (process.env.REDIS_URL) {
          const a = await startChild('graphql-a', 'graphql-server', {
            ...gqlEnv,
            REDIS_URL: process.env.REDIS_URL,
            MIGRATE_ON_START: 'false',
          });
          const b = await startChild('graphql-b', 'graphql-server', {
            ...gqlEnv,
            REDIS_URL: process.env.REDIS_URL,
            MIGRATE_ON_START: 'false',
          });
          children.push(a, b);
          fan.redis = await runFanOut({
            ...fo,
            subWsUrl: `ws://127.0.0.1:${b.port}/graphql`,
            mutationUrl: `http://127.0.0.1:${a.port}/graphql`,
          });
        } else fan.redis = 'skipped: REDIS_URL is not set';
      }
    }
    const index = await gql.stats();
    const recallIndex = {
      vectors: index.indexVectors ?? 0,
      mb: (index.indexBytes ?? 0) / 2 ** 20,
      mbPerMillionVectors: index.indexVectors ? ((index.indexBytes ?? 0) / 2 ** 20) * (1e6 / index.indexVectors) : null,
    };
    let noisy: NoisyResult | undefined;
    if (!args.only.length || args.only.includes('noisy-tenant')) {
      progress.start('noisy-tenant');
      const budgeted = await startChild('graphql-budgets', 'graphql-server', { ...baseEnv, MIGRATE_ON_START: 'false' });
      const firstCome = await startChild('graphql-first-come', 'graphql-server', {
        ...baseEnv,
        MIGRATE_ON_START: 'false',
        RUNNING_SLOTS: '0',
      });
      const twoSlots = await startChild('graphql-two-slots', 'graphql-server', {
        ...baseEnv,
        MIGRATE_ON_START: 'false',
        RUNNING_SLOTS: '2',
      });
      children.push(budgeted, firstCome, twoSlots);
      await seedNoisyMemoryAgent(db.url, orgId);
      noisy = await runNoisyTenant({
        budgetedUrl: `http://127.0.0.1:${budgeted.port}/graphql`,
        firstComeUrl: `http://127.0.0.1:${firstCome.port}/graphql`,
        twoSlotsUrl: `http://127.0.0.1:${twoSlots.port}/graphql`,
        unbudgetedUrl: gqlUrl,
        quietToken: await insertKey(db.url, seeded.otherOrgId, 'VIEWER', 'quiet'),
        heavyToken: await insertKey(db.url, orgId, 'AGENT', 'heavy'),
        rate: 20,
        connections: args.connections,
        duration: args.duration,
      });
    }
    let qualityResult: QualityResult | string | undefined;
    if (!args.only.length || args.only.includes(QUALITY_ID)) {
      progress.start(QUALITY_ID);
      qualityResult = await quality();
    }
    let peers: PeersResult | string | undefined;
    if (!args.only.length || args.only.includes(PEERS_ID)) {
      progress.start(PEERS_ID);
      peers = await runPeers({
        databaseUrl: db.url,
        orgId,
        token,
        env: gqlEnv,
        poolMax,
        data,
        load,
        node: args.node,
        log: (l) => console.log(l),
      });
    }
    const learningCurve =
      !args.only.length || args.only.includes(LEARNING_CURVE_ID) ? await runLearningCurve({ gql, dbUrl: db.url }) : undefined;
    progress.finish();
    const result = {
      date: new Date().toISOString(),
      args,
      poolMax: Number(poolMax),
      node: process.version,
      plan: seeded.plan,
      seedMs: seeded.ms,
      scenarios: rows,
      recallAt10,
      recallIndex,
      fanOut: fan,
      noisyTenant: noisy,
      quality: qualityResult,
      peers,
      learningCurve,
      graphqlPeakRssMb: gql.peakRssMb(),
      rawPeakRssMb: raw.peakRssMb(),
    };
    writeResults(result);
    if (rows.length || Object.keys(fan).length) console.log('\n' + markdown(result));
    if (noisy) console.log('\n' + noisyMarkdown(noisy));
    if (peers) console.log('\n' + (typeof peers === 'string' ? `peers: ${peers}` : peersTable(peers).join('\n')));
  } finally {
    for (const ch of children.reverse()) await ch.stop();
    await db.close();
  }
}

/** Writes a run's results to bench/results/<date>.json (and prints the quality table when measured). */
function writeResults(result: { date: string; quality?: QualityResult | string; [more: string]: unknown }): string {
  const dir = join(__dirname, '..', '..', 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${result.date.slice(0, 19).replaceAll(':', '-')}.json`);
  writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
  if (result.quality && typeof result.quality !== 'string') console.log('\n' + qualityTable(result.quality).join('\n'));
  console.log(`written to ${file}`);
  return file;
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
