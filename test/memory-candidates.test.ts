import { describe, expect, it } from 'vitest';
import { CandidateList, type CandidateRow } from '../src/modules/memory/candidates';
import { CandidateCache, type CandidateKey } from '../src/modules/memory/candidates.cache';
import { jaccard, POLICIES, selectMemories, words } from '../src/modules/memory/policies';
import { seededRandom } from './helpers/random';

const VOCAB = ['Postgres', 'postgres', 'INDEX', 'index', 'slow', 'query', 'é', 'Ünïcode', 'the', 'a', 'cache', 'redis', 'tuning', 'x'];
const SPACES = [' ', '  ', '\t', '\n', ' \u00a0'];

function randomRows(rnd: () => number, n: number, prefix = 's'): CandidateRow[] {
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  return Array.from({ length: n }, (_, i) => {
    const text = Array.from({ length: Math.floor(rnd() * 9) }, () => pick(VOCAB)).join(pick(SPACES));
    return [
      `${prefix}${i}`,
      `e${i % 4}`,
      pick(['user', 'assistant']),
      text,
      `2026-01-01 10:00:${String(i % 60).padStart(2, '0')}.123456+00`,
      1 + Math.floor(rnd() * 40),
    ];
  });
}

describe('candidate lists with their words indexed once', () => {
  it('score every candidate as splitting it anew would, and select the same memories under every policy, on 300 random conversations', () => {
    const rnd = seededRandom(7);
    for (let c = 0; c < 300; c++) {
      const list = new CandidateList(randomRows(rnd, Math.floor(rnd() * 50)));
      const query =
        rnd() < 0.1 ? '' : Array.from({ length: Math.floor(rnd() * 5) }, () => VOCAB[Math.floor(rnd() * VOCAB.length)]).join(' ');
      const q = words(query);
      expect(Array.from(list.relevance(query)), `case ${c}`).toEqual(list.entries.map((e) => jaccard(q, e.content)));
      const budget = 1 + Math.floor(rnd() * 400);
      for (const policy of POLICIES) {
        expect(selectMemories(policy, list.entries, query, budget, list), `case ${c} ${policy}`).toEqual(
          selectMemories(policy, list.entries, query, budget),
        );
      }
    }
  });

  it('keeps the rows as entries: timestamps parsed as the database driver text is, episode ids shared', () => {
    const [row] = randomRows(seededRandom(1), 1);
    const list = new CandidateList([row, ['other', ...row.slice(1)] as CandidateRow]);
    expect(list.entries[0]).toMatchObject({ id: 's0', episodeId: 'e0', content: row[3], tokenEstimate: row[5] });
    expect(list.entries[0].createdAt.toISOString()).toBe('2026-01-01T10:00:00.123Z');
    expect(list.entries[1].episodeId).toBe(list.entries[0].episodeId);
    expect([...list.tokens, list.least]).toEqual([row[5], row[5], row[5]]);
    expect(list.bytes).toBeGreaterThan(2 * row[3]!.length);
  });
});

describe('candidate cache', () => {
  const key = (orgId: string, agentId: string, maxCandidates = 2000): CandidateKey => ({ orgId, agentId, sessionId: null, maxCandidates });
  const list = (n: number) => new CandidateList(randomRows(seededRandom(n), n));
  const change = (id: string, keys: string[]) => ({ xmin: '10', changes: [{ id, xid: '10', keys }] });

  it('evicts the least recently used list once the estimated bytes pass the limit, and never keeps a list larger than the limit', () => {
    const sizes = list(40).bytes;
    const cache = new CandidateCache(Math.floor(sizes * 2.5));
    const org = cache.start('o1', { xmin: '1', changes: [] })!;
    for (const agent of ['a', 'b']) cache.put(org, key('o1', agent), list(40));
    expect(cache.get(key('o1', 'a'))).toBeDefined(); // now b is the least recently used
    cache.put(org, key('o1', 'c'), list(40));
    expect([cache.get(key('o1', 'a')), cache.get(key('o1', 'b')), cache.get(key('o1', 'c'))].map(Boolean)).toEqual([true, false, true]);
    expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
    cache.put(org, key('o1', 'd'), list(200));
    expect(cache.get(key('o1', 'd'))).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it("drops the lists of a changed agent, of every agent on '*', and only in that organization", () => {
    const cache = new CandidateCache(1 << 30);
    const o1 = cache.start('o1', { xmin: '1', changes: [] })!;
    const o2 = cache.start('o2', { xmin: '1', changes: [] })!;
    for (const [org, orgId] of [
      [o1, 'o1'],
      [o2, 'o2'],
    ] as const)
      for (const agent of ['a', 'b']) for (const max of [10, 20]) cache.put(org, key(orgId, agent, max), list(5));
    const before = o1.tick;
    cache.advance(o1, change('1', ['a']));
    expect([key('o1', 'a', 10), key('o1', 'a', 20), key('o1', 'b', 10), key('o2', 'a', 10)].map((k) => Boolean(cache.get(k)))).toEqual([
      false,
      false,
      true,
      true,
    ]);
    // a list read before that change was applied must not be cached; one of another agent may be
    expect([o1.unchangedSince('a', before), o1.unchangedSince('b', before), o1.unchangedSince('a', o1.tick)]).toEqual([false, true, true]);
    cache.advance(o1, change('1', ['b'])); // seen before: nothing happens
    expect(cache.get(key('o1', 'b', 10))).toBeDefined();
    cache.advance(o1, change('2', ['*']));
    expect([cache.get(key('o1', 'b', 10)), cache.get(key('o2', 'b', 10))].map(Boolean)).toEqual([false, true]);
    expect(o1.unchangedSince('b', o1.tick - 1)).toBe(false);
    expect(cache.size).toBe(4);
  });

  it('does not cache into an organization state that was replaced meanwhile', () => {
    const cache = new CandidateCache(1 << 30);
    const first = cache.start('o1', { xmin: '1', changes: [] })!;
    expect(cache.start('o1', { xmin: '2', changes: [] })).toBeUndefined();
    expect(cache.attached('o1', first)).toBe(true);
    const stale = new CandidateCache(1 << 30).start('o1', { xmin: '1', changes: [] })!;
    cache.put(stale, key('o1', 'a'), list(3));
    expect(cache.get(key('o1', 'a'))).toBeUndefined();
  });
});
