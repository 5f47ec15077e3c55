import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../../src/db/paths';

export interface ServerProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const main = join(projectRoot, 'dist/src/main.js');
const cli = join(projectRoot, 'dist/src/cli/index.js');

/** Runs the compiled server as `npm start` does (global setup compiled it) and waits until it serves. */
export async function spawnServer(env: Record<string, string>, waitFor = 'memory-loop is serving'): Promise<ServerProcess> {
  const child = spawn(process.execPath, [main], {
    // like the in-process test server: no embedding model unless the test asks for one
    env: { ...process.env, NODE_ENV: 'development', EMBEDDINGS_PROVIDER: 'none', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}\n${err}`)), 60_000);
    const check = () => {
      if (out.includes(waitFor)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      if (!out.includes(waitFor)) reject(new Error(`server exited with ${code}: ${out}\n${err}`));
    });
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

/**
 * The ADMIN token a first start prints on stderr. stderr and stdout are separate pipes, so the
 * banner may arrive after the serving line: waits up to five seconds for it.
 */
export async function printedToken(p: ServerProcess): Promise<string | undefined> {
  const until = Date.now() + 5000;
  for (;;) {
    const token = /ADMIN API token[^\n]*\n\s*\n\s*(ml_\S+)/.exec(p.stderr())?.[1];
    if (token !== undefined || Date.now() > until) return token;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Runs a CLI command; resolves with its exit code and output. */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
