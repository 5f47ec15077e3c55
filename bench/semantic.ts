// The semantic-memory scenarios (`npm run bench -- --only semantic`): recall and writes with the
// server's own embedding model (EMBEDDINGS_PROVIDER=local), over a bank of 100,000 facts (--facts)
// with 512-dimension vectors of that model, measured against what the model does on its own.
//
// The bank: 500 topic sentences written through upsertFacts (the server embeds them), then the
// bank's facts by set-based SQL, each a topic's sentence with a number, its vector the topic's
// plus noise, rounded to 32-bit floats as the model's are (so the facts of a topic are near-ties,
// the hard case for the vector index). Queries are questions about the topics, each text distinct
// (so the embedding cache never answers them).
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/core/logger';
import { createEmbedder, LOCAL_MODEL_ID } from '../src/modules/embeddings';
import { startChild, type Child, type ServerMemory } from './children';
import { measureAlternating, once, type LoadResult, type Target } from './load';
import { insertKey } from './noisy';
import type { Row } from './report';

export const SEMANTIC_ID = 'semantic';

/** The server's model, with time for a batch of 500 texts on a busy machine (the measure is speed, not the timeout). */
const LOCAL = { EMBEDDINGS_PROVIDER: 'local', EMBEDDINGS_TIMEOUT_MS: '600000' };

const NAMES = ['Maria', 'John', 'Aiko', 'Omar', 'Lena', 'Carlos', 'Priya', 'Tom', 'Zoe', 'Ivan'];
const VERBS = ['planted', 'repaired', 'painted', 'sold', 'bought', 'cooked', 'studied', 'photographed', 'lost', 'found'];
const THINGS = [
  'tomatoes',
  'a bicycle',
  'the kitchen',
  'an old piano',
  'tickets',
  'dumplings',
  'violin',
  'the river',
  'a wallet',
  'a kitten',
];
const PLACES = ['in Lisbon', 'at the market', 'near the lake', 'in the garden', 'downtown', 'at school'];

const topic = (k: number) =>
  `${NAMES[k % 10]} ${VERBS[Math.floor(k / 10) % 10]} ${THINGS[Math.floor(k / 100) % 10]} ${PLACES[k % 6]} last ${['spring', 'summer', 'autumn', 'winter'][k % 4]}`;
const TOPICS = 500;
/** A question about topic i % TOPICS, its text distinct for every i. */
const question = (i: number) => {
  const k = (i * 7919) % TOPICS;
  return `What did ${NAMES[k % 10]} do with ${THINGS[Math.floor(k / 100) % 10]} ${PLACES[k % 6]}? (${i})`;
};
/** About 100 characters of new fact text, distinct for every i. */
const note = (i: number) => `${topic(i % TOPICS)}, and ${NAMES[(i + 3) % 10]} wrote it down in note number ${i} of the diary`;

const HYBRID = `query SemHybrid($input: RecallInput!) { recall(input: $input) { fact { id text } semanticScore lexicalScore finalScore strategyUsed } }`;
const UPSERT = `mutation SemUpsert($inputs: [FactInput!]!) { upsertFacts(inputs: $inputs) { id } }`;

interface ModelAlone {
  /** one query at a time: queries/s and the median ms of one */
  oneAtATime: { qps: number; p50: number };
  /** 10 queries in flight: queries/s */
  tenInFlight: { qps: number };
  /** calls of 500 texts of about 100 characters: texts/s */
  batch500: { textsPerSecond: number };
}

export interface SemanticResult {
  facts: number;
  dim: number;
  /** load average (1, 5, 15 min) of the machine at the start and end */
  loadBefore: number[];
  loadAfter: number[];
  modelAlone: ModelAlone;
  rows: Row[];
  /** null when BENCH_SEMANTIC_WRITES=false left the writes out (a run of the reads alone) */
  writes: {
    factsPerSecond: number;
    batches: number;
    /** another organization's HYBRID recall, one connection, alone and while the writes run */
    idle: LoadResult;
    during: LoadResult;
  } | null;
  /** the server's resident memory, MB: model loaded and pool idle; after the index holds the bank; at the end; peak */
  rssMb: { modelLoaded: number | null; indexHeld: number | null; end: number | null; peak: number | null };
  indexMb: number;
  /** where the memory is (MB): the main thread's heap and off-heap memory, each inference thread's heap and WebAssembly memory; model loaded, before the writes, at the end */
  memoryMb?: { modelLoaded: MemoryMb | null; beforeWrites: MemoryMb | null; end: MemoryMb | null; endCollected?: MemoryMb | null };
}

interface MemoryMb {
  rss: number | null;
  heapTotal: number;
  heapUsed: number;
  external: number;
  workers: { heap: number; wasm: number }[];
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** The server's memory now, by part (MB). */
async function memoryOf(child: Child, gc = false): Promise<MemoryMb | null> {
  const m: ServerMemory | undefined = (await child.stats(gc)).memory;
  if (!m) return null;
  return {
    rss: rssMb(child),
    heapTotal: mb(m.heapTotal),
    heapUsed: mb(m.heapUsed),
    external: mb(m.external),
    workers: m.workers.map((w) => ({ heap: mb(w.heap), wasm: mb(w.wasm) })),
  };
}

const rssMb = (child: Child): number | null => {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.proc.pid}/status`, 'utf8'));
    return kb ? Math.round(Number(kb[1]) / 1024) : null;
  } catch {
    return null;
  }
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The model on its own, as the server's embedder runs it (its worker pool and batching), without HTTP or SQL. */
async function modelAlone(env: Record<string, string>, orgId: string, seconds: number): Promise<ModelAlone> {
  const embedder = createEmbedder(loadConfig({ ...process.env, ...env, ...LOCAL }).embeddings, createLogger('warn', 2));
  try {
    await embedder.embed(orgId, ['warm up'], 'query');
    let i = 1_000_000;
    const one: number[] = [];
    const started = performance.now();
    while (performance.now() - started < seconds * 1000) {
      const t = performance.now();
      await embedder.embed(orgId, [question(i++)], 'query');
      one.push(performance.now() - t);
    }
    const oneQps = one.length / ((performance.now() - started) / 1000);
    let done = 0;
    const until = performance.now() + seconds * 1000;
    const t10 = performance.now();
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (performance.now() < until) {
          await embedder.embed(orgId, [question(i++)], 'query');
          done++;
        }
      }),
    );
    const tenQps = done / ((performance.now() - t10) / 1000);
    const tb = performance.now();
    let texts = 0;
    for (let b = 0; b < 2; b++) {
      await embedder.embed(
        orgId,
        Array.from({ length: 500 }, () => note(i++)),
        'document',
      );
      texts += 500;
    }
    return {
      oneAtATime: { qps: oneQps, p50: median(one) },
      tenInFlight: { qps: tenQps },
      batch500: { textsPerSecond: texts / ((performance.now() - tb) / 1000) },
    };
  } finally {
    await embedder.close();
  }
}

async function gql(url: string, token: string, query: string, variables: unknown): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: unknown; errors?: unknown };
  if (body.errors) throw new Error(`bench semantic: ${JSON.stringify(body.errors).slice(0, 300)}`);
  return body.data;
}

/** `n` facts in `bankId`, each near one of the topic vectors of `topicBank` (rounded to 32-bit floats, the model's id recorded). */
async function seedBank(db: pg.Client, orgId: string, topicBank: string, bankId: string, n: number): Promise<void> {
  await db.query(
    `WITH t AS (SELECT row_number() OVER (ORDER BY f.seq) - 1 AS k, f.text, f.embedding FROM facts f WHERE f.org_id = $1 AND f.bank_id = $2)
     INSERT INTO facts (id, org_id, created_at, updated_at, bank_id, text, kind, status, embedding, embedding_model)
     SELECT gen_random_uuid(), $1, now() - (g % 90) * interval '1 day', now(), $3, t.text || ' (note ' || g || ')', 'note', 'CONFIRMED',
            (SELECT array_agg(((e.x + 0.02 * (random() - 0.5))::real)::float8 ORDER BY e.o) FROM unnest(t.embedding) WITH ORDINALITY e(x, o) WHERE g > 0),
            $5
       FROM generate_series(1, $4::int) g JOIN t ON t.k = g % ${TOPICS}`,
    [orgId, topicBank, bankId, n, LOCAL_MODEL_ID],
  );
}

export async function runSemantic(opts: {
  env: Record<string, string>;
  databaseUrl: string;
  token: string;
  orgId: string;
  facts: number;
  duration: number;
  warmup: number;
}): Promise<SemanticResult> {
  const loadBefore = loadavg();
  const model = await modelAlone(opts.env, opts.orgId, Math.max(5, opts.duration / 2));
  console.log(`model alone: ${JSON.stringify(model)}`);
  const server = await startChild('graphql-local', 'graphql-server', { ...opts.env, ...LOCAL, MIGRATE_ON_START: 'false' });
  const db = new pg.Client({ connectionString: opts.databaseUrl });
  await db.connect();
  try {
    const url = `http://127.0.0.1:${server.port}/graphql`;
    // topics through the server, which embeds them (its model loads on the first)
    for (let k = 0; k < TOPICS; k += 100)
      await gql(url, opts.token, UPSERT, {
        inputs: Array.from({ length: 100 }, (_, j) => ({ bankId: 'semantic-topics', text: topic(k + j) })),
      });
    const rssModel = rssMb(server);
    const memModel = await memoryOf(server);
    console.log(`memory, model loaded: ${JSON.stringify(memModel)}`);
    const other = (await db.query(`INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'semantic-other') RETURNING id`)).rows[0]
      .id as string;
    const otherToken = await insertKey(opts.databaseUrl, other, 'AGENT', 'semantic-other');
    const started = Date.now();
    await seedBank(db, opts.orgId, 'semantic-topics', 'semantic', opts.facts);
    // the other organization: its own topics and a bank of 2,000 facts to read while the first writes
    for (let k = 0; k < TOPICS; k += 100)
      await gql(url, otherToken, UPSERT, {
        inputs: Array.from({ length: 100 }, (_, j) => ({ bankId: 'topics', text: topic(k + j) })),
      });
    await seedBank(db, other, 'topics', 'reads', 2000);
    await db.query('VACUUM ANALYZE facts');
    console.log(`seeded ${opts.facts} facts x 512 in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const target: Target = { name: 'graphql', url, headers: { authorization: `Bearer ${opts.token}` }, stats: () => server.stats() };
    const load = { warmup: opts.warmup, duration: opts.duration };
    const qv = (
      await db.query(`SELECT embedding FROM facts WHERE org_id = $1 AND bank_id = 'semantic-topics' ORDER BY seq LIMIT 1`, [opts.orgId])
    ).rows[0].embedding as number[];
    const scenarios: { title: string; connections: number; input: (i: number) => Record<string, unknown> }[] = [
      { title: 'S1 recall HYBRID, the server embedding the query, 1 connection', connections: 1, input: (i) => ({ query: question(i) }) },
      {
        title: 'S2 recall SEMANTIC with a client queryEmbedding, 1 connection',
        connections: 1,
        input: (i) => ({ query: question(i), queryEmbedding: qv.map((x, d) => x + (((i * 31 + d * 17) % 13) - 6) * 0.002) }),
      },
      { title: 'S3 recall LEXICAL, 1 connection', connections: 1, input: (i) => ({ query: question(i), strategy: 'LEXICAL' }) },
      {
        title: 'S4 recall HYBRID, the server embedding the query, 10 connections',
        connections: 10,
        input: (i) => ({ query: question(i) }),
      },
    ];
    const rows: Row[] = [];
    let rssIndex: number | null = null;
    let offset = 0;
    for (const s of scenarios) {
      const base = (offset += 1_000_000);
      const body = (i: number) =>
        JSON.stringify({ query: HYBRID, variables: { input: { bankId: 'semantic', limit: 10, ...s.input(base + i) } } });
      const t0 = Date.now();
      const check = await once(target, body(0));
      const firstRequestMs = Date.now() - t0;
      if (!check.ok) throw new Error(`bench semantic: ${s.title} answered ${check.text.slice(0, 300)}`);
      rssIndex ??= rssMb(server);
      const res = await measureAlternating([target], body, { ...load, connections: s.connections }, 2);
      rows.push({ scenario: s.title, connections: s.connections, firstRequestMs, graphql: res.graphql, graphqlRssMb: server.peakRssMb() });
      console.log(`done ${s.title}: ${JSON.stringify(res.graphql)}`);
    }
    if (process.env.BENCH_SEMANTIC_WRITES === 'false') {
      const index = await server.stats();
      return {
        facts: opts.facts,
        dim: 512,
        loadBefore,
        loadAfter: loadavg(),
        modelAlone: model,
        rows,
        writes: null,
        rssMb: { modelLoaded: rssModel, indexHeld: rssIndex, end: rssMb(server), peak: server.peakRssMb() },
        indexMb: (index.indexBytes ?? 0) / 2 ** 20,
      };
    }
    // writes: batches of 500 new facts (the server embeds them) while the other organization reads
    const reads: Target = { name: 'graphql', url, headers: { authorization: `Bearer ${otherToken}` }, stats: () => server.stats() };
    const readBody = (i: number) =>
      JSON.stringify({ query: HYBRID, variables: { input: { bankId: 'reads', limit: 10, query: question(7_000_000 + i) } } });
    await once(reads, readBody(0));
    const memBeforeWrites = await memoryOf(server);
    console.log(`memory, before the writes: ${JSON.stringify(memBeforeWrites)}`);
    const idle = (await measureAlternating([reads], readBody, { warmup: 1, duration: opts.duration, connections: 1 }, 1)).graphql!;
    let writing = true;
    let written = 0;
    let batches = 0;
    const tw = performance.now();
    const writer = (async () => {
      for (let b = 0; writing; b++) {
        await gql(url, opts.token, UPSERT, {
          inputs: Array.from({ length: 500 }, (_, j) => ({ bankId: 'semantic-writes', text: note(9_000_000 + b * 500 + j) })),
        });
        written += 500;
        batches += 1;
      }
    })();
    const during = (
      await measureAlternating([reads], (i) => readBody(100_000 + i), { warmup: 1, duration: opts.duration, connections: 1 }, 1)
    ).graphql!;
    writing = false;
    await writer;
    const factsPerSecond = written / ((performance.now() - tw) / 1000);
    const index = await server.stats();
    const memEnd = await memoryOf(server);
    const rssEnd = memEnd?.rss ?? rssMb(server);
    console.log(`memory, end: ${JSON.stringify(memEnd)}`);
    // the same after a full collection of the main thread: what of its heap is live
    const memCollected = await memoryOf(server, true);
    console.log(`memory, end, main heap collected: ${JSON.stringify(memCollected)}`);
    return {
      facts: opts.facts,
      dim: 512,
      loadBefore,
      loadAfter: loadavg(),
      modelAlone: model,
      rows,
      writes: { factsPerSecond, batches, idle, during },
      rssMb: { modelLoaded: rssModel, indexHeld: rssIndex, end: rssEnd, peak: server.peakRssMb() },
      indexMb: (index.indexBytes ?? 0) / 2 ** 20,
      memoryMb: { modelLoaded: memModel, beforeWrites: memBeforeWrites, end: memEnd, endCollected: memCollected },
    };
  } finally {
    await db.end();
    await server.stop();
  }
}
