import { fileURLToPath } from 'node:url';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [
    swc.vite({
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
        keepClassNames: true,
      },
    }),
  ],
  resolve: {
    // one graphql instance: without this, ESM importers get graphql's index.mjs and CommonJS ones its
    // index.js ("Cannot use GraphQLScalarType from another module or realm")
    alias: [
      { find: /^graphql$/, replacement: 'graphql/index.js' },
      // the CommonJS build of type-graphql, as the server runs it (its ESM build would be a second
      // copy of its modules, and the server adjusts one of them at start: see src/graphql/sync-args.ts)
      { find: /^type-graphql$/, replacement: fileURLToPath(new URL('./node_modules/type-graphql/build/cjs/index.js', import.meta.url)) },
    ],
  },
  test: {
    globalSetup: ['test/setup/global-setup.ts'],
    setupFiles: ['test/setup/per-file.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
  },
});
