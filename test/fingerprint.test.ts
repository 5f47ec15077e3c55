import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutFingerprint } from '../src/modules/learning/fingerprint';
import { pyDumps, pyFloatRepr, pyRound2 } from '../src/modules/learning/python-json';

// vectors written by test/fixtures/generate_vectors.py from the Python reference function
const vectors = JSON.parse(readFileSync(join(__dirname, 'fixtures/fingerprints.json'), 'utf8')) as {
  pageCount: number;
  pageDimensions: number[][];
  tableCount: number;
  textCoverageRatio: number;
  canonical: string;
  fingerprint: string;
}[];
const dumps = JSON.parse(readFileSync(join(__dirname, 'fixtures/python-json.json'), 'utf8')) as { value: unknown; dumps: string }[];

describe('layout fingerprint', () => {
  it('has at least 30 reference vectors', () => expect(vectors.length).toBeGreaterThanOrEqual(30));

  it.each(vectors.map((v, i) => [i, v] as const))('vector %i matches the Python reference byte for byte', (_i, v) => {
    expect(layoutFingerprint(v)).toBe(v.fingerprint);
  });

  it('rounds like Python: ties to even on the binary value', () => {
    expect([0.125, 0.375, 0.625, 0.875, 0.005, 0.015, 0.675, 0.665, 0.345, 0, 1].map(pyRound2)).toEqual([
      0.12, 0.38, 0.62, 0.88, 0.01, 0.01, 0.68, 0.67, 0.34, 0, 1,
    ]);
  });

  it('renders floats like Python repr', () => {
    expect([612, 0.1, 1e-5, 0.0001, 1e16, 1e15, 1.2345678901234568e17, 2.5e-7, -3].map(pyFloatRepr)).toEqual([
      '612.0',
      '0.1',
      '1e-05',
      '0.0001',
      '1e+16',
      '1000000000000000.0',
      '1.2345678901234568e+17',
      '2.5e-07',
      '-3.0',
    ]);
  });

  it('writes JSON like json.dumps (separators, ensure_ascii, surrogate pairs, control characters)', () => {
    for (const d of dumps) expect(pyDumps(d.value)).toBe(d.dumps);
  });
});
