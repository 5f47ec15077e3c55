// Scenario `quality`: how often recall finds the turns that answer a question in long real
// conversations. Each conversation is a bank, each turn a fact written through upsertFacts (text
// only: the server embeds it), each question a recall with limit 10, once per recall strategy the
// schema offers; a BM25 ranking computed here is the baseline. The data is evaluation-only: it is
// read from outside the repository (`../shared/data/locomo-dev.json` beside the checkout, or
// QUALITY_DATA) and never copied; without it the scenario says so and is skipped.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isEnumType, isInputObjectType, isObjectType, type GraphQLSchema } from 'graphql';
import pg from 'pg';
import { projectRoot } from '../src/db/paths';
import { startChild } from './children';
import {
  bm25Rank,
  factText,
  lexemes,
  parseConversations,
  RecallTally,
  type Conversation,
  type QualityResult,
  type StrategyScore,
} from './quality-score';

export const QUALITY_ID = 'quality';
/** facts per upsertFacts call: a conversation's turns go in order, a batch at a time */
const BATCH = 50;
/** how long the scenario waits for the server to embed what was written */
const EMBED_WAIT_MS = 600_000;

/** The evaluation file: QUALITY_DATA, else `shared/data/locomo-dev.json` in the checkout's parent folder. */
export const qualityDataPath = (env: NodeJS.ProcessEnv = process.env): string =>
  env.QUALITY_DATA || join(projectRoot, '..', 'shared', 'data', 'locomo-dev.json');

/** The strategies `recall` accepts (its `strategy` argument's values), or [null] before it had one. */
export function recallStrategies(schema: GraphQLSchema): (string | null)[] {
  const input = schema.getType('RecallInput');
  const field = isInputObjectType(input) ? input.getFields().strategy : undefined;
  if (!field) return [null];
  let type = field.type;
  while ('ofType' in type) type = type.ofType;
  return isEnumType(type) ? type.getValues().map((v) => v.name) : [null];
}

/** Whether recall's answers say which strategy ranked them (`strategyUsed`). */
export function recallReportsStrategy(schema: GraphQLSchema): boolean {
  const t = schema.getType('RecalledFact');
  return isObjectType(t) && 'strategyUsed' in t.getFields();
}

async function post(url: string, token: string, query: string, variables: Record<string, unknown>): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: unknown; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(`GraphQL error: ${body.errors[0].message}`);
  return body.data;
}

const UPSERT = `mutation QualityUpsert($inputs: [FactInput!]!) { upsertFacts(inputs: $inputs) { id } }`;
const bankOf = (c: Conversation) => `quality-${c.id}`;
/** external ids carry the conversation and the turn, so an answer maps back to its turn */
const externalId = (c: Conversation, turnId: string) => `quality:${c.id}:${turnId}`;

/** Waits until every fact of the benchmark's banks has an embedding, or until the count stops falling (nothing embeds them). */
async function waitForEmbeddings(db: pg.Client, orgId: string, waitMs: number): Promise<number> {
  const missing = async () =>
    Number(
      (await db.query(`SELECT count(*) AS n FROM facts WHERE org_id = $1 AND bank_id LIKE 'quality-%' AND embedding IS NULL`, [orgId]))
        .rows[0].n,
    );
  const until = Date.now() + waitMs;
  let last = await missing();
  while (last > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 5000));
    const now = await missing();
    if (now === last) break;
    last = now;
  }
  return last;
}

/** Writes the conversations, asks every question by every strategy, and scores the answers. */
export async function measureQuality(opts: {
  url: string;
  token: string;
  db: pg.Client;
  orgId: string;
  conversations: Conversation[];
  strategies: (string | null)[];
  /** ask each answer which strategy ranked it (a fallback to LEXICAL is counted in the results) */
  reportsStrategy?: boolean;
  /** how long to wait for the server to embed the facts (default 10 minutes) */
  embedWaitMs?: number;
  log?: (line: string) => void;
}): Promise<Omit<QualityResult, 'data'>> {
  const { url, token, db, conversations } = opts;
  const log = opts.log ?? (() => {});
  for (const c of conversations) {
    for (let i = 0; i < c.turns.length; i += BATCH) {
      const inputs = c.turns
        .slice(i, i + BATCH)
        .map((t) => ({ bankId: bankOf(c), text: factText(t), externalId: externalId(c, t.id), kind: 'turn' }));
      await post(url, token, UPSERT, { inputs });
    }
    log(`quality: wrote ${c.turns.length} facts of ${c.id}`);
  }
  const factsWithoutEmbedding = await waitForEmbeddings(db, opts.orgId, opts.embedWaitMs ?? EMBED_WAIT_MS);
  const tallies = new Map<string, RecallTally>();
  const tally = (name: string) => tallies.get(name) ?? tallies.set(name, new RecallTally()).get(name)!;
  for (const c of conversations) {
    const docs = await lexemes(db, c.turns.map(factText));
    const queries = await lexemes(
      db,
      c.questions.map((q) => q.question),
    );
    c.questions.forEach((q, i) =>
      tally('BM25 (benchmark)').add(
        q,
        bm25Rank(docs, queries[i].keys()).map((d) => c.turns[d].id),
      ),
    );
    for (const strategy of opts.strategies) {
      const query = `query QualityRecall($input: RecallInput!) { recall(input: $input) { fact { externalId } ${opts.reportsStrategy ? 'strategyUsed' : ''} } }`;
      for (const q of c.questions) {
        const input = { bankId: bankOf(c), query: q.question, limit: 10, ...(strategy ? { strategy } : {}) };
        const started = performance.now();
        const data = (await post(url, token, query, { input })) as {
          recall: { fact: { externalId: string | null }; strategyUsed?: string }[];
        };
        const ms = performance.now() - started;
        const prefix = externalId(c, '');
        const ranked = data.recall.map((r) => r.fact.externalId ?? '').map((e) => (e.startsWith(prefix) ? e.slice(prefix.length) : ''));
        // an empty answer names no strategy
        const used = opts.reportsStrategy ? (data.recall[0]?.strategyUsed ?? 'no answers') : undefined;
        tally(strategy ?? 'default').add(q, ranked, ms, used);
      }
    }
    log(`quality: asked the ${c.questions.length} questions of ${c.id}`);
  }
  const strategies: StrategyScore[] = [...tallies.entries()].map(([name, t]) => t.score(name));
  return {
    conversations: conversations.length,
    facts: conversations.reduce((a, c) => a + c.turns.length, 0),
    questions: conversations.reduce((a, c) => a + c.questions.length, 0),
    factText: 'speaker: text',
    batch: BATCH,
    factsWithoutEmbedding,
    strategies,
  };
}

/**
 * The scenario as `npm run bench` runs it: its own server (the local embedding model, no budgets)
 * on the benchmark's database. Returns why it was skipped when the data file is absent.
 */
export async function runQuality(opts: {
  env: Record<string, string>;
  databaseUrl: string;
  token: string;
  orgId: string;
  schema: GraphQLSchema;
  dataPath?: string;
}): Promise<QualityResult | string> {
  const path = opts.dataPath ?? qualityDataPath();
  if (!existsSync(path)) {
    const why = `skipped: no evaluation data at ${path} (it is evaluation-only and never copied into the repository; set QUALITY_DATA to its path)`;
    console.log(`quality ${why}`);
    return why;
  }
  console.log(`quality: reading ${path} (evaluation-only data, read in place)`);
  const conversations = parseConversations(JSON.parse(readFileSync(path, 'utf8')));
  const server = await startChild('graphql-quality', 'graphql-server', {
    ...opts.env,
    EMBEDDINGS_PROVIDER: 'local',
    MIGRATE_ON_START: 'false',
  });
  const db = new pg.Client({ connectionString: opts.databaseUrl });
  await db.connect();
  try {
    const result = await measureQuality({
      url: `http://127.0.0.1:${server.port}/graphql`,
      token: opts.token,
      db,
      orgId: opts.orgId,
      conversations,
      strategies: recallStrategies(opts.schema),
      reportsStrategy: recallReportsStrategy(opts.schema),
      log: (line) => process.stderr.write(`${line}\n`),
    });
    return { data: path, ...result };
  } finally {
    await db.end();
    await server.stop();
  }
}
