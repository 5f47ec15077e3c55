import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applySignal,
  clamp01,
  contextMatches,
  cosine,
  decayTowardNeutral,
  finalScore,
  normalizeQuery,
  semanticFromCosine,
  signalDelta,
  usefulnessAt,
} from '../src/modules/facts/usefulness';
import {
  INLINE_DIMENSIONS,
  sqlApplySignal,
  sqlClamp01,
  sqlCosineWith,
  sqlDecay,
  sqlFinalScore,
  sqlSemanticFromCosine,
  sqlSignalDelta,
  sqlUsefulnessAt,
  cosineWith,
} from '../src/modules/facts/usefulness.sql';
import { sql as raw } from 'kysely';
import { templateRows } from '../src/db/typed-sql';
import { startTestServer, type TestServer } from './helpers/server';

describe('usefulness formulas (worked examples of the reference usefulness design)', () => {
  it('gives the per-signal effects of the reference table', () => {
    expect(signalDelta('USED')).toBeCloseTo(0.1, 12);
    expect(signalDelta('IGNORED')).toBeCloseTo(-0.05, 12);
    expect(signalDelta('HELPFUL')).toBeCloseTo(0.15, 12);
    expect(signalDelta('NOT_HELPFUL')).toBeCloseTo(-0.1, 12);
    expect(signalDelta('IGNORED', 0.5)).toBeCloseTo(-0.025, 12);
  });

  it('clamps to [0, 1]', () => {
    expect(clamp01(1.2)).toBe(1);
    expect(clamp01(-0.1)).toBe(0);
    expect(clamp01(0.4)).toBe(0.4);
    expect(applySignal(0.95, 0, signalDelta('HELPFUL'))).toBe(1);
    expect(applySignal(0.05, 0, signalDelta('NOT_HELPFUL'))).toBe(0);
  });

  it('decays 5% per week toward 0.5', () => {
    expect(decayTowardNeutral(0.9, 7)).toBeCloseTo(0.5 + 0.4 * 0.95, 12);
    expect(decayTowardNeutral(0.9, 28)).toBeCloseTo(0.5 + 0.4 * 0.95 ** 4, 12);
    expect(decayTowardNeutral(0.1, 28)).toBeCloseTo(0.5 - 0.4 * 0.95 ** 4, 12);
    expect(decayTowardNeutral(0.9, 0)).toBe(0.9);
    expect(decayTowardNeutral(0.9, -3)).toBe(0.9);
    const now = new Date('2026-11-22T00:00:00Z');
    expect(usefulnessAt(0.9, new Date('2026-10-25T00:00:00Z'), now)).toBeCloseTo(0.5 + 0.4 * 0.95 ** 4, 12);
    expect(usefulnessAt(0.9, null, now)).toBe(0.9);
  });

  it('ranks the reference boosting table: A (0.80, 0.90) above B (0.90, 0.30) with weight 0.3', () => {
    expect(finalScore(0.8, 0.9, 0.3, true)).toBeCloseTo(0.83, 12);
    expect(finalScore(0.9, 0.3, 0.3, true)).toBeCloseTo(0.72, 12);
    expect(finalScore(0.9, 0.3, 0.3, false)).toBe(0.9);
  });

  it('normalises queries and matches contexts by embedding cosine >= 0.85, else by text', () => {
    expect(normalizeQuery('  Database   Performance?! ')).toBe('database performance');
    expect(normalizeQuery("Who's the CEO?")).toBe('whos the ceo');
    expect(cosine([1, 0], [0, 1])).toBe(0);
    expect(cosine([1, 2], [2, 4])).toBeCloseTo(1, 12);
    expect(cosine([0, 0], [1, 1])).toBe(0);
    expect(semanticFromCosine(-0.4)).toBe(0);
    const text = { normalizedQuery: 'who is the ceo', queryEmbedding: null };
    expect(contextMatches(text, { normalizedQuery: 'who is the ceo', queryEmbedding: [1, 0] })).toBe(1);
    expect(contextMatches(text, { normalizedQuery: 'who leads', queryEmbedding: null })).toBeNull();
    const emb = { normalizedQuery: 'who is the ceo', queryEmbedding: [1, 0] };
    expect(contextMatches(emb, { normalizedQuery: 'chief executive', queryEmbedding: [0.9, Math.sqrt(0.19)] })).toBeCloseTo(0.9, 12);
    expect(contextMatches(emb, { normalizedQuery: 'who is the ceo', queryEmbedding: [0.8, 0.6] })).toBeNull();
  });
});

/** A jsonb array of numbers as float8[], in order (its subquery ends in OFFSET 0, so it is built once per row, not once per subscript). */
const arrayOf = (json: string) => `ARRAY(SELECT e::float8 FROM jsonb_array_elements_text(${json}) WITH ORDINALITY AS t(e, k) ORDER BY k)`;

describe('the SQL formulas agree with the TypeScript ones', () => {
  let s: TestServer;
  let em: EntityManager;
  beforeAll(async () => {
    s = await startTestServer();
    em = s.app.db.orm.em.fork();
  });
  afterAll(() => s?.close());

  it('on a grid of scores, ages, deltas, weights and vectors', async () => {
    const scores = [0, 0.05, 0.3, 0.5, 0.72, 0.95, 1];
    const days = [0, 0.5, 3, 7, 28, 365];
    const kinds = ['USED', 'IGNORED', 'HELPFUL', 'NOT_HELPFUL'] as const;
    const confidences = [0, 0.3, 1];
    const grid = scores
      .flatMap((score) => days.flatMap((d) => kinds.flatMap((kind) => confidences.map((c) => ({ score, d, kind, c })))))
      .map((g, n) => ({ ...g, n }));
    const rows = await em.execute<{ decay: number; apply: number; clamp: number; delta: number; at: number }[]>(
      `SELECT ${sqlDecay('g.score', 'g.d')} AS decay,
              ${sqlApplySignal('g.score', 'g.d', sqlSignalDelta('g.kind', 'g.c'))} AS apply,
              ${sqlClamp01('g.score * 3 - 1')} AS clamp,
              ${sqlSignalDelta('g.kind', 'g.c')} AS delta,
              ${sqlUsefulnessAt('g.score', "('2026-11-22T00:00:00Z'::timestamptz - make_interval(secs => g.d * 86400))", "'2026-11-22T00:00:00Z'::timestamptz")} AS at
       FROM jsonb_to_recordset(?::jsonb) AS g(score float8, d float8, kind text, c float8, n int) ORDER BY n`,
      [JSON.stringify(grid)],
    );
    expect(rows).toHaveLength(grid.length);
    grid.forEach((g, i) => {
      expect(rows[i].decay).toBeCloseTo(decayTowardNeutral(g.score, g.d), 9);
      expect(rows[i].apply).toBeCloseTo(applySignal(g.score, g.d, signalDelta(g.kind, g.c)), 9);
      expect(rows[i].clamp).toBeCloseTo(clamp01(g.score * 3 - 1), 12);
      expect(rows[i].delta).toBeCloseTo(signalDelta(g.kind, g.c), 12);
      expect(rows[i].at).toBeCloseTo(
        usefulnessAt(g.score, new Date(Date.parse('2026-11-22T00:00:00Z') - g.d * 86_400_000), new Date('2026-11-22T00:00:00Z')),
        9,
      );
    });

    const vectors = [
      [
        [1, 0],
        [0, 1],
      ],
      [
        [1, 2, 3],
        [3, 2, 1],
      ],
      [
        [0.8, 0.6],
        [1, 0],
      ],
      [
        [-1, 0.2],
        [1, 0.1],
      ],
      [
        [0, 0],
        [1, 1],
      ],
      [
        [0.3, -0.7, 0.2, 0.9],
        [0.31, -0.69, 0.25, 0.88],
      ],
    ];
    const weights = [0, 0.3, 0.75, 1];
    // the second vector is the query: part of the statement, as recall builds it
    for (const [a, b] of vectors) {
      const rows = weights.map((w, n) => ({ a, w, u: 0.6, n }));
      const cos = sqlCosineWith('p.a', 'sum_of_squares(p.a)', b);
      const vrows = await em.execute<{ cos: number; sem: number; boosted: number; plain: number }[]>(
        `SELECT ${cos} AS cos, ${sqlSemanticFromCosine(cos)} AS sem,
                ${sqlFinalScore(sqlSemanticFromCosine(cos), 'p.u', 'p.w', true)} AS boosted,
                ${sqlFinalScore(sqlSemanticFromCosine(cos), 'p.u', 'p.w', false)} AS plain
         FROM (SELECT ${arrayOf('x.a')} AS a, x.w, x.u, x.n
               FROM jsonb_to_recordset(?::jsonb) AS x(a jsonb, w float8, u float8, n int) OFFSET 0) p ORDER BY p.n`,
        [JSON.stringify(rows)],
      );
      rows.forEach((p, i) => {
        const c = cosine(a, b);
        expect(vrows[i].cos).toBeCloseTo(c, 12);
        expect(vrows[i].sem).toBeCloseTo(semanticFromCosine(c), 12);
        expect(vrows[i].boosted).toBeCloseTo(finalScore(semanticFromCosine(c), p.u, p.w, true), 12);
        expect(vrows[i].plain).toBeCloseTo(finalScore(semanticFromCosine(c), p.u, p.w, false), 12);
      });
    }
  });

  it('computes the cosine with a query exactly as aggregating over unnest does, on random, opposite and zero vectors', async () => {
    let seed = 12345;
    const rnd = () => ((seed = (seed * 48271) % 2147483647) / 2147483647) * 2 - 1;
    const vec = (d: number, scale = 1) => Array.from({ length: d }, () => rnd() * scale);
    for (const d of [1, 2, 3, 64, 384, INLINE_DIMENSIONS, INLINE_DIMENSIONS + 1, 1500]) {
      const q = vec(d);
      const zero = new Array<number>(d).fill(0);
      const facts = [
        q,
        q.map((x) => -x),
        q.map((x) => x * 3),
        zero,
        vec(d, 1e-150),
        vec(d, 1e150),
        ...Array.from({ length: 20 }, () => vec(d)),
      ];
      for (const query of [q, zero]) {
        const rows = await em.execute<{ n: number; cos: number; ref: number; norm: number | null }[]>(
          `SELECT p.n, ${sqlCosineWith('p.a', 'sum_of_squares(p.a)', query)} AS cos, sum_of_squares(p.a) AS norm,
                  (SELECT CASE WHEN sum(x * x) = 0 OR sum(y * y) = 0 THEN 0.0::float8 ELSE sum(x * y) / sqrt(sum(x * x) * sum(y * y)) END
                     FROM unnest(p.a, ?::float8[]) AS u(x, y)) AS ref
           FROM (SELECT x.n, ${arrayOf('x.a')} AS a FROM jsonb_to_recordset(?::jsonb) AS x(a jsonb, n int) OFFSET 0) p ORDER BY p.n`,
          [`{${query.join(',')}}`, JSON.stringify(facts.map((a, n) => ({ a, n })))],
        );
        expect(rows).toHaveLength(facts.length);
        rows.forEach((r, i) => {
          // the products and squares are added in the same order: the same double
          expect(r.cos).toBe(r.ref);
          expect(r.cos).toBeCloseTo(cosine(facts[i], query), 12);
          expect(r.norm).toBe(facts[i].reduce((a, x) => a + x * x, 0));
        });
        if (query === q) {
          expect(rows[0].cos).toBeCloseTo(1, 12);
          expect(rows[1].cos).toBeCloseTo(-1, 12);
          expect(rows[3].cos).toBe(0);
        } else expect(rows.every((r) => r.cos === 0)).toBe(true);
      }
    }
  });
  it('computes the cosine recall runs, with every number of the query bound, exactly as the written one', async () => {
    let seed = 777;
    const rnd = () => ((seed = (seed * 48271) % 2147483647) / 2147483647) * 2 - 1;
    const vec = (d: number) => Array.from({ length: d }, () => rnd());
    for (const d of [1, 3, 64, INLINE_DIMENSIONS, INLINE_DIMENSIONS + 1]) {
      const q = vec(d);
      const facts = [q, q.map((x) => -x), new Array<number>(d).fill(0), ...Array.from({ length: 10 }, () => vec(d))];
      const rows = await templateRows<{ n: number; bound: number; written: number }>(
        em,
        raw`SELECT p.n, ${cosineWith('p.a', 'p.nsq', q)} AS bound, ${raw.raw(sqlCosineWith('p.a', 'p.nsq', q))} AS written
              FROM (SELECT r.n, r.a, sum_of_squares(r.a) AS nsq
                      FROM (SELECT x.n, ${raw.raw(arrayOf('x.a'))} AS a
                              FROM jsonb_to_recordset(${JSON.stringify(facts.map((a, n) => ({ a, n })))}::jsonb) AS x(a jsonb, n int) OFFSET 0) r) p
             ORDER BY p.n`,
      );
      expect(rows).toHaveLength(facts.length);
      rows.forEach((r, i) => {
        expect(r.bound).toBe(r.written);
        expect(r.bound).toBeCloseTo(cosine(facts[i], q), 12);
      });
      expect(rows[0].bound).toBeCloseTo(1, 12);
      expect(rows[2].bound).toBe(0);
    }
  });
});
