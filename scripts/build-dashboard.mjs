// Builds the dashboard (/) and the explorer (/graphql in a browser) into dashboard/dist with Vite:
// content-hashed files under assets/, the explorer's GraphiQL and React in chunks of their own that
// the dashboard never loads. Skipped when nothing it is built from changed since the last build.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { constants, gzip } from 'node:zlib';

const gzipped = promisify(gzip);

/** newest modification time under `path` (a file or a directory tree) */
async function newest(path) {
  const s = await stat(path).catch(() => null);
  if (!s) return 0;
  if (!s.isDirectory()) return s.mtimeMs;
  let t = s.mtimeMs;
  for (const e of await readdir(path)) t = Math.max(t, await newest(join(path, e)));
  return t;
}

export async function buildDashboard(root, { force = false } = {}) {
  const dir = join(root, 'dashboard');
  const outDir = join(dir, 'dist');
  const stamp = join(outDir, '.built');
  const inputs = ['src', 'index.html', 'explorer.html', 'tsconfig.json'].map((p) => join(dir, p));
  inputs.push(join(root, 'package-lock.json'), join(root, 'scripts', 'build-dashboard.mjs'));
  const sources = Math.max(...(await Promise.all(inputs.map(newest))));
  const built = (await stat(stamp).catch(() => null))?.mtimeMs ?? 0;
  if (!force && built >= sources) return { skipped: true, ms: 0 };

  const started = performance.now();
  const { build } = await import('vite');
  await build({
    root: dir,
    configFile: false,
    logLevel: 'warn',
    base: '/',
    mode: 'production',
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: {
      outDir,
      emptyOutDir: true,
      assetsDir: 'assets',
      sourcemap: false,
      chunkSizeWarningLimit: 4096,
      rollupOptions: {
        input: { index: join(dir, 'index.html'), explorer: join(dir, 'explorer.html') },
        // React libraries mark their modules "use client"; that means nothing in a static bundle
        onwarn(warning, warn) {
          if (warning.code !== 'MODULE_LEVEL_DIRECTIVE' && warning.code !== 'PLUGIN_TIMINGS') warn(warning);
        },
      },
    },
  });
  // compressed once here rather than on every request: the server sends `<file>.gz` to browsers that accept gzip
  const assets = join(outDir, 'assets');
  await Promise.all(
    (await readdir(assets))
      .filter((f) => /\.(js|css)$/.test(f))
      .map(async (f) =>
        writeFile(join(assets, `${f}.gz`), await gzipped(await readFile(join(assets, f)), { level: constants.Z_BEST_COMPRESSION })),
      ),
  );
  await writeFile(stamp, new Date().toISOString());
  return { skipped: false, ms: Math.round(performance.now() - started) };
}
