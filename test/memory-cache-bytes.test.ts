import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CandidateList, type CandidateRow } from '../src/modules/memory/candidates';
import { CandidateCache } from '../src/modules/memory/candidates.cache';
import { seededRandom } from './helpers/random';

// MEMORY_CACHE_MAX_MB bounds what the cache's estimate counts, so the estimate has to follow what
// its lists really keep on the heap: measured here after full collections
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

const ORG = '00000000-0000-4000-8000-000000000001';

function rows(rnd: () => number, n: number, chars: number | null): CandidateRow[] {
  return Array.from({ length: n }, (_, i) => {
    let text = '';
    while (chars !== null && text.length < chars) text += `w${Math.floor(rnd() * 2000).toString(36)} `;
    return [crypto.randomUUID(), crypto.randomUUID(), 'user', chars === null ? null : text, '2026-01-01 10:00:00.123456+00', 10 + i];
  });
}

/** Heap the cache's lists keep, measured, against what the cache counts. */
function measure(lists: number, perList: number, chars: number | null) {
  const rnd = seededRandom(lists + perList);
  const cache = new CandidateCache(2 ** 40);
  const org = cache.start(ORG, { xmin: '1', changes: [] })!;
  const before = heap();
  for (let j = 0; j < lists; j++)
    cache.put(
      org,
      { orgId: ORG, agentId: `agent-${j}`, sessionId: null, maxCandidates: 2000 },
      new CandidateList(rows(rnd, perList, chars)),
    );
  const kept = heap() - before;
  expect(cache.size).toBe(lists);
  return cache.bytes / kept;
}

describe('candidate cache accounting', () => {
  it.each([
    ['empty lists', 4000, 0, 60],
    ['lists of 20 short texts', 500, 20, 60],
    ['lists of 500 texts of 470 characters', 8, 500, 470],
    ['lists of 2,000 long segments (no text read)', 8, 2000, null],
  ] as const)('counts within a quarter of what %s keep on the heap', (_, lists, perList, chars) => {
    const ratio = measure(lists, perList, chars);
    expect(ratio).toBeGreaterThan(0.75);
    expect(ratio).toBeLessThan(1.25);
  });
});
