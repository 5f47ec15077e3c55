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

/** Settings that put every budget and per-key cap out of reach of the benchmark's load. */
export const UNBOUNDED: Record<string, string> = {
  ...UNBOUNDED_BUDGETS,
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
  /** default budgets, or budgets out of reach (what the budgets buy) */
  budgets: 'default' | 'out of reach';
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
async function flood(url: string, token: string, query: string, connections: number, seconds: number): Promise<Flood> {
  const r = await autocannon({ ...post(url, token, query), connections, duration: seconds, workers: 1 });
  const count = (code: string) => Number(r.statusCodeStats?.[code]?.count ?? 0);
  const served = count('200');
  return { requests: r.requests.total, served, refused: count('429'), servedPerSecond: served / seconds };
}

/** The quiet tenant idle, then beside the heavy key (after a second for the flood to build up). */
async function beside(
  url: string,
  quietToken: string,
  heavyToken: string,
  query: string,
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
  unbudgetedUrl: string;
  quietToken: string;
  heavyToken: string;
  rate: number;
  connections: number;
  duration: number;
}): Promise<NoisyResult> {
  const load = { rate: o.rate, connections: o.connections, duration: o.duration };
  // warm both servers (plans, pools, caches) with a few of each request
  for (const url of [o.budgetedUrl, o.unbudgetedUrl]) await quiet(url, o.quietToken, o.rate, 2);
  const idle = await quiet(o.budgetedUrl, o.quietToken, o.rate, o.duration);
  const runs: Beside[] = [];
  // the largest page without budgets would only repeat what the page of 20 shows
  const plan = [
    [HEAVY[0], 'default'],
    [HEAVY[0], 'out of reach'],
    [HEAVY[1], 'default'],
  ] as const;
  for (const [heavy, budgets] of plan) {
    const url = budgets === 'default' ? o.budgetedUrl : o.unbudgetedUrl;
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
