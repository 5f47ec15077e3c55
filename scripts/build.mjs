// Compiles the TypeScript sources to dist/ with swc (keeps decorator metadata; no type check:
// `npm run typecheck` does that), then the dashboard and explorer (scripts/build-dashboard.mjs).
// Fast enough to run before every `npm start`.
import { transformFile } from '@swc/core';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDashboard } from './build-dashboard.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist');
const dirs = ['src', 'scripts', 'bench'];

async function* walk(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    // node_modules: the benchmark's peer installs its own packages under bench/peers/
    if (e.isDirectory()) {
      if (e.name !== 'node_modules') yield* walk(p);
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) yield p;
  }
}

const options = {
  sourceMaps: 'inline',
  module: { type: 'commonjs', ignoreDynamic: true },
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    keepClassNames: true,
  },
};

const jobs = [];
for (const d of dirs) {
  for await (const file of walk(join(root, d))) {
    const target = join(out, relative(root, file)).replace(/\.ts$/, '.js');
    jobs.push(
      (async () => {
        const [src, dst] = await Promise.all([stat(file), stat(target).catch(() => null)]);
        if (dst && dst.mtimeMs >= src.mtimeMs) return;
        const { code } = await transformFile(file, options);
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, code);
      })(),
    );
  }
}
await Promise.all(jobs);

const dashboard = await buildDashboard(root, { force: process.argv.includes('--force') });
if (!dashboard.skipped) console.error(`dashboard built in ${dashboard.ms} ms`);
