import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sumOfSquares } from '../src/modules/facts/usefulness.sql';
import { BankVectors, type IndexRow } from '../src/modules/facts/vectors/bank-vectors';
import { FILE_AFTER_BYTES } from '../src/modules/facts/vectors/exact-vectors';
import { seededRandom } from './helpers/random';

const DIM = 512;
/** Enough facts of 512 32-bit floats for the exact vectors to pass `FILE_AFTER_BYTES`. */
const N = Math.ceil(FILE_AFTER_BYTES / (DIM * 4)) + 700;

const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

function row(i: number, embedding: number[]): IndexRow {
  return {
    id: id(i),
    bank_id: 'b',
    has_text: true,
    kind: null,
    status: 'CONFIRMED',
    embedding,
    norm_sq: sumOfSquares(embedding),
    usefulness: 0.5,
    t: null,
    contexts: null,
  };
}

/** The cosine as recall's statements compute it: products added left to right, over sqrt(stored sum of squares * the query's). */
function statementCosine(v: number[], q: number[]): number {
  let dot = 0;
  for (let j = 0; j < q.length; j++) dot += v[j] * q[j];
  return dot / Math.sqrt(sumOfSquares(v) * sumOfSquares(q));
}

const previousTmp = process.env.TMPDIR;
afterEach(() => {
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
});

describe('exact vectors of a large bank in a private file', () => {
  it('give the same cosines as the vectors themselves, through replacements, removals and reused slots, and leave nothing in the temporary directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'exact-file-test-'));
    process.env.TMPDIR = dir;
    try {
      const random = seededRandom(11);
      const vec = () => Array.from({ length: DIM }, () => Math.fround(random() - 0.5));
      const vectors = new Map<string, number[]>();
      const bank = new BankVectors(DIM);
      for (let i = 0; i < N; i++) {
        if (i % 4096 === 0) bank.reserve(Math.min(N, i + 4096));
        const v = vec();
        vectors.set(id(i), v);
        bank.put(row(i, v));
      }
      // the file holds them: the process keeps far less than 2 KiB a fact
      expect(bank.heapBytes).toBeLessThan(N * DIM * 4 * 0.5);
      // the file was removed from the directory as soon as it was opened
      expect(readdirSync(dir)).toEqual([]);
      // replaced out of order, removed, and new facts in the freed slots
      for (let i = 5; i < N; i += 13) {
        const v = vec();
        vectors.set(id(i), v);
        bank.put(row(i, v));
      }
      for (let i = 2; i < N; i += 17) {
        bank.remove(id(i));
        vectors.delete(id(i));
      }
      for (let i = N; i < N + 300; i++) {
        const v = vec();
        vectors.set(id(i), v);
        bank.put(row(i, v));
      }
      const q = Array.from({ length: DIM }, () => random() - 0.5);
      const qNormSq = sumOfSquares(q);
      const check = () => {
        let checked = 0;
        for (const [key, v] of vectors) {
          expect(bank.exactCosine(key, q, qNormSq)).toBe(statementCosine(v, q));
          checked += 1;
        }
        expect(checked).toBe(vectors.size);
      };
      check();
      expect(bank.exactCosine(id(2), q, qNormSq)).toBeNull();
      // replaced again after being read (the vectors read lately are kept): the new ones are read
      for (let i = N - 1; i > 0; i -= 3) {
        if (!vectors.has(id(i))) continue;
        const v = vec();
        vectors.set(id(i), v);
        bank.put(row(i, v));
      }
      check();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stay in memory, with the same cosines, when no file can be made', () => {
    process.env.TMPDIR = join(tmpdir(), 'no-such-directory', 'below');
    const random = seededRandom(12);
    const vectors: number[][] = [];
    const bank = new BankVectors(DIM);
    for (let i = 0; i < N; i++) {
      const v = Array.from({ length: DIM }, () => Math.fround(random() - 0.5));
      vectors.push(v);
      bank.put(row(i, v));
    }
    expect(bank.holdsExact).toBe(true);
    expect(bank.heapBytes).toBeGreaterThan(N * DIM * 4);
    const q = Array.from({ length: DIM }, () => random() - 0.5);
    for (let i = 0; i < N; i += 37) expect(bank.exactCosine(id(i), q, sumOfSquares(q))).toBe(statementCosine(vectors[i], q));
  });
});
