import { readFileSync } from 'node:fs';
import pg from 'pg';

/** Linux reports a process's CPU time in /proc/<pid>/stat in ticks of 1/100 s (USER_HZ). */
const MS_PER_TICK = 10;

/** User + system CPU time of one process so far (ms), or null where /proc does not show it. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the fields after the command name (in parentheses, which may itself hold spaces): state is
    // field 3, utime and stime are fields 14 and 15
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
  } catch {
    return null;
  }
}

/**
 * The CPU time PostgreSQL's backends spend for one server: the server connects with its own
 * application_name (PGAPPNAME), and the backends of that name are read from pg_stat_activity and
 * their CPU time from /proc (PostgreSQL on this machine). The count is cumulative: each call adds
 * what every backend used since the previous call (a backend seen for the first time counts from
 * its start), so a pool that closes and opens connections between calls loses only the time of a
 * backend that came and went between two calls.
 */
export class BackendCpu {
  private readonly seen = new Map<number, number>();
  private total = 0;

  private constructor(
    private readonly client: pg.Client,
    private readonly applicationName: string,
  ) {}

  /** null when the database's backends are not processes of this machine (no /proc to read). */
  static async open(url: string, applicationName: string): Promise<BackendCpu | null> {
    const client = new pg.Client({ connectionString: url, application_name: 'bench-backend-cpu' });
    await client.connect();
    const own = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    if (processCpuMs(own) === null) {
      await client.end();
      return null;
    }
    return new BackendCpu(client, applicationName);
  }

  /** CPU ms of the server's backends so far. */
  async read(): Promise<number> {
    const { rows } = await this.client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
      [this.applicationName],
    );
    for (const { pid } of rows) {
      const ms = processCpuMs(pid);
      if (ms === null) continue;
      const before = this.seen.get(pid) ?? 0;
      // a lower count than before: the pid now belongs to a new backend
      this.total += ms >= before ? ms - before : ms;
      this.seen.set(pid, ms);
    }
    return this.total;
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}
