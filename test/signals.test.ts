import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FactByIdDocument, SubmitSignalsDocument, UpsertFactsDocument } from './generated/graphql';
import { codeOf, fieldOf, gql, gqlOk } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';
import { applySignal, signalDelta } from '../src/modules/facts/usefulness';

let s: TestServer;
let em: () => EntityManager;
let a: { orgId: string; token: string };
let b: { orgId: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  em = () => s.app.db.orm.em.fork();
  a = await s.createOrg('a');
  b = await s.createOrg('b');
});
afterAll(() => s?.close());

type Sig = {
  factId: string;
  signalType: 'USED' | 'IGNORED' | 'HELPFUL' | 'NOT_HELPFUL';
  query: string;
  confidence?: number;
  queryEmbedding?: number[];
  context?: string;
};
const signal = (token: string, signals: Sig[], idempotencyKey?: string) =>
  gql(s.url, SubmitSignalsDocument, { signals, idempotencyKey }, token);

async function newFacts(token: string, n: number, bankId = 'bank'): Promise<string[]> {
  const r = await gqlOk(
    s.url,
    UpsertFactsDocument,
    { inputs: Array.from({ length: n }, (_, i) => ({ bankId, text: `fact ${i}` })) },
    token,
  );
  return r.upsertFacts.map((f) => f.id);
}
const usefulness = async (id: string) => (await gqlOk(s.url, FactByIdDocument, { id }, a.token)).fact!.usefulness;
const contexts = (factId: string) =>
  em().execute<{ normalized_query: string; usefulness: number; signal_count: number }[]>(
    'SELECT normalized_query, usefulness, signal_count FROM fact_query_contexts WHERE fact_id = ? ORDER BY usefulness DESC',
    [factId],
  );

describe('submitSignals: worked examples of the reference usefulness design', () => {
  it('moves a neutral fact by the per-signal effects of the table', async () => {
    const ids = await newFacts(a.token, 4);
    const kinds = ['USED', 'IGNORED', 'HELPFUL', 'NOT_HELPFUL'] as const;
    const r = await gqlOk(
      s.url,
      SubmitSignalsDocument,
      { signals: kinds.map((k, i) => ({ factId: ids[i], signalType: k, query: 'q' })) },
      a.token,
    );
    expect(r.submitSignals.map((f) => f.id)).toEqual(ids);
    const expected = [0.6, 0.45, 0.65, 0.4];
    r.submitSignals.forEach((f, i) => {
      expect(f.usefulness).toBeCloseTo(expected[i], 6);
      expect(f.signalCount).toBe(1);
      expect(f.lastSignalAt).toEqual(expect.any(String));
    });
    expect(r.submitSignals[0].lastUsedAt).toEqual(expect.any(String));
    expect(r.submitSignals[1].lastUsedAt).toBeNull();
    // confidence scales the effect
    const [c] = await newFacts(a.token, 1);
    const half = await gqlOk(
      s.url,
      SubmitSignalsDocument,
      { signals: [{ factId: c, signalType: 'IGNORED', query: 'q', confidence: 0.5 }] },
      a.token,
    );
    expect(half.submitSignals[0].usefulness).toBeCloseTo(0.475, 6);
  });

  it('clamps at 1 and at 0, applying several signals on one fact in order', async () => {
    const [up, down, mixed] = await newFacts(a.token, 3);
    const r = await gqlOk(
      s.url,
      SubmitSignalsDocument,
      {
        signals: [
          ...Array.from({ length: 5 }, () => ({ factId: up, signalType: 'HELPFUL' as const, query: 'q' })),
          ...Array.from({ length: 7 }, () => ({ factId: down, signalType: 'NOT_HELPFUL' as const, query: 'q' })),
          // order matters with clamping: 0.5 -> 1.0 (clamped) -> 0.9, not 0.5 + 0.75 - 0.1 = 1.15 -> 1.0
          ...Array.from({ length: 5 }, () => ({ factId: mixed, signalType: 'HELPFUL' as const, query: 'q' })),
          { factId: mixed, signalType: 'NOT_HELPFUL' as const, query: 'q' },
        ],
      },
      a.token,
    );
    expect(r.submitSignals.map((f) => f.id)).toEqual([up, down, mixed]);
    // stored exactly at the bounds; read back decayed by the milliseconds since
    expect(r.submitSignals[0].usefulness).toBeCloseTo(1, 6);
    expect(r.submitSignals[1].usefulness).toBeCloseTo(0, 6);
    const stored = await em().execute<{ id: string; usefulness: number }[]>('SELECT id, usefulness FROM facts WHERE id IN (?, ?)', [
      up,
      down,
    ]);
    expect(Object.fromEntries(stored.map((x) => [x.id, x.usefulness]))).toEqual({ [up]: 1, [down]: 0 });
    expect(r.submitSignals[2].usefulness).toBeCloseTo(0.9, 6);
    expect(r.submitSignals.map((f) => f.signalCount)).toEqual([5, 7, 6]);
  });

  it('decays a score left alone for 4 weeks toward 0.5, then applies the next signal to the decayed score', async () => {
    const [id] = await newFacts(a.token, 1);
    await signal(
      a.token,
      Array.from({ length: 4 }, () => ({ factId: id, signalType: 'USED' as const, query: 'decay' })),
    );
    expect(await usefulness(id)).toBeCloseTo(0.9, 6);
    await em().execute(`UPDATE facts SET last_signal_at = last_signal_at - interval '28 days' WHERE id = ?`, [id]);
    await em().execute(`UPDATE fact_query_contexts SET last_signal_at = last_signal_at - interval '28 days' WHERE fact_id = ?`, [id]);
    const decayed = 0.5 + 0.4 * 0.95 ** 4; // 0.8258
    expect(await usefulness(id)).toBeCloseTo(decayed, 6);
    const r = await gqlOk(s.url, SubmitSignalsDocument, { signals: [{ factId: id, signalType: 'IGNORED', query: 'decay' }] }, a.token);
    expect(r.submitSignals[0].usefulness).toBeCloseTo(applySignal(0.9, 28, signalDelta('IGNORED')), 6);
    const [ctx] = await contexts(id);
    expect(ctx.usefulness).toBeCloseTo(decayed - 0.05, 6);
  });
});

describe('submitSignals: query contexts and the signal log', () => {
  it('keeps a score per query context, matching normalised text', async () => {
    const [id] = await newFacts(a.token, 1);
    await signal(a.token, [
      { factId: id, signalType: 'USED', query: 'Database performance?' },
      { factId: id, signalType: 'USED', query: '  database   PERFORMANCE ' },
      { factId: id, signalType: 'IGNORED', query: 'authentication methods', context: 'off topic' },
    ]);
    const ctxs = await contexts(id);
    expect(ctxs.map((c) => [c.normalized_query, Number(c.usefulness.toFixed(6)), c.signal_count])).toEqual([
      ['database performance', 0.7, 2],
      ['authentication methods', 0.45, 1],
    ]);
    expect(await usefulness(id)).toBeCloseTo(0.65, 6);
    const log = await em().execute<
      { signal_type: string; query: string; context: string | null; delta: number; actor_id: string | null }[]
    >('SELECT signal_type, query, context, delta, actor_id FROM fact_signals WHERE fact_id = ? ORDER BY signal_type DESC, query', [id]);
    expect(log).toHaveLength(3);
    expect(log.find((l) => l.signal_type === 'IGNORED')).toMatchObject({
      query: 'authentication methods',
      context: 'off topic',
      delta: -0.05,
    });
    expect(log.every((l) => typeof l.actor_id === 'string')).toBe(true);
  });

  it('matches query embeddings with cosine >= 0.85 and keeps dissimilar ones apart', async () => {
    const org = await s.createOrg('emb');
    const [id] = await newFacts(org.token, 1);
    await gqlOk(
      s.url,
      SubmitSignalsDocument,
      {
        signals: [
          { factId: id, signalType: 'USED', query: 'Who is the CEO?', queryEmbedding: [1, 0] },
          { factId: id, signalType: 'USED', query: 'Who is the chief executive?', queryEmbedding: [0.9, Math.sqrt(0.19)] }, // cosine 0.9
          { factId: id, signalType: 'IGNORED', query: 'Where is the office?', queryEmbedding: [0.8, 0.6] }, // cosine 0.8 to the first
        ],
      },
      org.token,
    );
    const ctxs = await contexts(id);
    expect(ctxs.map((c) => [c.normalized_query, Number(c.usefulness.toFixed(6))])).toEqual([
      ['who is the ceo', 0.7],
      ['where is the office', 0.45],
    ]);
  });

  it('replays an idempotent batch without applying it twice', async () => {
    const [id] = await newFacts(a.token, 1);
    const batch: Sig[] = [{ factId: id, signalType: 'USED', query: 'idem' }];
    await signal(a.token, batch, 'sig-1');
    const again = await signal(a.token, batch, 'sig-1');
    expect((again.data as { submitSignals: { usefulness: number; signalCount: number }[] }).submitSignals[0]).toMatchObject({
      signalCount: 1,
    });
    expect(await usefulness(id)).toBeCloseTo(0.6, 6);
  });
});

describe('submitSignals: concurrency', () => {
  it('20 clients x 50 USED signals on one fact at once end at the sequential result', async () => {
    const [id] = await newFacts(a.token, 1);
    const confidence = 0.001; // small steps, so a lost update would show (no clamping)
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = 0; i < 50; i++) {
          const r = await signal(a.token, [{ factId: id, signalType: 'USED', query: 'concurrent load', confidence }]);
          expect(r.errors).toBeUndefined();
        }
      }),
    );
    let sequential = 0.5;
    for (let i = 0; i < 1000; i++) sequential = applySignal(sequential, 0, signalDelta('USED', confidence));
    const [row] = await em().execute<{ usefulness: number; signal_count: number }[]>(
      'SELECT usefulness, signal_count FROM facts WHERE id = ?',
      [id],
    );
    expect(row.signal_count).toBe(1000);
    expect(row.usefulness).toBeCloseTo(sequential, 5); // 0.6; decay over the seconds of the test is < 1e-7
    const [ctx] = await contexts(id);
    expect(ctx.signal_count).toBe(1000);
    expect(ctx.usefulness).toBeCloseTo(sequential, 5);
    const [log] = await em().execute('SELECT count(*)::int AS n FROM fact_signals WHERE fact_id = ?', [id]);
    expect(log.n).toBe(1000);
  });

  it('batches over the same facts in different orders neither deadlock nor lose updates', async () => {
    const ids = await newFacts(a.token, 5);
    const batches = Array.from({ length: 12 }, (_, c) => {
      const order = c % 2 ? [...ids].reverse() : [...ids.slice(c % 5), ...ids.slice(0, c % 5)];
      return order.map((factId) => ({ factId, signalType: 'USED' as const, query: `client ${c % 3}`, confidence: 0.01 }));
    });
    const results = await Promise.all(batches.map((batch) => signal(a.token, batch)));
    expect(results.every((r) => r.errors === undefined)).toBe(true);
    const rows = await em().execute<{ usefulness: number; signal_count: number }[]>(
      'SELECT usefulness, signal_count FROM facts WHERE id IN (?, ?, ?, ?, ?)',
      ids,
    );
    for (const row of rows) {
      expect(row.signal_count).toBe(12);
      expect(row.usefulness).toBeCloseTo(0.5 + 12 * 0.001, 6);
    }
    const [ctx] = await em().execute('SELECT count(*)::int AS n, sum(signal_count)::int AS s FROM fact_query_contexts WHERE fact_id = ?', [
      ids[0],
    ]);
    expect(ctx).toEqual({ n: 3, s: 12 });
  });
});

describe('submitSignals: bad input', () => {
  it('refuses each bad signal with a clear error and writes none of the batch', async () => {
    const [id, other] = await newFacts(a.token, 2);
    const good: Sig = { factId: other, signalType: 'USED', query: 'fine' };
    const [bFact] = await newFacts(b.token, 1);
    const cases: [Sig[] | unknown[], string, string][] = [
      [[good, { factId: id, signalType: 'USED', query: '' }], 'signals.1.query', 'BAD_USER_INPUT'],
      [[good, { factId: id, signalType: 'USED', query: '?!' }], 'signals.1.query', 'BAD_USER_INPUT'],
      [[good, { factId: id, signalType: 'USED', query: 'q', confidence: 1.5 }], 'signals.1.confidence', 'BAD_USER_INPUT'],
      [[good, { factId: id, signalType: 'USED', query: 'q', confidence: -0.1 }], 'signals.1.confidence', 'BAD_USER_INPUT'],
      [[good, { factId: 'nope', signalType: 'USED', query: 'q' }], 'signals.1.factId', 'BAD_USER_INPUT'],
      [[good, { factId: bFact, signalType: 'USED', query: 'q' }], 'signals.1.factId', 'NOT_FOUND'],
      [[good, { factId: '00000000-0000-4000-8000-000000000000', signalType: 'USED', query: 'q' }], 'signals.1.factId', 'NOT_FOUND'],
      [[good, { factId: id, signalType: 'USED', query: 'q', queryEmbedding: [] }], 'signals.1.queryEmbedding', 'BAD_USER_INPUT'],
      [Array.from({ length: 501 }, () => good), 'signals', 'BAD_USER_INPUT'],
    ];
    for (const [signals, field, code] of cases) {
      const r = await signal(a.token, signals as Sig[]);
      expect(codeOf(r), field).toBe(code);
      expect(fieldOf(r), field).toBe(field);
    }
    // an unknown signal type is refused by GraphQL, naming the variable
    const unknown = await gql(
      s.url,
      SubmitSignalsDocument,
      { signals: [{ factId: id, signalType: 'LOVED', query: 'q' }] as never },
      a.token,
    );
    expect(codeOf(unknown)).toBe('BAD_USER_INPUT');
    // NaN / infinite numbers: JSON cannot carry them, and a literal overflow reaches the validator
    const inf = await gql(
      s.url,
      `mutation { submitSignals(signals: [{factId: "${id}", signalType: USED, query: "q", confidence: 1e999}]) { id } }`,
      {},
      a.token,
    );
    expect(codeOf(inf)).toBe('BAD_USER_INPUT');
    expect(fieldOf(inf)).toBe('signals.0.confidence');
    const infEmb = await gql(
      s.url,
      `mutation { submitSignals(signals: [{factId: "${id}", signalType: USED, query: "q", queryEmbedding: [1, 1e999]}]) { id } }`,
      {},
      a.token,
    );
    expect(fieldOf(infEmb)).toBe('signals.0.queryEmbedding');
    const [row] = await em().execute('SELECT usefulness, signal_count FROM facts WHERE id = ?', [other]);
    expect(row).toMatchObject({ usefulness: 0.5, signal_count: 0 });
    const [log] = await em().execute('SELECT count(*)::int AS n FROM fact_signals WHERE fact_id IN (?, ?)', [id, other]);
    expect(log.n).toBe(0);
  });

  it('refuses a query embedding of another dimension than the organization uses', async () => {
    const org = await s.createOrg('dims');
    await gqlOk(s.url, UpsertFactsDocument, { inputs: [{ bankId: 'x', text: 'three', embedding: [1, 0, 0] }] }, org.token);
    const [id] = await newFacts(org.token, 1);
    const r = await signal(org.token, [{ factId: id, signalType: 'USED', query: 'q', queryEmbedding: [1, 0] }]);
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(fieldOf(r)).toBe('signals.0.queryEmbedding');
  });

  it('is refused to VIEWER keys and allowed to AGENT keys', async () => {
    const [id] = await newFacts(a.token, 1);
    const viewer = await s.createKey(a.orgId, 'VIEWER');
    expect(codeOf(await signal(viewer.token, [{ factId: id, signalType: 'USED', query: 'q' }]))).toBe('FORBIDDEN');
    const agent = await s.createKey(a.orgId, 'AGENT');
    expect(codeOf(await signal(agent.token, [{ factId: id, signalType: 'USED', query: 'q' }]))).toBeUndefined();
    expect(await usefulness(id)).toBeCloseTo(0.6, 6);
  });
});

describe('submitSignals: org isolation and statement count', () => {
  it('org B cannot signal org A facts, and a batch costs a constant number of statements', async () => {
    const ids = await newFacts(a.token, 50);
    const r = await signal(b.token, [{ factId: ids[0], signalType: 'HELPFUL', query: 'q' }]);
    expect(codeOf(r)).toBe('NOT_FOUND');
    expect(r.errors?.[0].message).not.toContain(ids[0]);
    expect(await usefulness(ids[0])).toBe(0.5);

    // besides authentication: the key cache keeps a key for seconds, so either request may be the one
    // that looks the key up again
    s.sql.reset();
    await signal(a.token, [{ factId: ids[0], signalType: 'USED', query: 'count' }]);
    const one = s.sql.besidesAuth;
    s.sql.reset();
    await signal(
      a.token,
      ids.flatMap((factId) => [
        { factId, signalType: 'USED' as const, query: 'count more' },
        { factId, signalType: 'IGNORED' as const, query: 'other' },
      ]),
    );
    expect(s.sql.besidesAuth).toBe(one);
  });
});
