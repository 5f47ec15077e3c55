import type { ServerStats } from './children';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<any>;

export interface Target {
  /** 'graphql' and 'raw' in the scenarios; the servers' names in the peer comparison */
  name: string;
  url: string;
  headers: Record<string, string>;
  /** the body of request i, when this server is sent its own document (the run's body otherwise) */
  body?: (i: number) => string;
  /** SQL statements run and CPU time used by the server so far */
  stats(): Promise<ServerStats>;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  statementsPerRequest: number | null;
  /** server CPU time (user + system) per request, ms: steadier than req/s on a shared machine */
  cpuMsPerRequest: number | null;
  /** PostgreSQL's CPU time (its backends for this server) per request, ms, where the server reports it */
  dbCpuMsPerRequest?: number | null;
}

/** One warm-up and one measured window against one server; the body of request i is `body(i)`. */
async function measure(
  t: Target,
  body: (i: number) => string,
  opts: { connections: number; warmup: number; duration: number },
): Promise<LoadResult> {
  let i = 0;
  let errors = 0;
  const run = (seconds: number) =>
    autocannon({
      url: t.url,
      connections: opts.connections,
      duration: seconds,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...t.headers },
      requests: [
        {
          method: 'POST',
          setupRequest: (req: Record<string, unknown>) => ({ ...req, body: (t.body ?? body)(i++) }),
          onResponse: (status: number, resBody: string) => {
            if (status !== 200 || resBody.includes('"errors"')) errors++;
          },
        },
      ],
    });
  if (opts.warmup > 0) await run(opts.warmup);
  errors = 0;
  // the server finishes requests still in flight when a window ends: wait until its statement
  // counter stands still, and divide by the requests sent (completed or in flight at the end)
  const before = await settled(t);
  const r = await run(opts.duration);
  const after = await settled(t);
  const total = r.requests.total as number;
  const sent = (r.requests.sent as number) || total;
  return {
    requests: total,
    rps: total / (r.duration as number),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: errors + (r.errors as number),
    statementsPerRequest: sent > 0 ? (after.statements - before.statements) / sent : null,
    cpuMsPerRequest: sent > 0 ? (after.cpuMs - before.cpuMs) / sent : null,
    ...(after.dbCpuMs !== undefined && before.dbCpuMs !== undefined
      ? { dbCpuMsPerRequest: sent > 0 ? (after.dbCpuMs - before.dbCpuMs) / sent : null }
      : {}),
  };
}

/**
 * Measures the targets in alternating order: after one warm-up each, `rounds` windows of
 * duration / rounds seconds, the first target first in even rounds and last in odd ones, so that
 * neither server always meets the machine in the same state. Requests, statements and CPU add up
 * over the rounds; p50 and p99 are the rounds' values weighted by their requests.
 */
export async function measureAlternating(
  targets: Target[],
  body: (i: number) => string,
  opts: { connections: number; warmup: number; duration: number },
  rounds = 4,
): Promise<Partial<Record<Target['name'], LoadResult>>> {
  const windows = new Map<Target['name'], LoadResult[]>(targets.map((t) => [t.name, []]));
  for (const t of targets) if (opts.warmup > 0) await measure(t, body, { ...opts, warmup: 0, duration: opts.warmup });
  for (let k = 0; k < rounds; k++) {
    const order = k % 2 === 0 ? targets : [...targets].reverse();
    for (const t of order) windows.get(t.name)!.push(await measure(t, body, { ...opts, warmup: 0, duration: opts.duration / rounds }));
  }
  const out: Partial<Record<Target['name'], LoadResult>> = {};
  for (const [name, ws] of windows) out[name] = combine(ws, opts.duration);
  return out;
}

function combine(ws: LoadResult[], duration: number): LoadResult {
  const requests = ws.reduce((a, w) => a + w.requests, 0);
  const weighted = (f: (w: LoadResult) => number | null) => {
    const parts = ws.filter((w) => f(w) !== null && w.requests > 0);
    const n = parts.reduce((a, w) => a + w.requests, 0);
    return n > 0 ? parts.reduce((a, w) => a + f(w)! * w.requests, 0) / n : null;
  };
  return {
    requests,
    rps: requests / duration,
    p50: weighted((w) => w.p50) ?? 0,
    p99: weighted((w) => w.p99) ?? 0,
    errors: ws.reduce((a, w) => a + w.errors, 0),
    statementsPerRequest: weighted((w) => w.statementsPerRequest),
    cpuMsPerRequest: weighted((w) => w.cpuMsPerRequest),
    ...(ws.some((w) => w.dbCpuMsPerRequest !== undefined) ? { dbCpuMsPerRequest: weighted((w) => w.dbCpuMsPerRequest ?? null) } : {}),
  };
}

/** The server's statement count once it has stopped changing (its in-flight requests are done). */
async function settled(t: Target): Promise<ServerStats> {
  let last = await t.stats();
  for (let k = 0; k < 100; k++) {
    await new Promise((r) => setTimeout(r, 150));
    const now = await t.stats();
    if (now.statements === last.statements) return now;
    last = now;
  }
  return last;
}

/** One request, for checking that a scenario answers without errors before loading it. */
export async function once(t: Target, body: string): Promise<{ ok: boolean; text: string }> {
  const res = await fetch(t.url, { method: 'POST', headers: { 'content-type': 'application/json', ...t.headers }, body });
  const text = await res.text();
  return { ok: res.status === 200 && !text.includes('"errors"'), text };
}
