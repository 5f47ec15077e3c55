import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { UNBOUNDED_BUDGETS } from './unbounded';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<any>;

/** The quiet organization's request: a page of its episodes with a little context. */
const QUIET_QUERY = `query Quiet { episodes(first: 10) { edges { node { id title feedbackCount segments { id role } } } } }`;
const page = (
  first: number,
) => `query Heavy { episodes(first: ${first}) { edges { node { id agentId title createdAt canvasActionCount feedbackCount aggregateFeedbackScore
  canvasContext { id canvasType action createdAt } feedbackContext { id feedbackType score createdAt } segments { id seq role content tokenEstimate } } } } }`;
/**
 * What the heavy key sends: the benchmark's enriched page of 20 episodes (2,860 complexity points),
 * and the largest such page, 100 episodes (14,300 points, some 40 ms of one core per request).
 */
const HEAVY = [
  { name: 'pages of 20 episodes with context', query: page(20) },
  { name: 'pages of 100 episodes with context', query: page(100) },
] as const;

/** The agent of the heavy mix's memoryContext: 100 episodes of 100 segments, 10,000 candidates. */
const NOISY_MEMORY_AGENT = 'agent-noisy-memory';
/** The agent whose episodes (with embeddings) the heavy mix's recallEpisodes ranks. */
const RECALL_AGENT = 'agent-recall';
const EMBEDDING_DIM = 64;

/** A deterministic vector of the seeded dimension. */
const vector = (i: number) => Array.from({ length: EMBEDDING_DIM }, (_, k) => Math.sin(i * 7 + k) / 2);

/** Pages of 100 episodes with their lists (within the complexity limit, every page served). */
const LIST_PAGE = `query HeavyPage { episodes(first: 100) { edges { node { id agentId title createdAt feedbackCount
  canvasContext(limit: 10) { id action } feedbackContext(limit: 10) { id score } segments { id seq role content } } } } }`;
const RECALL_100 = `query HeavyRecall($q: String!, $emb: [Float!]) { recallEpisodes(agentId: "${RECALL_AGENT}", query: $q, queryEmbedding: $emb, limit: 100) {
  episode { id title createdAt } relevance recency finalScore } }`;
const MEMORY_10K = `query HeavyMemory($q: String) { memoryContext(input: { agentId: "${NOISY_MEMORY_AGENT}", query: $q, tokenBudget: 4000, mode: FOVEATED, maxCandidates: 10000 }) {
  entries { id episodeId role content } tokenEstimate candidatesConsidered memoriesSelected } }`;

/** What the heavy key sends in turn on each connection: the issue's mix of heavy but legal requests. */
const HEAVY_MIX = [
  { query: LIST_PAGE },
  { query: RECALL_100, variables: { q: 'topic 7', emb: vector(1) } },
  { query: MEMORY_10K, variables: { q: 'topic-7 words match' } },
];

/** The memory agent's 10,000 segments in the heavy organization (once per database). */
export async function seedNoisyMemoryAgent(dbUrl: string, orgId: string): Promise<void> {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    const { rows } = await c.query(`SELECT 1 FROM episodes WHERE org_id = $1 AND agent_id = $2 LIMIT 1`, [orgId, NOISY_MEMORY_AGENT]);
    if (rows.length) return;
    await c.query(
      `INSERT INTO episodes (id, org_id, created_at, updated_at, agent_id, session_id, title, task, intent, topic, execution_ids, metadata)
       SELECT gen_random_uuid(), $1, now() - g * interval '1 hour', now(), $2, 'noisy-session-' || (g / 10), 'Episode ' || g,
              'Explain topic ' || (g % 50), 'teach', 'topic-' || (g % 50), ARRAY['exec-' || g], '{}'::jsonb
         FROM generate_series(1, 100) g`,
      [orgId, NOISY_MEMORY_AGENT],
    );
    await c.query(
      `INSERT INTO episode_segments (id, org_id, created_at, episode_id, seq, role, content, token_estimate)
       SELECT gen_random_uuid(), e.org_id, e.created_at + s * interval '1 second', e.id, s,
              (ARRAY['user','assistant','tool','system'])[1 + s % 4], 'turn ' || s || ' about ' || e.topic || ' with some words to match a query', 12 + s % 7
         FROM episodes e CROSS JOIN generate_series(0, 99) s WHERE e.org_id = $1 AND e.agent_id = $2`,
      [orgId, NOISY_MEMORY_AGENT],
    );
    await c.query('ANALYZE episodes; ANALYZE episode_segments');
  } finally {
    await c.end();
  }
}

/** Settings that put every budget, per-key cap and the instance's running slots out of reach of the benchmark's load. */
export const UNBOUNDED: Record<string, string> = {
  ...UNBOUNDED_BUDGETS,
  RUNNING_SLOTS: '0',
  WS_SOCKETS_PER_KEY: '1000000',
  WS_SUBSCRIPTIONS_PER_KEY: '1000000',
};

interface Latency {
  requests: number;
  p50: number;
  p99: number;
  errors: number;
}
interface Flood {
  requests: number;
  served: number;
  refused: number;
  servedPerSecond: number;
}
interface Beside extends Latency {
  /** what the heavy key sent */
  sends: string;
  /**
   * default budgets, the same without the instance's fair running slots (RUNNING_SLOTS=0: slots
   * per key and organization only, first come first served) or with two of them (RUNNING_SLOTS=2:
   * the busy organization runs one request at a time), or budgets out of reach
   */
  budgets: 'default' | 'default, first come' | 'default, RUNNING_SLOTS=2' | 'out of reach';
  heavy: Flood;
}
export interface NoisyResult {
  quietRate: number;
  heavyConnections: number;
  duration: number;
  /** the quiet organization alone, on the server with its default budgets */
  idle: Latency;
  /** the same while the heavy key runs flat out */
  beside: Beside[];
}

/** An API key with a known token, written straight into the database (as the CLI would). */
export async function insertKey(dbUrl: string, orgId: string, role: string, name: string): Promise<string> {
  const token = `ml_${randomBytes(24).toString('hex')}`;
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    await c.query(
      `INSERT INTO api_keys (id, org_id, name, role, token_hash, token_prefix) VALUES (gen_random_uuid(), $1, $2, $3, $4, $5)`,
      [orgId, name, role, createHash('sha256').update(token, 'utf8').digest('hex'), token.slice(0, 9)],
    );
  } finally {
    await c.end();
  }
  return token;
}

const post = (url: string, token: string, query: string) => ({
  url,
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  body: JSON.stringify({ query }),
});

type Body = { query: string; variables?: Record<string, unknown> };

/** Each body sent once: a heavy request that is not served whole (over a limit, an error) fails the run. */
async function preflight(url: string, token: string, bodies: Body[]): Promise<void> {
  for (const b of bodies) {
    const r = await fetch(url, { method: 'POST', headers: post(url, token, '').headers, body: JSON.stringify(b) });
    const text = await r.text();
    if (r.status !== 200 || text.includes('"errors"')) throw new Error(`heavy request refused (${r.status}): ${text.slice(0, 300)}`);
  }
}

/** The quiet tenant at a light, fixed rate (latencies corrected for coordinated omission). */
async function quiet(url: string, token: string, rate: number, seconds: number): Promise<Latency> {
  let errors = 0;
  const r = await autocannon({
    ...post(url, token, QUIET_QUERY),
    connections: 2,
    overallRate: rate,
    duration: seconds,
    requests: [{ onResponse: (status: number, body: string) => void ((status !== 200 || body.includes('"errors"')) && errors++) }],
  });
  return { requests: r.requests.total, p50: r.latency.p50, p99: r.latency.p99, errors: errors + r.errors };
}

/** The heavy key flat out, in a worker thread so that it does not share the quiet client's event loop. */
async function flood(url: string, token: string, query: string | Body[], connections: number, seconds: number): Promise<Flood> {
  const requests = typeof query === 'string' ? undefined : query.map((b) => ({ method: 'POST', body: JSON.stringify(b) }));
  const r = await autocannon({
    ...post(url, token, typeof query === 'string' ? query : ''),
    ...(requests ? { requests } : {}),
    connections,
    duration: seconds,
    workers: 1,
  });
  const count = (code: string) => Number(r.statusCodeStats?.[code]?.count ?? 0);
  const served = count('200');
  return { requests: r.requests.total, served, refused: count('429'), servedPerSecond: served / seconds };
}

/** The quiet tenant idle, then beside the heavy key (after a second for the flood to build up). */
async function beside(
  url: string,
  quietToken: string,
  heavyToken: string,
  query: string | Body[],
  o: { rate: number; connections: number; duration: number },
) {
  const heavy = flood(url, heavyToken, query, o.connections, o.duration + 2);
  await new Promise((r) => setTimeout(r, 1000));
  const latency = await quiet(url, quietToken, o.rate, o.duration);
  return { ...latency, heavy: await heavy };
}

/**
 * Noisy tenant: one organization's requests at a light rate, measured alone and while an AGENT
 * key of another organization sends its heaviest page as fast as it can, on a server with the
 * default budgets and on one whose budgets are out of reach.
 */
export async function runNoisyTenant(o: {
  budgetedUrl: string;
  /** default budgets without the instance's fair running slots */
  firstComeUrl: string;
  /** default budgets with two fair running slots */
  twoSlotsUrl: string;
  unbudgetedUrl: string;
  quietToken: string;
  heavyToken: string;
  rate: number;
  connections: number;
  duration: number;
}): Promise<NoisyResult> {
  const load = { rate: o.rate, connections: o.connections, duration: o.duration };
  // warm both servers (plans, pools, caches) with a few of each request
  for (const url of [o.budgetedUrl, o.firstComeUrl, o.twoSlotsUrl, o.unbudgetedUrl]) await quiet(url, o.quietToken, o.rate, 2);
  const idle = await quiet(o.budgetedUrl, o.quietToken, o.rate, o.duration);
  const runs: Beside[] = [];
  // the largest page without budgets would only repeat what the page of 20 shows
  await preflight(o.budgetedUrl, o.heavyToken, HEAVY_MIX);
  const mix = { name: 'the heavy mix (pages of 100 with lists, recallEpisodes of 100, memoryContext over 10,000)', query: HEAVY_MIX };
  const plan: [{ name: string; query: string | Body[] }, Beside['budgets']][] = [
    [mix, 'default, first come'],
    [mix, 'default'],
    [mix, 'default, RUNNING_SLOTS=2'],
    [HEAVY[0], 'default'],
    [HEAVY[0], 'out of reach'],
    [HEAVY[1], 'default'],
  ];
  for (const [heavy, budgets] of plan) {
    const url = {
      default: o.budgetedUrl,
      'default, first come': o.firstComeUrl,
      'default, RUNNING_SLOTS=2': o.twoSlotsUrl,
      'out of reach': o.unbudgetedUrl,
    }[budgets];
    runs.push({ sends: heavy.name, budgets, ...(await beside(url, o.quietToken, o.heavyToken, heavy.query, load)) });
    // a server without budgets is still working through the flood's last requests
    await new Promise((r) => setTimeout(r, 3000));
  }
  return { quietRate: o.rate, heavyConnections: o.connections, duration: o.duration, idle, beside: runs };
}

const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '-');

/** The Markdown table of a noisy-tenant run. */
export function noisyMarkdown(r: NoisyResult): string {
  const row = (name: string, l: Latency, h?: Flood) =>
    `| ${name} | ${f(l.p50)} / ${f(l.p99)} | ${f(l.p99 / Math.max(r.idle.p99, 1), 2)}x | ${l.requests} / ${l.errors} | ${h ? `${h.requests} / ${h.served} / ${h.refused} (${f(h.servedPerSecond)} served/s)` : '-'} |`;
  return [
    `Noisy tenant: the quiet organization at ${r.quietRate} req/s, the heavy AGENT key of another organization on ${r.heavyConnections} connections, ${r.duration} s measured.`,
    '',
    '| quiet organization, while | p50 / p99 ms | p99 vs idle | requests / errors | heavy key: requests / served / refused |',
    '|---|---:|---:|---:|---|',
    row('idle (default budgets)', r.idle),
    ...r.beside.map((b) => row(`heavy key sends ${b.sends}, budgets ${b.budgets}`, b, b.heavy)),
  ].join('\n');
}
