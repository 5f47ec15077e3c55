import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The domain modules of src/modules import one another in one direction only, and the shared
// module (vocabulary several modules use) imports none of them: a change to one domain never has
// to reason about a loop back into it.
const MODULES = resolve(__dirname, '../src/modules');

function filesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesOf(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The module a file belongs to (its first folder under src/modules), or null for src/modules/index.ts and files outside. */
const moduleOf = (file: string): string | null => {
  const parts = relative(MODULES, file).split('/');
  return parts.length > 1 && !parts[0].startsWith('..') ? parts[0] : null;
};

/** module -> the other modules its files import (relative imports only; packages are not modules). */
function moduleImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of filesOf(MODULES)) {
    const from = moduleOf(file);
    if (!from) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s+'(\.[^']+)'/g)) {
      const to = moduleOf(resolve(dirname(file), m[1]));
      if (to && to !== from) graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** Every cycle of the graph, each as the path that closes it (found by depth-first search). */
function cycles(graph: Map<string, Set<string>>): string[] {
  const found = new Set<string>();
  const visit = (node: string, path: string[]) => {
    for (const next of graph.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) found.add([...path.slice(at), next].join(' -> '));
      else visit(next, [...path, next]);
    }
  };
  for (const start of graph.keys()) visit(start, [start]);
  return [...found].sort();
}

describe('module boundaries', () => {
  it('have no import cycles between the domain modules', () => {
    const graph = moduleImports();
    expect(graph.size).toBeGreaterThanOrEqual(7);
    expect(cycles(graph)).toEqual([]);
  });

  it('keep the shared module free of imports from any domain module', () => {
    expect([...(moduleImports().get('shared') ?? [])]).toEqual([]);
  });

  it('find a cycle when one is there', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cycles(graph)).toContain('a -> b -> c -> a');
    expect(
      cycles(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set<string>()],
        ]),
      ),
    ).toEqual([]);
  });
});
