import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../bench/children';
import { projectRoot } from '../src/db/paths';

describe('benchmark servers', () => {
  it('run with the Node.js flags of npm start (its 32 MB young generation), read from the start script', () => {
    const start = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
      .start;
    expect(start).toContain('node --max-semi-space-size=32 dist/src/main.js');
    expect(SERVER_NODE_FLAGS).toEqual(['--max-semi-space-size=32']);
  });

  it('run with the environment npm start sets before Node.js starts (two malloc arenas), read from the start script', () => {
    const start = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
      .start;
    expect(start).toContain('MALLOC_ARENA_MAX=2 exec node ');
    expect(SERVER_ENV).toEqual({ MALLOC_ARENA_MAX: '2' });
  });
});
