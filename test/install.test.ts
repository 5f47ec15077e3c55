import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../src/db/paths';

const read = (file: string) => JSON.parse(readFileSync(join(projectRoot, file), 'utf8'));

describe('a clean install on the Node.js the README promises', () => {
  it('locks no package whose declared engines exclude the oldest Node.js of package.json', () => {
    const promised = semver.minVersion(read('package.json').engines.node as string)!;
    const lock = read('package-lock.json') as { packages: Record<string, { version?: string; engines?: unknown }> };
    const refused = Object.entries(lock.packages)
      .filter(([, p]) => typeof (p.engines as { node?: unknown })?.node === 'string')
      .filter(([, p]) => !semver.satisfies(promised, (p.engines as { node: string }).node))
      .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')}@${p.version} wants ${(p.engines as { node: string }).node}`);
    expect(refused).toEqual([]);
  });
});
