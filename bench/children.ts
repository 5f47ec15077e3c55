import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/db/paths';

export interface ServerStats {
  statements: number;
  cpuMs: number;
  /** CPU time PostgreSQL's backends used for this server so far (ms), where it can be read */
  dbCpuMs?: number;
  /** vectors held by the recall index and the memory it reports (GraphQL server only) */
  indexVectors?: number;
  indexBytes?: number;
  /** the main thread's heap and off-heap memory, and each inference thread's heap and WebAssembly memory, bytes */
  memory?: ServerMemory;
}

export interface ServerMemory {
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  workers: { heap: number; wasm: number }[];
}

export interface Child {
  name: string;
  port: number;
  proc: ChildProcess;
  /** SQL statements run so far, and CPU time the process used so far (user + system, ms); `gc`: after a full collection (GraphQL server only) */
  stats(gc?: boolean): Promise<ServerStats>;
  /** peak resident set size in MB (VmHWM), null where /proc is not available */
  peakRssMb(): number | null;
  stop(): Promise<void>;
}

/**
 * The Node.js flags `npm start` runs the server with (a larger young generation: see the README's
 * configuration), read from its start script. The benchmark starts every server with them, the raw
 * baseline too, so both run as the product is deployed.
 */
export const SERVER_NODE_FLAGS: readonly string[] = (() => {
  const start = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
  const flags = /\bnode ((?:--\S+ )*)dist\/src\/main\.js/.exec(start);
  if (!flags) throw new Error(`the start script does not run dist/src/main.js: ${start}`);
  return flags[1].split(' ').filter(Boolean);
})();

/**
 * The environment `npm start` sets before Node.js starts (`MALLOC_ARENA_MAX=2`: see the README's
 * configuration), read from its start script. Every server the benchmark starts gets it, unless the
 * benchmark's own environment sets the same variable.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = (() => {
  const start = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
  const assigned = /(?:^|&& )((?:[A-Z_][A-Z0-9_]*=\S+ )*)exec node /.exec(start);
  if (!assigned) throw new Error(`the start script does not exec node: ${start}`);
  return Object.fromEntries(
    assigned[1]
      .split(' ')
      .filter(Boolean)
      .map((a) => a.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
})();

/** Another program for startChild: its own file, Node.js binary and flags. */
export interface ChildProgram {
  /** the script to run (default dist/bench/<script>.js) */
  file?: string;
  /** the Node.js binary (default the one running the benchmark) */
  execPath?: string;
  /** Node.js flags (default the server's, SERVER_NODE_FLAGS) */
  nodeFlags?: readonly string[];
}

/**
 * Forks dist/bench/<script>.js with `env` (with BENCH_CPU_PROF=<dir>, each server writes a V8 CPU profile there), waits for its `ready`
 * message (with the port it listens on). `program` runs another file or Node.js binary that speaks the same messages.
 */
export async function startChild(name: string, script: string, env: Record<string, string>, program: ChildProgram = {}): Promise<Child> {
  const proc = fork(program.file ?? join(__dirname, `${script}.js`), [], {
    env: { ...SERVER_ENV, ...process.env, ...env },
    ...(program.execPath ? { execPath: program.execPath } : {}),
    execArgv: [
      ...(program.nodeFlags ?? SERVER_NODE_FLAGS),
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : process.execArgv),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
    proc.on('message', (m: any) => m?.type === 'ready' && resolve(m.port));
  });
  proc.removeAllListeners('exit');
  return {
    name,
    port,
    proc,
    stats: (gc = false) =>
      new Promise<ServerStats>((resolve) => {
        const on = (m: any) => {
          if (m?.type !== 'stats') return;
          proc.off('message', on);
          resolve({
            statements: m.statements,
            cpuMs: m.cpuMs,
            indexVectors: m.indexVectors,
            indexBytes: m.indexBytes,
            ...(m.memory ? { memory: m.memory } : {}),
          });
        };
        proc.on('message', on);
        proc.send({ type: 'stats', ...(gc ? { gc } : {}) });
      }),
    peakRssMb: () => {
      try {
        const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'));
        return kb ? Math.round(Number(kb[1]) / 1024) : null;
      } catch {
        return null;
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
        proc.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        proc.kill('SIGTERM');
      }),
  };
}
