// Progress of a long benchmark run, on stderr so that stdout stays the result: each step as it
// starts with an estimate of the time left, and the seeder's rows per second.
import type pg from 'pg';

export interface Step {
  id: string;
  title: string;
  /** what the step should take by its settings alone, ms */
  nominalMs: number;
  /** false: its time says nothing about the pace of the other steps (seeding) */
  paced?: boolean;
}

const write = (line: string) => process.stderr.write(`${line}\n`);

function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/**
 * Steps of a run, announced as they start. The time left is the nominal time of the steps not yet
 * done, scaled by how the finished steps compared with their own nominal time (servers start, first
 * requests read banks, fan-out waits for its sockets).
 */
export class Progress {
  private current = -1;
  private startedAt = 0;
  private doneMs = 0;
  private doneNominalMs = 0;

  constructor(
    private readonly steps: Step[],
    private readonly out: (line: string) => void = write,
  ) {}

  /** Ends the step running (if any) and announces step `id`. */
  start(id: string): void {
    this.finish();
    const i = this.steps.findIndex((s) => s.id === id);
    if (i < 0) return;
    this.current = i;
    this.startedAt = Date.now();
    this.out(`[${i + 1}/${this.steps.length}] ${this.steps[i].title}: about ${duration(this.left())} left`);
  }

  /** Ends the step running; the next estimates learn from it. */
  finish(): void {
    if (this.current < 0) return;
    if (this.steps[this.current].paced !== false) {
      this.doneMs += Date.now() - this.startedAt;
      this.doneNominalMs += this.steps[this.current].nominalMs;
    }
    this.current = -1;
  }

  /** Estimated ms from the start of the current step to the end of the run. */
  left(): number {
    const nominal = this.steps.slice(Math.max(0, this.current)).reduce((n, s) => n + s.nominalMs, 0);
    const pace = this.doneNominalMs > 0 ? this.doneMs / this.doneNominalMs : 1;
    return nominal * pace;
  }
}

/**
 * The steps of a benchmark run and what each should take by its settings: seeding (about 70 s per
 * unit of scale or 100,000 facts on the 2-core development machine), each scenario's warm-up and
 * window per server, the fan-out (about 15 s per transport), the noisy tenant (idle, then six
 * floods with pauses) and the peer comparison.
 */
export function benchSteps(
  scenarios: { id: string; title: string; raw?: boolean }[],
  fanOut: { id: string },
  a: { scale: number; facts: number | null; only: string[]; noRaw: boolean; warmup: number; duration: number },
  redis: boolean,
): Step[] {
  const chosen = (id: string) => !a.only.length || a.only.includes(id);
  const steps: Step[] = [{ id: 'seed', title: 'seeding', nominalMs: 70_000 * Math.max(a.scale, (a.facts ?? 0) / 100_000), paced: false }];
  for (const s of scenarios)
    if (chosen(s.id))
      steps.push({ id: s.id, title: s.title, nominalMs: (s.raw !== false && !a.noRaw ? 2 : 1) * (a.warmup + a.duration) * 1000 });
  if (chosen(fanOut.id)) steps.push({ id: fanOut.id, title: '9 feedbackAdded fan-out', nominalMs: (redis ? 2 : 1) * 15_000 });
  if (chosen('noisy-tenant')) steps.push({ id: 'noisy-tenant', title: 'noisy tenant', nominalMs: (38 + 7 * a.duration) * 1000 });
  // three scenarios, each on three servers (ours on two runtimes, PostGraphile)
  if (chosen('peers')) steps.push({ id: 'peers', title: 'PostGraphile as a peer', nominalMs: 9 * (a.warmup + a.duration) * 1000 });
  return steps;
}

/**
 * The table a statement inserts into: its own `INSERT INTO`, else (a query over a CTE that inserts)
 * the first one in a CTE.
 */
export function insertTarget(sql: string): string | undefined {
  let depth = 0;
  let first: string | undefined;
  for (const m of sql.matchAll(/[()]|INSERT INTO (\w+)/gi)) {
    if (m[0] === '(') depth += 1;
    else if (m[0] === ')') depth -= 1;
    else if (depth === 0) return m[1];
    else first ??= m[1];
  }
  return first;
}

/**
 * The seeder's client, saying after every INSERT how many rows it wrote and at what rate, and the
 * running total.
 */
export function reportingRows(c: pg.Client, out: (line: string) => void = write): pg.Client {
  const started = Date.now();
  let total = 0;
  const query = c.query.bind(c) as (...args: unknown[]) => Promise<pg.QueryResult>;
  return new Proxy(c, {
    get(target, prop, receiver) {
      if (prop !== 'query') return Reflect.get(target, prop, receiver);
      return async (...args: unknown[]) => {
        const t0 = Date.now();
        const r = await query(...args);
        const table = insertTarget(typeof args[0] === 'string' ? args[0] : '');
        // a query over an inserting CTE answers with the count of what it inserted
        const rows = r.command === 'SELECT' && r.rows.length === 1 && 'count' in r.rows[0] ? Number(r.rows[0].count) : (r.rowCount ?? 0);
        if (table && rows) {
          total += rows;
          const s = (Date.now() - t0) / 1000;
          const rate = (n: number, secs: number) => Math.round(n / Math.max(secs, 0.001)).toLocaleString('en-US');
          out(
            `seed: ${table} +${rows.toLocaleString('en-US')} rows in ${s.toFixed(1)} s (${rate(rows, s)} rows/s); ${total.toLocaleString('en-US')} rows in ${duration(Date.now() - started)} (${rate(total, (Date.now() - started) / 1000)} rows/s)`,
          );
        }
        return r;
      };
    },
  });
}
