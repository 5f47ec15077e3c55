import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { sumOfSquares } from '../src/modules/facts/usefulness.sql';
import { ArenaFull, CodeArena, PAGE } from '../src/modules/facts/vectors/arena';
import { BankVectors, type IndexRow } from '../src/modules/facts/vectors/bank-vectors';
import { candidateIds, type CandidateQuery } from '../src/modules/facts/vectors/candidates';
import { Holdings } from '../src/modules/facts/vectors/holdings';
import { buildChunk } from '../src/modules/facts/vectors/index-rows';
import { seededRandom } from './helpers/random';

const NOW = Date.parse('2026-11-01T00:00:00Z');

const row = (i: number, embedding: number[] | null, bank = 'b'): IndexRow => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  bank_id: bank,
  has_text: true,
  kind: null,
  status: 'CONFIRMED',
  embedding,
  norm_sq: embedding ? sumOfSquares(embedding) : null,
  usefulness: 0.5,
  t: null,
  contexts: null,
});

const query = (embedding: number[], limit = 10): CandidateQuery => ({
  embedding,
  normSq: sumOfSquares(embedding),
  normalizedQuery: 'q',
  limit,
  boost: true,
  weight: 0.3,
  minUsefulness: 0,
  kinds: null,
  statuses: null,
  nowMs: NOW,
});

describe('the shared arena of the recall index', () => {
  it('banks sharing one arena, grown, freed and compacted in any order, rank exactly as banks alone', () => {
    const random = seededRandom(5);
    const dim = 24;
    const vec = () => Array.from({ length: dim }, () => random() - 0.5);
    const arena = new CodeArena();
    const shared = Array.from({ length: 6 }, () => new BankVectors(dim, arena));
    const alone = shared.map(() => new BankVectors(dim));
    // interleaved puts grow every bank's slice many times; releasing banks leaves holes that later growth compacts
    for (let i = 0; i < 3000; i++) {
      const b = i % 6;
      if ((b === 1 && i > 1200) || (b === 4 && i > 1800)) continue;
      const r = row(i, vec());
      shared[b].put(r);
      alone[b].put(r);
      if (i === 1200) shared[1].release();
      if (i === 1800) shared[4].release();
    }
    const generation = arena.generation;
    for (let i = 3000; i < 6000; i++) {
      const b = [0, 2, 3, 5][i % 4];
      const r = row(i, vec());
      shared[b].put(r);
      alone[b].put(r);
    }
    expect(arena.generation).toBeGreaterThan(generation);
    for (const b of [0, 2, 3, 5]) {
      for (let k = 0; k < 5; k++) {
        const q = query(vec());
        expect(candidateIds(shared[b], q)).toEqual(candidateIds(alone[b], q));
      }
    }
    // a released bank takes no room; the live ones are all that is used
    expect(arena.used).toBe([0, 2, 3, 5].reduce((n, b) => n + shared[b].store.bytes, 0));
    for (const b of alone) b.release();
  });

  it('holds no memory for a bank without vectors, and scans it as empty', () => {
    const arena = new CodeArena();
    const banks = Array.from({ length: 5000 }, () => new BankVectors(384, arena));
    for (const [i, bank] of banks.entries()) bank.put(row(i, null)); // text only: ranked by PostgreSQL
    expect(arena.reserved).toBe(0);
    expect(banks[0].textOnly.size).toBe(1);
    expect(candidateIds(banks[0], query(Array.from({ length: 384 }, (_, j) => j)))).toEqual([]);
    expect(banks[0].heapBytes).toBeLessThan(4096);
  });

  it('gives reserved memory back when asked, keeping every slice', () => {
    const arena = new CodeArena();
    const dim = 16;
    const banks = Array.from({ length: 4 }, () => new BankVectors(dim, arena));
    for (let i = 0; i < 4000; i++) banks[i % 4].put(row(i, [i % 7, 1, ...new Array(dim - 2).fill(0.5)]));
    const q = query([1, 2, ...new Array(dim - 2).fill(0)], 5);
    const before = candidateIds(banks[3], q);
    banks[0].release();
    banks[1].release();
    banks[2].release();
    const reserved = arena.reserved;
    expect(arena.release(PAGE)).toBeGreaterThan(0);
    expect(arena.reserved).toBeLessThan(reserved);
    expect(arena.reserved).toBeGreaterThanOrEqual(arena.used);
    expect(candidateIds(banks[3], q)).toEqual(before);
    banks[3].release();
    expect(arena.release(PAGE)).toBeGreaterThan(0);
    expect(arena.reserved).toBe(0);
  });

  it('turns a refusal of memory into ArenaFull, and the bank is as it was', () => {
    // a budget that allows more than a WebAssembly memory can address: the engine itself refuses
    const arena = new CodeArena({ room: () => 2 ** 40, reclaim: () => false }, 2 ** 40);
    expect(() => arena.alloc(5 * 2 ** 30)).toThrow(ArenaFull);
    expect(arena.reserved).toBe(0);
    // a budget with no room and nothing to evict
    const full = new CodeArena({ room: () => 0, reclaim: () => false });
    const bank = new BankVectors(8, full);
    expect(() => bank.put(row(1, [1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(ArenaFull);
    expect(bank.count).toBe(0);
    expect(bank.size).toBe(0);
  });

  it('evicts the organization over its share first, so a flood of banks from one cannot push out another', () => {
    const evicted: string[] = [];
    const max = 2 * 1024 * 1024;
    const holdings = new Holdings(max, 0.5, (orgId, bankId) => evicted.push(`${orgId}/${bankId}`));
    const dim = 32;
    const put = (orgId: string, bankId: string, n: number) => {
      const bank = new BankVectors(dim, holdings.arena);
      holdings.asking = { orgId, bankId, bank };
      try {
        for (let i = 0; i < n; i++)
          bank.put(
            row(
              i,
              // numbers a 32-bit float cannot hold: the banks keep codes only (no exact vectors), as sized here
              Array.from({ length: dim }, (_, j) => ((i + j) % 5) - 2.1),
            ),
          );
        holdings.hold(orgId, bankId, bank);
        holdings.settle();
      } finally {
        holdings.asking = null;
      }
    };
    put('other', 'kept', 3000);
    const kept = holdings.orgBytes('other');
    expect(kept).toBeGreaterThan(0);
    for (let i = 0; i < 3000; i++) put('flood', `bank-${i}`, i % 50 === 0 ? 200 : 0);
    expect(evicted.length).toBeGreaterThan(0);
    expect(evicted.every((k) => k.startsWith('flood/'))).toBe(true);
    expect(holdings.orgBytes('other')).toBe(kept);
    expect(holdings.bytes).toBeLessThanOrEqual(max);
    // alone, an organization may use all of the memory
    const alone = new Holdings(256 * 1024, 0.5, () => undefined);
    for (let i = 0; i < 150; i++) {
      const bank = new BankVectors(dim, alone.arena);
      alone.asking = { orgId: 'one', bankId: `b${i}`, bank };
      alone.hold('one', `b${i}`, bank);
      alone.settle();
      alone.asking = null;
    }
    expect(alone.orgBytes('one')).toBeGreaterThan(0.5 * 256 * 1024);
  });

  it('reads RECALL_INDEX_ORG_SHARE as a percent from 1 to 100, 50 by default, and names it when it is not', () => {
    expect(loadConfig({}).recallIndexOrgShare).toBe(50);
    expect(loadConfig({ RECALL_INDEX_ORG_SHARE: '25' }).recallIndexOrgShare).toBe(25);
    for (const bad of ['0', '101', 'half']) expect(() => loadConfig({ RECALL_INDEX_ORG_SHARE: bad })).toThrow(/RECALL_INDEX_ORG_SHARE/);
  });

  it('reads large vectors in smaller chunks, so a chunk of embeddings stays near 16 MiB', () => {
    expect(buildChunk(2)).toBe(20_000);
    expect(buildChunk(64)).toBe(20_000);
    expect(buildChunk(512)).toBe(4096);
    expect(buildChunk(16_384)).toBe(1000);
  });
});
