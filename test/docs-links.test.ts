import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../src/db/paths';

// Links between the README and docs/ keep working as sections move: every relative link names a
// file that exists and, with `#anchor`, a heading of that file (GitHub's anchors).
const DOCS = ['README.md', 'docs/design.md', 'docs/algorithms.md', 'docs/operations.md', 'docs/benchmarks.md'];

const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.*)$/gm)].map((m) => slug(m[1])));
}

describe('documentation links', () => {
  it('every relative link of the README and docs/ reaches an existing file and heading', () => {
    const broken: string[] = [];
    for (const doc of DOCS) {
      const path = join(projectRoot, doc);
      const text = readFileSync(path, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [file, anchor] = target.split('#');
        const dest = file ? join(dirname(path), file) : path;
        if (!existsSync(dest)) broken.push(`${doc}: ${target} (no file)`);
        else if (anchor && !anchors(dest).has(anchor))
          broken.push(`${doc}: ${target} (no heading ${relative(projectRoot, dest)}#${anchor})`);
      }
    }
    expect(broken).toEqual([]);
  });
});
