import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The project root (where package.json lives), whether running from src/ or from dist/. */
export const projectRoot: string = (() => {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) || dir.endsWith('dist')) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above ' + __dirname);
    dir = up;
  }
  return dir;
})();

export const migrationsDir = join(projectRoot, 'migrations');
