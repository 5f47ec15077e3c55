import { describe, expect, it, vi } from 'vitest';
import { contextMatches, cosine, finalScore, normalizeQuery, semanticFromCosine, usefulnessAt } from '../src/modules/facts/usefulness';
import { sumOfSquares } from '../src/modules/facts/usefulness.sql';
import { BankVectors, type IndexRow } from '../src/modules/facts/vectors/bank-vectors';
import { candidateIds, type CandidateQuery } from '../src/modules/facts/vectors/candidates';
import { CLUSTER_FROM } from '../src/modules/facts/vectors/clusters';
import { quantize } from '../src/modules/facts/vectors/kernel';
import { seededRandom } from './helpers/random';

const rng = seededRandom;

const NOW = Date.parse('2026-11-01T00:00:00Z');
const DAY = 86_400_000;

function bankOf(random: () => number, dim: number, n: number, queries: number[][]) {
  const gauss = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  const vec = () => Array.from({ length: dim }, gauss);
  // a vector whose cosine with q is about `c` (mixing q with noise)
  const near = (q: number[], c: number) => {
    const noise = vec();
    const qn = Math.sqrt(sumOfSquares(q));
    const nn = Math.sqrt(sumOfSquares(noise));
    const s = Math.sqrt(Math.max(0, 1 - c * c));
    return q.map((x, j) => (c * x) / qn + (s * noise[j]) / nn);
  };
  const rows: IndexRow[] = [];
  for (let i = 0; i < n; i++) {
    const q = queries[i % queries.length];
    const r = random();
    const embedding = r < 0.02 ? new Array(dim).fill(0) : r < 0.3 ? near(q, 0.3 + random() * 0.69) : vec();
    const contexts: NonNullable<IndexRow['contexts']> = [];
    for (let k = Math.floor(random() * 3); k > 0; k--) {
      const kind = random();
      const e = kind < 0.6 ? near(q, 0.8 + random() * 0.1) : kind < 0.8 ? vec() : null;
      contexts.push({
        n: kind >= 0.8 ? 'what is the plan' : 'other question',
        e,
        q: e ? sumOfSquares(e) : null,
        u: random(),
        t: random() < 0.3 ? null : NOW - random() * 60 * DAY,
      });
    }
    rows.push({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      bank_id: 'b',
      has_text: true,
      kind: ['a', 'b', null][i % 3],
      status: ['SUGGESTED', 'CONFIRMED', 'REJECTED'][i % 3 === 0 ? 0 : (i >> 2) % 3],
      embedding,
      norm_sq: sumOfSquares(embedding),
      usefulness: random(),
      t: random() < 0.2 ? null : NOW - random() * 90 * DAY,
      contexts,
    });
  }
  return rows;
}

/** Recall's ranking computed from scratch with the reference formulas. */
function exactTop(rows: IndexRow[], q: CandidateQuery): string[] {
  const now = new Date(q.nowMs);
  const scored = rows
    .filter((r) => (!q.kinds || q.kinds.includes(r.kind as string)) && (!q.statuses || q.statuses.includes(r.status)))
    .map((r) => {
      const semantic = semanticFromCosine(cosine(r.embedding as number[], q.embedding));
      let best: { sim: number; u: number; t: number | null } | null = null;
      for (const c of r.contexts ?? []) {
        const sim = contextMatches(
          { normalizedQuery: c.n, queryEmbedding: c.e as number[] | null },
          { normalizedQuery: q.normalizedQuery, queryEmbedding: q.embedding },
        );
        if (sim !== null && (!best || sim > best.sim || (sim === best.sim && (c.t ?? -Infinity) > (best.t ?? -Infinity))))
          best = { sim, u: c.u, t: c.t };
      }
      const use = best
        ? usefulnessAt(best.u, best.t === null ? null : new Date(best.t), now)
        : usefulnessAt(r.usefulness, r.t === null ? null : new Date(r.t), now);
      return { id: r.id, use, score: finalScore(semantic, use, q.weight, q.boost) };
    })
    .filter((x) => x.use >= q.minUsefulness)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return scored.slice(0, q.limit).map((x) => x.id);
}

describe('recall candidates from the 8-bit index', () => {
  it('always contain the exact top of the ranking (random banks of several dimensions, with and without boosting, contexts near the match threshold, filters)', () => {
    let trials = 0;
    let candidates = 0;
    let bankSize = 0;
    for (const [dim, n, seed] of [
      [3, 3000, 1],
      [16, 3000, 2],
      [64, 4000, 3],
      [200, 1500, 4],
    ] as const) {
      const random = rng(seed);
      const gauss = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
      const queries = Array.from({ length: 6 }, () => Array.from({ length: dim }, gauss));
      const rows = bankOf(random, dim, n, queries);
      const bank = new BankVectors(dim);
      for (const r of rows) bank.put(r);
      for (const [qi, embedding] of queries.entries()) {
        for (const [boost, weight, minUsefulness, kinds, statuses, limit] of [
          [false, 0.3, 0, null, null, 10],
          [true, 0.3, 0, null, null, 10],
          [true, 0.9, 0, null, null, 50],
          [true, 0.5, 0.6, null, null, 10],
          [true, 0.3, 0, ['a', 'b'], ['CONFIRMED', 'SUGGESTED'], 20],
          [false, 0.3, 0.3, ['a'], null, 1],
        ] as const) {
          const q: CandidateQuery = {
            embedding,
            normSq: sumOfSquares(embedding),
            normalizedQuery: normalizeQuery(qi % 2 ? 'What is the plan?' : 'something else'),
            limit,
            boost,
            weight,
            minUsefulness,
            kinds: kinds ? [...kinds] : null,
            statuses: statuses ? [...statuses] : null,
            nowMs: NOW,
          };
          const got = candidateIds(bank, q);
          expect(got).not.toBeNull();
          const want = exactTop(rows, q);
          const set = new Set(got);
          expect(want.filter((id) => !set.has(id))).toEqual([]);
          trials += 1;
          candidates += got!.length;
          bankSize += n;
        }
      }
    }
    expect(trials).toBe(4 * 6 * 6);
    // the bound prunes: on these banks the candidates are a small share of the facts
    expect(candidates / bankSize).toBeLessThan(0.1);
  });

  it('a clustered bank (topics of near-ties, random and zero vectors, 32-bit floats) skips clusters and still contains the exact top, through removals and replacements', () => {
    for (const [dim, n, seed] of [
      [64, 9000, 5],
      [200, CLUSTER_FROM + 500, 6],
    ] as const) {
      const random = rng(seed);
      const gauss = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
      const unit = (v: number[]) => v.map((x) => x / Math.sqrt(sumOfSquares(v)));
      const topics = Array.from({ length: 40 }, () => unit(Array.from({ length: dim }, gauss)));
      // a topic's facts: its vector plus noise (cosine about 0.98 with it), as the model's 32-bit floats
      const nearTopic = (k: number, noise: number) => topics[k].map((x) => Math.fround(x + noise * gauss()));
      const queries = [...topics.slice(0, 4).map((_, k) => nearTopic(k, 0.01)), Array.from({ length: dim }, gauss)];
      const rows = bankOf(random, dim, n, queries).map((r, i) => {
        const roll = random();
        const embedding =
          roll < 0.01
            ? new Array<number>(dim).fill(0)
            : roll < 0.96
              ? nearTopic(i % topics.length, 0.2 / Math.sqrt(dim))
              : unit(Array.from({ length: dim }, gauss)).map(Math.fround);
        return { ...r, embedding, norm_sq: sumOfSquares(embedding) };
      });
      const bank = new BankVectors(dim);
      for (const r of rows) bank.put(r);
      expect(bank.clusters?.leaders.length).toBeGreaterThan(0);
      // changes after the bank was clustered: leaders among the removed and the replaced
      const live = new Map(rows.map((r) => [r.id, r]));
      for (let i = 0; i < n; i += 7) {
        bank.remove(rows[i].id);
        live.delete(rows[i].id);
      }
      for (let i = 1; i < n; i += 11) {
        const embedding = nearTopic((i * 3) % topics.length, 0.2 / Math.sqrt(dim));
        const r = { ...rows[i], embedding, norm_sq: sumOfSquares(embedding) };
        bank.put(r);
        live.set(r.id, r);
      }
      const above = vi.spyOn(bank.store, 'above');
      let clustered = 0;
      for (const [qi, embedding] of queries.entries()) {
        for (const [boost, weight, minUsefulness, kinds, limit] of [
          [false, 0.3, 0, null, 10],
          [true, 0.3, 0, null, 10],
          [true, 0.5, 0.6, null, 10],
          [false, 0.3, 0.3, ['a'], 1],
        ] as const) {
          const q: CandidateQuery = {
            embedding,
            normSq: sumOfSquares(embedding),
            normalizedQuery: normalizeQuery(qi % 2 ? 'What is the plan?' : 'something else'),
            limit,
            boost,
            weight,
            minUsefulness,
            kinds: kinds ? [...kinds] : null,
            statuses: null,
            nowMs: NOW,
          };
          const calls = above.mock.calls.length;
          const got = candidateIds(bank, q);
          expect(got).not.toBeNull();
          const set = new Set(got);
          expect(exactTop([...live.values()], q).filter((id) => !set.has(id))).toEqual([]);
          if (above.mock.calls.length === calls) clustered += 1;
        }
      }
      // the queries near a topic are answered by the clusters alone, without a whole scan
      expect(clustered).toBeGreaterThanOrEqual(16);
      above.mockRestore();
    }
  });

  it('the kernel returns exactly the vectors whose bound reaches the threshold, with their dot products (any count, freed slots never)', () => {
    const random = rng(99);
    for (const n of [1, 3, 4, 5, 17, 1000]) {
      const bank = new BankVectors(20);
      for (let i = 0; i < n; i++) {
        const e = Array.from({ length: 20 }, () => random() - 0.5);
        bank.put({
          id: `id-${i}`,
          bank_id: 'b',
          has_text: true,
          kind: null,
          status: 'S',
          embedding: e,
          norm_sq: sumOfSquares(e),
          usefulness: random(),
          t: null,
          contexts: null,
        });
      }
      if (n > 2) bank.remove('id-1');
      const q = Array.from({ length: 20 }, () => random() - 0.5);
      const qs = quantize(q, sumOfSquares(q), bank.store.query, 0, bank.pdim);
      const dots = [...bank.store.dots(bank.size)];
      const { scales, errs, uses } = bank.store;
      const f = Math.fround;
      for (const [w, threshold] of [
        [0, 0.1],
        [0.3, 0.5],
        [0.9, -Infinity],
      ]) {
        const want: number[] = [];
        for (let i = 0; i < bank.size; i++) {
          if (n > 2 && i === 1) continue;
          const sem = Math.max(0, f(f(f(dots[i]) * scales[i]) * f(qs.scale)) + f(errs[i] + f(f(1 + errs[i]) * f(qs.err))));
          if (f(f(f(1 - w) * f(sem)) + f(f(w) * uses[i])) >= f(threshold)) want.push(i, dots[i]);
        }
        expect([...bank.store.above(bank.size, qs.scale, qs.err, w, threshold)]).toEqual(want);
      }
    }
  });

  it('forgets a removed fact and follows a replaced one', () => {
    const bank = new BankVectors(2);
    const row = (id: string, embedding: number[]): IndexRow => ({
      id,
      bank_id: 'b',
      has_text: true,
      kind: null,
      status: 'SUGGESTED',
      embedding,
      norm_sq: sumOfSquares(embedding),
      usefulness: 0.5,
      t: null,
      contexts: null,
    });
    bank.put(row('00000000-0000-4000-8000-000000000001', [1, 0]));
    bank.put(row('00000000-0000-4000-8000-000000000002', [0.6, 0.8]));
    const q = {
      embedding: [1, 0],
      normSq: 1,
      normalizedQuery: '',
      limit: 1,
      boost: false,
      weight: 0.3,
      minUsefulness: 0,
      kinds: null,
      statuses: null,
      nowMs: NOW,
    };
    expect(candidateIds(bank, q)).toEqual(['00000000-0000-4000-8000-000000000001']);
    bank.put(row('00000000-0000-4000-8000-000000000001', [-1, 0]));
    expect(candidateIds(bank, q)).toEqual(['00000000-0000-4000-8000-000000000002']);
    bank.remove('00000000-0000-4000-8000-000000000002');
    expect(candidateIds(bank, q)).toEqual(['00000000-0000-4000-8000-000000000001']);
    bank.put({ ...row('00000000-0000-4000-8000-000000000001', [1, 0]), has_text: false });
    expect(candidateIds(bank, q)).toEqual([]);
    expect(bank.count).toBe(0);
  });
});
