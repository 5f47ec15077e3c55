import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ExplainMemoryContextDocument,
  FactBanksDocument,
  FactDetailDocument,
  MemoryContextDocument,
  SearchFactsDocument,
  type SearchFactsQuery,
  SubmitSignalsDocument,
  UpsertFactsDocument,
} from './generated/graphql';
import { codeOf, fieldOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let org: { orgId: string; token: string };
let other: { orgId: string; token: string };
let quietId: string;
let signalledId: string;

beforeAll(async () => {
  s = await startTestServer();
  org = await s.createOrg('explorer');
  other = await s.createOrg('elsewhere');
  const em = s.app.db.orm.em.fork();
  // one conversation: a setup turn, a long relevant turn, 60 short filler turns
  await em.execute(
    `WITH e AS (INSERT INTO episodes (id, org_id, agent_id, session_id, created_at, updated_at)
                VALUES (gen_random_uuid(), ?, 'console-agent', 's1', now() - interval '1 hour', now()) RETURNING id, org_id)
     INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at)
     SELECT gen_random_uuid(), e.org_id, e.id, g + 1, CASE WHEN g % 2 = 0 THEN 'user' ELSE 'assistant' END,
            CASE WHEN g = 0 THEN 'I prefer PostgreSQL for every database'
                 WHEN g = 1 THEN 'the invoice database schema in full detail'
                 WHEN g % 10 = 5 THEN 'invoice totals were checked ' || g
                 ELSE 'filler turn ' || g END,
            CASE WHEN g = 1 THEN 400 ELSE 20 END, now() - interval '1 hour' + g * interval '1 second'
       FROM e, generate_series(0, 61) g`,
    [org.orgId],
  );
  // 150 facts in two banks, one kind in three, usefulness spread
  await em.execute(
    `INSERT INTO facts (id, org_id, bank_id, text, kind, status, usefulness, signal_count, last_signal_at, created_at, updated_at)
     SELECT gen_random_uuid(), ?, CASE WHEN g <= 100 THEN 'orders' ELSE 'support' END,
            CASE WHEN g % 25 = 0 THEN 'Refunds need a receipt number ' || g ELSE 'Order rule number ' || g END,
            CASE WHEN g % 3 = 0 THEN 'policy' ELSE 'rule' END, CASE WHEN g % 7 = 0 THEN 'SUGGESTED' ELSE 'CONFIRMED' END,
            (g % 21) / 20.0, 1, now() - (g % 5) * interval '1 day', now() - g * interval '1 minute', now()
       FROM generate_series(1, 150) g`,
    [org.orgId],
  );
  const { upsertFacts } = await gqlOk(
    s.url,
    UpsertFactsDocument,
    {
      inputs: [
        { bankId: 'orders', text: 'Shipping to Norway takes nine days', kind: 'rule' },
        { bankId: 'orders', text: 'Gift wrapping costs three euros', kind: 'rule' },
      ],
    },
    org.token,
  );
  [quietId, signalledId] = upsertFacts.map((f) => f.id);
  await gqlOk(
    s.url,
    SubmitSignalsDocument,
    {
      signals: [
        { factId: signalledId, signalType: 'USED', query: 'how much is gift wrapping' },
        { factId: signalledId, signalType: 'HELPFUL', query: 'how much is gift wrapping', context: 'the user thanked' },
        { factId: signalledId, signalType: 'IGNORED', confidence: 0.5, query: 'what extras are there' },
      ],
    },
    org.token,
  );
  // the other organization has a bank of the same name
  await gqlOk(s.url, UpsertFactsDocument, { inputs: [{ bankId: 'orders', text: 'Shipping to Norway is free elsewhere' }] }, other.token);
});

afterAll(() => s?.close());

const explain = (mode: 'RECENT' | 'RELEVANT' | 'MIXED' | 'FOVEATED', token = org.token, leftOut = 100) =>
  gqlOk(
    s.url,
    ExplainMemoryContextDocument,
    { input: { agentId: 'console-agent', query: 'invoice database', tokenBudget: 300, mode }, leftOut },
    token,
  );

describe('memoryContext explained', () => {
  it('marks each selected memory with its zone and relevance, selecting exactly what it selected before', async () => {
    for (const mode of ['RECENT', 'RELEVANT', 'MIXED', 'FOVEATED'] as const) {
      const { memoryContext: c } = await explain(mode);
      const plain = await gqlOk(
        s.url,
        MemoryContextDocument,
        { input: { agentId: 'console-agent', query: 'invoice database', tokenBudget: 300, mode } },
        org.token,
      );
      expect(c.entries.map((e) => e.id)).toEqual(plain.memoryContext.entries.map((e) => e.id));
      const zones = new Set(c.entries.map((e) => e.zone));
      if (mode === 'RECENT') {
        expect([...zones]).toEqual(['RECENT']);
        expect(c.entries.every((e) => e.relevance === null)).toBe(true);
      } else {
        expect(c.entries.every((e) => typeof e.relevance === 'number')).toBe(true);
        expect(zones.has('RELEVANT')).toBe(true);
      }
      if (mode === 'RELEVANT') expect([...zones]).toEqual(['RELEVANT']);
      if (mode === 'MIXED') expect([...zones].sort()).toEqual(['RECENT', 'RELEVANT']);
      if (mode === 'FOVEATED') {
        // the setup turn is chosen by the early zone, the newest turn by the recent zone
        expect(c.entries[0]).toMatchObject({ content: 'I prefer PostgreSQL for every database', zone: 'EARLY' });
        expect(c.entries[c.entries.length - 1]).toMatchObject({ content: 'filler turn 61', zone: 'RECENT' });
      }
      // the relevant zone took the short turns that share the query's words
      if (mode !== 'RECENT') expect(c.entries.filter((x) => x.zone === 'RELEVANT' && x.relevance! > 0).length).toBeGreaterThan(0);
    }
  });

  it('lists what was left out and why: the long relevant turn did not fit, the rest ranked below', async () => {
    const { memoryContext: c } = await explain('FOVEATED');
    const chosen = new Set(c.entries.map((e) => e.id));
    expect(c.leftOut.length).toBe(Math.min(100, c.candidatesConsidered - c.memoriesSelected));
    expect(c.leftOut.some((l) => chosen.has(l.id))).toBe(false);
    const long = c.leftOut.find((l) => l.content === 'the invoice database schema in full detail')!;
    expect(long).toMatchObject({ reason: 'DID_NOT_FIT', tokenEstimate: 400 });
    expect(long.zone).toMatch(/^(EARLY|RELEVANT)$/);
    expect(long.tokensLeft!).toBeLessThan(400);
    // the most relevant first
    const rel = c.leftOut.map((l) => l.relevance!);
    expect([...rel].sort((a, b) => b - a)).toEqual(rel);
    expect(long.relevance).toBe(rel[0]);
    expect(c.leftOut.filter((l) => l.reason === 'RANKED_BELOW').length).toBeGreaterThan(0);
    for (const l of c.leftOut.filter((x) => x.reason === 'RANKED_BELOW')) expect(l.zone).toBeNull();
    // RECENT without relevance: the newest left out first
    const recent = (await explain('RECENT', org.token, 5)).memoryContext;
    expect(recent.leftOut).toHaveLength(5);
    expect(recent.leftOut.every((l) => l.relevance === null)).toBe(true);
    expect(recent.leftOut[0].content).toBe(`filler turn ${61 - recent.memoriesSelected}`);
  });

  it('refuses a left-out limit out of range', async () => {
    const r = await gql(
      s.url,
      ExplainMemoryContextDocument,
      { input: { agentId: 'console-agent', tokenBudget: 10 }, leftOut: 101 },
      org.token,
    );
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(fieldOf(r)).toBe('limit');
  });
});

describe('the facts explorer queries', () => {
  it('lists banks with their fact counts, largest first', async () => {
    const { factBanks } = await gqlOk(s.url, FactBanksDocument, {}, org.token);
    expect(factBanks.map((b) => [b.bankId, b.facts])).toEqual([
      ['orders', 102],
      ['support', 50],
    ]);
  });

  it('finds a fact without signals by its words, and filters by kind, status and usefulness', async () => {
    const found = await gqlOk(s.url, SearchFactsDocument, { filter: { bankId: 'orders', text: 'norway shipping' } }, org.token);
    expect(found.facts.edges.map((e) => e.node.id)).toEqual([quietId]);
    expect(found.facts.edges[0].node.signalCount).toBe(0);
    const refunds = await gqlOk(s.url, SearchFactsDocument, { filter: { text: 'refund' }, first: 100 }, org.token);
    expect(refunds.facts.edges).toHaveLength(6);
    const policy = await gqlOk(
      s.url,
      SearchFactsDocument,
      { filter: { bankId: 'support', kind: 'policy', statuses: ['CONFIRMED'], minUsefulness: 0.2, maxUsefulness: 0.8 }, first: 100 },
      org.token,
    );
    expect(policy.facts.edges.length).toBeGreaterThan(0);
    for (const { node } of policy.facts.edges) {
      expect(node).toMatchObject({ bankId: 'support', kind: 'policy', status: 'CONFIRMED' });
      expect(node.usefulness).toBeGreaterThanOrEqual(0.2);
      expect(node.usefulness).toBeLessThanOrEqual(0.8);
    }
  });

  it('pages the most useful first without skipping or repeating a fact', async () => {
    const seen: { id: string; usefulness: number }[] = [];
    let after: string | null | undefined = null;
    for (;;) {
      const r: SearchFactsQuery = await gqlOk(
        s.url,
        SearchFactsDocument,
        { filter: { bankId: 'orders' }, first: 15, after, orderBy: 'MOST_USEFUL' },
        org.token,
      );
      seen.push(...r.facts.edges.map((e) => ({ id: e.node.id, usefulness: e.node.usefulness })));
      if (!r.facts.pageInfo.hasNextPage) break;
      after = r.facts.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(102);
    expect(new Set(seen.map((f) => f.id)).size).toBe(102);
    const values = seen.map((f) => f.usefulness);
    expect([...values].sort((a, b) => b - a)).toEqual(values);
  });

  it('refuses an empty or oversized text, a reversed range and a cursor of another order', async () => {
    for (const [filter, field] of [
      [{ text: '  ' }, 'filter.text'],
      [{ text: 'x'.repeat(201) }, 'filter.text'],
      [{ minUsefulness: 0.9, maxUsefulness: 0.1 }, 'filter.minUsefulness'],
      [{ maxUsefulness: 2 }, 'filter.maxUsefulness'],
    ] as const) {
      const r = await gql(s.url, SearchFactsDocument, { filter }, org.token);
      expect(codeOf(r), JSON.stringify(filter)).toBe('BAD_USER_INPUT');
      expect(fieldOf(r)).toBe(field);
    }
    const newest = await gqlOk(s.url, SearchFactsDocument, { first: 1 }, org.token);
    const r = await gql(s.url, SearchFactsDocument, { after: newest.facts.pageInfo.endCursor, orderBy: 'MOST_USEFUL' }, org.token);
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(fieldOf(r)).toBe('after');
  });

  it('answers NOT_FOUND for a bank with no facts when asked to, and an empty page otherwise, over HTTP and WebSocket', async () => {
    const ws = wsClient(s.wsUrl, org.token);
    try {
      for (const run of [
        (v: Record<string, unknown>) => gql(s.url, SearchFactsDocument, v, org.token),
        (v: Record<string, unknown>) => wsOnce(ws, SearchFactsDocument, v),
      ]) {
        for (const orderBy of ['NEWEST', 'MOST_USEFUL'] as const) {
          const missing = await run({ filter: { bankId: 'no-such-bank', requireBank: true }, orderBy });
          expect(codeOf(missing)).toBe('NOT_FOUND');
          expect(fieldOf(missing)).toBe('filter.bankId');
          expect(missing.errors![0].message).toBe('bank "no-such-bank" has no facts in this organization');
          // without requireBank the answer is what it always was
          expect((await run({ filter: { bankId: 'no-such-bank' }, orderBy })).data!.facts.edges).toEqual([]);
          // a bank that exists but where nothing matches is an empty page, not NOT_FOUND
          const none = await run({ filter: { bankId: 'support', text: 'zeppelin', requireBank: true }, orderBy });
          expect(none.errors).toBeUndefined();
          expect(none.data!.facts.edges).toEqual([]);
          expect((await run({ filter: { bankId: 'support', requireBank: true }, orderBy })).data!.facts.edges.length).toBeGreaterThan(0);
        }
      }
    } finally {
      await ws.dispose();
    }
  });

  it("shows a fact's signals with the usefulness after each, and its query contexts", async () => {
    const { fact } = await gqlOk(s.url, FactDetailDocument, { id: signalledId }, org.token);
    expect(fact!.signalHistory.map((x) => [x.signalType, x.confidence, x.context])).toEqual([
      ['USED', 1, null],
      ['HELPFUL', 1, 'the user thanked'],
      ['IGNORED', 0.5, null],
    ]);
    expect(fact!.signalHistory.map((x) => x.usefulnessAfter)).toEqual([0.6, 0.75, 0.725].map((v) => expect.closeTo(v, 9)));
    expect(fact!.usefulness).toBeCloseTo(fact!.signalHistory[2].usefulnessAfter, 6);
    expect(fact!.queryContexts.map((c) => [c.query, c.signalCount])).toEqual([
      ['how much is gift wrapping', 2],
      ['what extras are there', 1],
    ]);
    const quiet = await gqlOk(s.url, FactDetailDocument, { id: quietId }, org.token);
    expect(quiet.fact).toMatchObject({ signalHistory: [], queryContexts: [] });
  });
});

describe('another organization', () => {
  it('sees none of these over HTTP', async () => {
    expect((await gqlOk(s.url, FactBanksDocument, {}, other.token)).factBanks.map((b) => [b.bankId, b.facts])).toEqual([['orders', 1]]);
    const search = await gqlOk(
      s.url,
      SearchFactsDocument,
      { filter: { bankId: 'orders', text: 'norway' }, orderBy: 'MOST_USEFUL' },
      other.token,
    );
    expect(search.facts.edges.map((e) => e.node.text)).toEqual(['Shipping to Norway is free elsewhere']);
    expect((await gqlOk(s.url, FactDetailDocument, { id: signalledId }, other.token)).fact).toBeNull();
    // a bank only the first organization has is unknown to this one
    const unknown = await gql(s.url, SearchFactsDocument, { filter: { bankId: 'support', requireBank: true } }, other.token);
    expect([codeOf(unknown), fieldOf(unknown)]).toEqual(['NOT_FOUND', 'filter.bankId']);
    const c = (await explain('FOVEATED', other.token)).memoryContext;
    expect(c).toMatchObject({ entries: [], leftOut: [], candidatesConsidered: 0 });
  });

  it('sees none of these over WebSocket', async () => {
    const client = wsClient(s.wsUrl, other.token);
    try {
      const banks = await wsOnce(client, FactBanksDocument, {});
      expect(banks.data!.factBanks.map((b) => b.bankId)).toEqual(['orders']);
      const search = await wsOnce(client, SearchFactsDocument, { filter: { text: 'refund' } });
      expect(search.data!.facts.edges).toEqual([]);
      const unknown = await wsOnce(client, SearchFactsDocument, { filter: { bankId: 'support', requireBank: true } });
      expect([codeOf(unknown), fieldOf(unknown)]).toEqual(['NOT_FOUND', 'filter.bankId']);
      const detail = await wsOnce(client, FactDetailDocument, { id: signalledId });
      expect(detail.data!.fact).toBeNull();
      const c = await wsOnce(client, ExplainMemoryContextDocument, {
        input: { agentId: 'console-agent', query: 'invoice', tokenBudget: 300 },
        leftOut: 20,
      });
      expect(c.data!.memoryContext).toMatchObject({ entries: [], leftOut: [] });
      // and the owner sees them over WebSocket too
      const own = wsClient(s.wsUrl, org.token);
      const mine = await wsOnce(own, ExplainMemoryContextDocument, {
        input: { agentId: 'console-agent', query: 'invoice', tokenBudget: 300 },
        leftOut: 20,
      });
      expect(mine.data!.memoryContext.leftOut).toHaveLength(20);
      await own.dispose();
    } finally {
      await client.dispose();
    }
  });
});
