import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { projectRoot } from '../src/db/paths';

it('a run with a failing test exits non-zero, on the embedded PostgreSQL too', () => {
  const env = { ...process.env };
  delete env.TEST_DATABASE_URL; // the embedded PostgreSQL, whose exit hook used to hide failures
  delete env.VITEST;
  delete env.VITEST_WORKER_ID;
  delete env.VITEST_POOL_ID;
  const r = spawnSync(
    process.execPath,
    [join(projectRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/fixtures/failing/vitest.config.mts'],
    {
      cwd: projectRoot,
      env,
      encoding: 'utf8',
      timeout: 240_000,
    },
  );
  expect(r.stdout + r.stderr).toMatch(/1 failed/);
  expect(r.status).toBe(1);
});
