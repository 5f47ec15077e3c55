import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../src/db/paths';

// The repository explains itself: a comment, a schema description or a page of the docs that says
// "see section 4.3 of the spec" or names a reference document sends the reader somewhere they
// cannot go. Rules are written out in words instead. The pattern is assembled from pieces so that
// this file does not match it.
const OUTSIDE_REFERENCE = new RegExp(
  [
    'spec ?[0-9\u00a7]',
    'seed ?0[0-9]',
    'SPEC\\.md',
    'seeds\\/',
    'TC-[0]',
    'FR-[0]',
    'user stor(y|ies) [0-9]',
    'the seed (table|boosting)',
  ].join('|'),
  'i',
);
const ROOTS = ['src', 'bench', 'scripts', 'test', 'docs', 'schema.graphql', 'README.md'];
const TEXT = /\.(ts|mts|mjs|cjs|js|py|md|graphql|json|wat|sql|yml)$/;

function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => (name === 'node_modules' ? [] : files(join(path, name))));
}

describe('the repository stands on its own', () => {
  it('no comment, schema description or document points to a document outside the repository', () => {
    const found: string[] = [];
    for (const file of ROOTS.flatMap((r) => files(join(projectRoot, r)))) {
      if (!TEXT.test(file)) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (OUTSIDE_REFERENCE.test(line)) found.push(`${relative(projectRoot, file)}:${i + 1}: ${line.trim().slice(0, 120)}`);
        });
    }
    expect(found, 'say the rule in words instead of citing where it came from').toEqual([]);
  });
});
