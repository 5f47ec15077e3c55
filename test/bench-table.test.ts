import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCUMENTS, renderDocument } from '../bench/table';
import { projectRoot } from '../src/db/paths';

const read = (doc: string) => readFileSync(join(projectRoot, doc), 'utf8');

describe('benchmark tables in the docs', () => {
  it.each(DOCUMENTS)('%s shows exactly what its cited results files say (run `npm run bench:table`)', (doc) => {
    const text = read(doc);
    expect(renderDocument(text)).toBe(text);
  });

  it('every benchmark table of docs/benchmarks.md is generated from a results file', () => {
    const text = read('docs/benchmarks.md');
    const generated = [...text.matchAll(/<!-- bench-table ([^>]*) -->\n([\s\S]*?)<!-- \/bench-table -->/g)];
    expect(generated.length).toBeGreaterThanOrEqual(5);
    const tableLines = text.split('\n').filter((l) => l.startsWith('|')).length;
    const generatedLines = generated.reduce((n, m) => n + m[2].split('\n').filter((l) => l.startsWith('|')).length, 0);
    expect(generatedLines).toBe(tableLines);
  });

  it('puts back a number edited by hand', () => {
    const text = read('docs/benchmarks.md');
    const edited = text.replace('| 1727 | 4496 |', '| 2727 | 4496 |');
    expect(edited).not.toBe(text);
    expect(renderDocument(edited)).toBe(text);
  });
});
