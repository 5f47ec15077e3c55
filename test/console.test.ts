/// <reference lib="dom" />
// page.evaluate callbacks run in the browser
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  EpisodeTraceCreditDocument,
  EpisodeTracesDocument,
  ExplainMemoryContextDocument,
  type ExplainMemoryContextQuery,
  FactBanksDocument,
  FactDetailDocument,
  FactSignalsDocument,
  RecallBreakdownDocument,
  RecordEpisodeDocument,
  SearchFactsDocument,
  SubmitFeedbackDocument,
  SubmitSignalsDocument,
  TracedMemoryContextDocument,
  TracedRecallDocument,
  UpsertFactsDocument,
  UseFactsDocument,
} from './generated/graphql';
import { launchChromium, offlineContext, shootDocs, signIn } from './helpers/browser';
import { gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let browser: Browser;
let org: { orgId: string; token: string };
let viewer: string;
let big: { orgId: string; token: string };
let quietId: string;
let signalledId: string;
const started = Date.now();
const origin = () => s.url.replace(/\/graphql$/, '');
const MODES = ['FOVEATED', 'RECENT', 'RELEVANT', 'MIXED'] as const;
const BIG_EPISODES = 10_000;
const BIG_FACTS = 100_000;

/** A conversation of 62 turns: a setup turn, a long relevant one, short fillers and a few relevant ones. */
async function seedConversation(orgId: string) {
  await s.app.db.orm.em.fork().execute(
    `WITH e AS (INSERT INTO episodes (id, org_id, agent_id, session_id, title, created_at, updated_at)
                VALUES (gen_random_uuid(), ?, 'console-agent', 's1', 'Invoice chat', now() - interval '1 hour', now()) RETURNING id, org_id)
     INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at)
     SELECT gen_random_uuid(), e.org_id, e.id, g + 1, CASE WHEN g % 2 = 0 THEN 'user' ELSE 'assistant' END,
            CASE WHEN g = 0 THEN 'I prefer PostgreSQL for every database'
                 WHEN g = 1 THEN 'the invoice database schema in full detail'
                 WHEN g % 10 = 5 THEN 'invoice totals were checked ' || g
                 ELSE 'filler turn ' || g END,
            CASE WHEN g = 1 THEN 400 ELSE 20 END, now() - interval '1 hour' + g * interval '1 second'
       FROM e, generate_series(0, 61) g`,
    [orgId],
  );
}

/** The benchmark's size in one organization, set-based: 10,000 episodes of 10 agents with 3 turns each, 100,000 facts. */
async function seedBenchmarkSize(orgId: string) {
  const em = s.app.db.orm.em.fork();
  await em.execute(
    `WITH e AS (
       INSERT INTO episodes (id, org_id, agent_id, session_id, title, topic, created_at, updated_at)
       SELECT gen_random_uuid(), ?, 'agent-' || (g % 10), 'session-' || (g % 100), 'Episode ' || g, 'topic-' || (g % 5),
              now() - g * interval '1 minute', now()
         FROM generate_series(1, ${BIG_EPISODES}) g
       RETURNING id, org_id, created_at)
     INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at)
     SELECT gen_random_uuid(), e.org_id, e.id, k, CASE WHEN k = 2 THEN 'assistant' ELSE 'user' END,
            (ARRAY['which invoice is late', 'the database migration failed', 'ship the order to Oslo', 'refund the customer'])[1 + (k + extract(minute from e.created_at)::int) % 4] || ' ' || k,
            12 + k, e.created_at + k * interval '1 second'
       FROM e CROSS JOIN generate_series(1, 3) k`,
    [orgId],
  );
  await em.execute(
    `INSERT INTO facts (id, org_id, bank_id, text, kind, status, usefulness, signal_count, last_signal_at, created_at, updated_at)
     SELECT gen_random_uuid(), ?, CASE WHEN g % 10 = 0 THEN 'bank-' || (g % 100 / 10) ELSE 'customers' END,
            'Customer ' || g || ' prefers ' || (ARRAY['express', 'standard', 'pickup', 'freight', 'drone'])[1 + g % 5]
              || ' delivery on ' || (ARRAY['mondays', 'tuesdays', 'weekends', 'holidays'])[1 + g % 4],
            (ARRAY['preference', 'rule', 'contact'])[1 + g % 3], CASE WHEN g % 9 = 0 THEN 'SUGGESTED' ELSE 'CONFIRMED' END,
            (g % 100) / 100.0, g % 4, CASE WHEN g % 4 > 0 THEN now() - (g % 30) * interval '1 day' END,
            now() - g * interval '1 second', now()
       FROM generate_series(1, ${BIG_FACTS}) g`,
    [orgId],
  );
  // as autovacuum leaves a table: statistics and the visibility map that lets index-only scans skip the rows
  await em.execute('VACUUM ANALYZE facts');
  await em.execute('VACUUM ANALYZE episode_segments');
}

beforeAll(async () => {
  s = await startTestServer();
  org = await s.createOrg('console');
  viewer = (await s.createKey(org.orgId, 'VIEWER')).token;
  big = await s.createOrg('benchmark-size');
  const seed = async () => {
    await seedConversation(org.orgId);
    await s.app.db.orm.em.fork().execute(
      `INSERT INTO facts (id, org_id, bank_id, text, kind, status, usefulness, signal_count, last_signal_at, created_at, updated_at)
         SELECT gen_random_uuid(), ?, 'orders', 'Order rule number ' || g, 'rule', 'CONFIRMED', (g % 21) / 20.0, 1,
                now() - (g % 5) * interval '1 day', now() - g * interval '1 minute', now()
           FROM generate_series(1, 60) g`,
      [org.orgId],
    );
    const { upsertFacts } = await gqlOk(
      s.url,
      UpsertFactsDocument,
      {
        inputs: [
          { bankId: 'orders', text: 'Shipping to Norway takes nine days', kind: 'rule' },
          { bankId: 'orders', text: 'Gift wrapping costs three euros', kind: 'price' },
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
    await seedBenchmarkSize(big.orgId);
  };
  [, browser] = await Promise.all([seed(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await s?.close();
  console.log(`console browser tests: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

async function signedIn(token: string, hash: string): Promise<{ page: Page; blocked: string[]; operations: string[] }> {
  const { context, blocked } = await offlineContext(browser);
  const page = await context.newPage();
  const operations: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/graphql')) {
      const name = /^\s*(?:query|mutation)\s+(\w+)/.exec((JSON.parse(r.postData() ?? '{}') as { query?: string }).query ?? '')?.[1];
      operations.push(name ?? '?');
    }
  });
  await signIn(page, origin(), token);
  await page.waitForSelector('[data-testid=role]');
  await page.goto(`${origin()}/#/${hash}`);
  return { page, blocked, operations };
}

const fmt = (v: number | null | undefined, digits: number) => (v == null ? '–' : v.toFixed(digits));

/** The console's rows as [id, zone] and its left-out rows as [id, reason], as drawn. */
const drawn = (page: Page) =>
  page.evaluate(() => ({
    entries: Array.from(document.querySelectorAll('[data-testid=console-entries] tbody tr')).map((tr) => [
      tr.getAttribute('data-id'),
      tr.getAttribute('data-zone'),
    ]),
    leftOut: Array.from(document.querySelectorAll('[data-testid=console-left-out] tbody tr')).map((tr) => [
      tr.getAttribute('data-id'),
      tr.getAttribute('data-reason'),
    ]),
    totals: document.querySelector('[data-testid=console-totals]')?.getAttribute('data-tokens'),
  }));

describe('the Memory Console', () => {
  it('shows what each of the four modes selects, zone by zone as the API answers, and the difference from the run before', async () => {
    const { page, blocked } = await signedIn(org.token, 'console');
    await page.fill('input[name=agentId]', 'console-agent');
    await page.fill('input[name=query]', 'invoice database');
    await page.fill('input[name=budget]', '300');
    let before: ExplainMemoryContextQuery['memoryContext'] | null = null;
    for (const mode of MODES) {
      const api = (
        await gqlOk(
          s.url,
          ExplainMemoryContextDocument,
          { input: { agentId: 'console-agent', query: 'invoice database', tokenBudget: 300, mode }, leftOut: 20 },
          org.token,
        )
      ).memoryContext;
      if (mode === 'FOVEATED') await page.click('[data-testid=console-form] button[type=submit]');
      else await page.click(`[data-testid=console-modes] label[data-mode=${mode}]`);
      await page.waitForFunction((m) => document.querySelector('[data-testid=console-totals]')?.textContent?.startsWith(`${m}:`), mode);
      const shown = await drawn(page);
      expect(shown.entries, mode).toEqual(api.entries.map((e) => [e.id, e.zone]));
      expect(shown.leftOut, mode).toEqual(api.leftOut.map((l) => [l.id, l.reason]));
      expect(shown.totals).toBe(String(api.tokenEstimate));
      if (mode === 'FOVEATED') {
        expect(new Set(api.entries.map((e) => e.zone))).toEqual(new Set(['EARLY', 'RELEVANT', 'RECENT']));
        await shootDocs(page, 'console');
      }
      if (before) {
        const prev = new Set(before.entries.map((e) => e.id));
        const now = new Set(api.entries.map((e) => e.id));
        const added = api.entries.filter((e) => !prev.has(e.id)).length;
        const dropped = before.entries.filter((e) => !now.has(e.id)).length;
        expect(await page.textContent('[data-testid=console-diff]')).toContain(`${added} added, ${dropped} dropped`);
        expect(await page.$$eval('[data-testid=console-entries] tr.added', (r) => r.length)).toBe(added);
      }
      if (mode === 'RECENT') await shootDocs(page, 'console-recent-vs-foveated');
      before = api;
    }
    expect(blocked).toEqual([]);
    await page.context().close();
  });

  it("shows the API's message in place for a bad budget or an oversized query, keeping what was typed and the last answer", async () => {
    const { page } = await signedIn(org.token, 'console');
    await page.fill('input[name=agentId]', 'console-agent');
    await page.fill('input[name=budget]', '300');
    await page.click('[data-testid=console-form] button[type=submit]');
    await page.waitForSelector('[data-testid=console-entries]');
    for (const [budget, query] of [
      ['0', 'invoice'],
      ['1000000000', 'invoice'],
      ['', 'invoice'],
      ['300', 'x'.repeat(10_001)],
    ]) {
      await page.fill('input[name=budget]', budget);
      await page.fill('input[name=query]', query);
      const r = await gql(
        s.url,
        ExplainMemoryContextDocument,
        { input: { agentId: 'console-agent', query, tokenBudget: Number(budget) } },
        org.token,
      );
      expect(r.errors?.[0].extensions?.code, `budget "${budget}", ${query.length} characters`).toBe('BAD_USER_INPUT');
      await page.click('[data-testid=console-form] button[type=submit]');
      await page.waitForFunction((m) => document.querySelector('[data-testid=console-error]')?.textContent === m, r.errors![0].message);
      expect(await page.inputValue('input[name=budget]')).toBe(budget);
      expect(await page.inputValue('input[name=agentId]')).toBe('console-agent');
      expect(await page.$('[data-testid=console-entries]')).not.toBeNull();
    }
    await page.context().close();
  });
});

describe('the facts explorer', () => {
  it('lists banks with their counts, finds a fact without signals, and pages the most useful first', async () => {
    const { page, blocked } = await signedIn(org.token, 'facts');
    await page.waitForSelector('[data-testid=fact-banks] [data-bank]');
    const { factBanks } = await gqlOk(s.url, FactBanksDocument, {}, org.token);
    expect(
      await page.$$eval('[data-testid=fact-banks] [data-bank]', (bs) =>
        bs.map((b) => [b.getAttribute('data-bank'), Number(b.getAttribute('data-count'))]),
      ),
    ).toEqual(factBanks.map((b) => [b.bankId, b.facts]));
    // the fact without signals is listed among the newest and found by its words
    await page.waitForSelector(`[data-testid=fact-results] tr[data-fact-id="${quietId}"]`);
    await page.click('[data-testid=fact-banks] [data-bank=orders]');
    await page.fill('[data-testid=fact-search] input[name=text]', 'norway');
    await page.click('[data-testid=fact-search] button[type=submit]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=fact-results] tbody tr').length === 1);
    expect(await page.getAttribute('[data-testid=fact-results] tbody tr', 'data-fact-id')).toBe(quietId);
    await shootDocs(page, 'facts-explorer');
    // most useful first, page two is the API's page two
    await page.fill('[data-testid=fact-search] input[name=text]', '');
    await page.selectOption('[data-testid=fact-search] select[name=orderBy]', 'MOST_USEFUL');
    await page.click('[data-testid=fact-search] button[type=submit]');
    const one = await gqlOk(s.url, SearchFactsDocument, { filter: { bankId: 'orders' }, first: 25, orderBy: 'MOST_USEFUL' }, org.token);
    const rows = () => page.$$eval('[data-testid=fact-results] tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-fact-id')));
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid=fact-results] tbody tr')?.getAttribute('data-fact-id') === id,
      one.facts.edges[0].node.id,
    );
    expect(await rows()).toEqual(one.facts.edges.map((e) => e.node.id));
    await page.click('[data-testid=facts-next]');
    const two = await gqlOk(
      s.url,
      SearchFactsDocument,
      { filter: { bankId: 'orders' }, first: 25, orderBy: 'MOST_USEFUL', after: one.facts.pageInfo.endCursor },
      org.token,
    );
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid=fact-results] tbody tr')?.getAttribute('data-fact-id') === id,
      two.facts.edges[0].node.id,
    );
    expect(await rows()).toEqual(two.facts.edges.map((e) => e.node.id));
    // a search the API refuses: its message in place, the words kept
    await page.fill('[data-testid=fact-search] input[name=text]', '   ');
    await page.click('[data-testid=fact-search] button[type=submit]');
    const refused = await gql(s.url, SearchFactsDocument, { filter: { bankId: 'orders', text: '   ' } }, org.token);
    await page.waitForSelector('[data-testid=fact-explorer] .error');
    expect(await page.textContent('[data-testid=fact-explorer] .error')).toBe(refused.errors![0].message);
    expect(await page.inputValue('[data-testid=fact-search] input[name=text]')).toBe('   ');
    // a bank with no facts: the API's NOT_FOUND in place, the bank typed kept, the banks still listed
    await page.fill('[data-testid=fact-search] input[name=text]', '');
    await page.fill('[data-testid=fact-search] input[name=bankId]', 'no-such-bank');
    await page.click('[data-testid=fact-search] button[type=submit]');
    const unknown = await gql(s.url, SearchFactsDocument, { filter: { bankId: 'no-such-bank', requireBank: true } }, org.token);
    expect(unknown.errors![0].extensions!.code).toBe('NOT_FOUND');
    await page.waitForFunction(
      (m) => document.querySelector('[data-testid=fact-explorer] .error')?.textContent === m,
      unknown.errors![0].message,
    );
    expect(await page.inputValue('[data-testid=fact-search] input[name=bankId]')).toBe('no-such-bank');
    expect(await page.$$eval('[data-testid=fact-banks] [data-bank]', (bs) => bs.length)).toBe(factBanks.length);
    expect(await page.$('[data-testid=fact-explorer] .empty')).toBeNull();
    expect(blocked).toEqual([]);
    await page.context().close();
  });

  it("shows a fact's page: usefulness after each signal, query contexts and signals", async () => {
    const { page } = await signedIn(org.token, `facts/${signalledId}`);
    await page.waitForSelector('[data-chart=fact-usefulness] canvas');
    const { fact } = await gqlOk(s.url, FactDetailDocument, { id: signalledId }, org.token);
    const series = JSON.parse((await page.getAttribute('[data-chart=fact-usefulness]', 'data-series'))!);
    expect(series.series[0].data).toEqual(fact!.signalHistory.map((x) => x.usefulnessAfter));
    expect(await page.$$eval('[data-testid=fact-signals] tbody tr', (r) => r.length)).toBe(3);
    expect(await page.$$eval('[data-testid=fact-contexts] tbody tr', (r) => r.length)).toBe(fact!.queryContexts.length);
    expect(await page.textContent('[data-testid=fact-detail] [data-field=usefulness]')).toContain(fact!.usefulness.toFixed(3));
    await shootDocs(page, 'fact-detail');
    // a fact without signals says so rather than drawing an empty chart
    await page.goto(`${origin()}/#/facts/${quietId}`);
    await page.waitForSelector('[data-chart=fact-usefulness] .empty');
    await page.context().close();
  });
});

describe('the recall playground', () => {
  it("breaks each result's score down exactly as the API returns it", async () => {
    const { page, blocked } = await signedIn(org.token, 'recall');
    await page.waitForSelector('[data-testid=recall-form] select[name=bankId] option[value=orders]', { state: 'attached' });
    await page.selectOption('[data-testid=recall-form] select[name=bankId]', 'orders');
    await page.fill('[data-testid=recall-form] input[name=query]', 'how much is gift wrapping');
    await page.fill('[data-testid=recall-form] input[name=weight]', '0.4');
    await page.click('[data-testid=recall-form] button[type=submit]');
    await page.waitForSelector('[data-testid=recall-results] tbody tr');
    const input = { bankId: 'orders', query: 'how much is gift wrapping', boostByUsefulness: true, usefulnessWeight: 0.4, limit: 10 };
    const { recall } = await gqlOk(s.url, RecallBreakdownDocument, { input }, org.token);
    expect(recall[0].fact.id).toBe(signalledId);
    expect(recall[0].usefulnessSource).toBe('QUERY_CONTEXT');
    const shown = await page.$$eval('[data-testid=recall-results] tbody tr', (trs) =>
      trs.map((tr) => {
        const cell = (f: string) => tr.querySelector(`[data-field=${f}]`)!.textContent;
        return [
          tr.getAttribute('data-fact-id'),
          cell('semanticScore'),
          cell('lexicalScore'),
          cell('relevance'),
          cell('usefulnessScore'),
          cell('usefulnessSource'),
          cell('finalScore'),
        ];
      }),
    );
    expect(shown).toEqual(
      recall.map((r) => [
        r.fact.id,
        fmt(r.semanticScore, 4),
        fmt(r.lexicalScore, 4),
        fmt(r.relevance, 4),
        fmt(r.usefulnessScore, 4),
        r.usefulnessSource === 'QUERY_CONTEXT' ? 'query context' : 'global',
        fmt(r.finalScore, 4),
      ]),
    );
    await shootDocs(page, 'recall-playground');
    // a weight out of range: the API's message, the results of the last run kept
    await page.fill('[data-testid=recall-form] input[name=weight]', '2');
    await page.click('[data-testid=recall-form] button[type=submit]');
    const refused = await gql(s.url, RecallBreakdownDocument, { input: { ...input, usefulnessWeight: 2 } }, org.token);
    expect(await page.textContent('[data-testid=recall-error]')).toBe(refused.errors![0].message);
    expect(await page.$('[data-testid=recall-results]')).not.toBeNull();
    // an empty or oversized query, a number of results out of range: each the API's message in place, what was typed kept
    await page.fill('[data-testid=recall-form] input[name=weight]', '0.4');
    for (const [query, limit] of [
      ['', '10'],
      ['q'.repeat(10_001), '10'],
      ['gift wrapping', '0'],
      ['gift wrapping', '101'],
    ]) {
      await page.fill('[data-testid=recall-form] input[name=query]', query);
      await page.fill('[data-testid=recall-form] input[name=limit]', limit);
      const r = await gql(s.url, RecallBreakdownDocument, { input: { ...input, query, limit: Number(limit) } }, org.token);
      expect(r.errors?.[0].extensions?.code, `${query.length} characters, ${limit} results`).toBe('BAD_USER_INPUT');
      expect(r.errors![0].extensions!.field).toBeTruthy();
      await page.click('[data-testid=recall-form] button[type=submit]');
      await page.waitForFunction((m) => document.querySelector('[data-testid=recall-error]')?.textContent === m, r.errors![0].message);
      expect(await page.inputValue('[data-testid=recall-form] input[name=query]')).toBe(query);
      expect(await page.inputValue('[data-testid=recall-form] input[name=limit]')).toBe(limit);
      expect(await page.$('[data-testid=recall-results]')).not.toBeNull();
    }
    expect(blocked).toEqual([]);
    await page.context().close();
  });
});

describe('memory traces on the episode timeline', () => {
  it('shows each traced read beside the turn it served, with the scores served, the credit it earned and the feedback after it; a VIEWER too', async () => {
    await gqlOk(
      s.url,
      UpsertFactsDocument,
      {
        inputs: [
          { bankId: 'traced', text: 'Parcels to Bergen travel by ferry', kind: 'rule' },
          { bankId: 'traced', text: 'Parcels to Bergen need a customs form', kind: 'rule' },
          { bankId: 'traced', text: 'Bergen parcels leave on Tuesdays', kind: 'rule' },
        ],
      },
      org.token,
    );
    const { recordEpisode } = await gqlOk(
      s.url,
      RecordEpisodeDocument,
      {
        input: {
          agentId: 'traced-agent',
          title: 'Bergen parcel',
          segments: [
            { role: 'user', content: 'how do parcels reach Bergen' },
            { role: 'assistant', content: 'by ferry, leaving on Tuesdays' },
          ],
        },
      },
      org.token,
    );
    const episodeId = recordEpisode.id;
    const [first, second] = recordEpisode.segments.map((x) => x.seq);
    const { recall } = await gqlOk(
      s.url,
      TracedRecallDocument,
      { input: { bankId: 'traced', query: 'parcels Bergen', limit: 3 }, trace: { episodeId, seq: first } },
      org.token,
    );
    expect(recall.length).toBeGreaterThanOrEqual(2);
    await gqlOk(
      s.url,
      TracedMemoryContextDocument,
      { input: { agentId: 'traced-agent', query: 'Bergen', tokenBudget: 500, mode: 'MIXED' }, trace: { episodeId, seq: second } },
      org.token,
    );
    const usedId = recall[0].fact.id;
    await gqlOk(s.url, UseFactsDocument, { episodeId, factIds: [usedId] }, org.token);
    const fb = await gqlOk(s.url, SubmitFeedbackDocument, { input: { episodeId, feedbackType: 'THUMBS_UP' } }, org.token);
    const feedbackId = fb.submitFeedback.feedback.id;
    const traces = (await gqlOk(s.url, EpisodeTracesDocument, { id: episodeId }, org.token)).episode!.memoryTrace;
    expect(traces.map((t) => [t.operation, t.seq])).toEqual([
      ['RECALL', first],
      ['MEMORY_CONTEXT', second],
    ]);
    expect(traces[0].items.map((i) => i.factId)).toEqual(recall.map((r) => r.fact.id));
    // the credit the API says each served fact earned from the recall's trace: [factId, type, source]
    const credited = (
      await Promise.all(
        recall.map(async (r) => (await gqlOk(s.url, FactSignalsDocument, { id: r.fact.id, first: 50 }, org.token)).fact!.signals),
      )
    )
      .flat()
      .filter((x) => x.traceId === traces[0].id && x.episodeId === episodeId)
      .map((x) => [x.signalType, x.source ?? ''].join(':'));
    expect(credited.sort()).toEqual(['HELPFUL:FEEDBACK', 'USED:USAGE', ...recall.slice(1).map(() => 'IGNORED:FEEDBACK')].sort());
    // the same credit, read with the traces in one request, over HTTP and WebSocket; another organization reads no episode
    const perFact = (
      await Promise.all(
        recall.map(async (r) =>
          (await gqlOk(s.url, FactSignalsDocument, { id: r.fact.id, first: 50 }, org.token)).fact!.signals.map((x) => ({
            ...x,
            factId: r.fact.id,
          })),
        ),
      )
    )
      .flat()
      .filter((x) => x.traceId === traces[0].id && x.episodeId === episodeId)
      .map((x) => [x.id, x.factId, x.signalType, x.source])
      .sort();
    const ws = wsClient(s.wsUrl, org.token);
    const theirs = wsClient(s.wsUrl, big.token);
    try {
      for (const answer of [
        (await gql(s.url, EpisodeTraceCreditDocument, { id: episodeId }, org.token)).data,
        (await wsOnce(ws, EpisodeTraceCreditDocument, { id: episodeId })).data,
      ]) {
        const [recalled, context] = answer!.episode!.memoryTrace;
        expect(recalled.credit.map((x) => [x.id, x.factId, x.signalType, x.source]).sort()).toEqual(perFact);
        expect(recalled.credit.every((x) => x.traceId === traces[0].id && x.episodeId === episodeId)).toBe(true);
        expect(context.credit).toEqual([]);
      }
      expect((await gql(s.url, EpisodeTraceCreditDocument, { id: episodeId }, big.token)).data!.episode).toBeNull();
      expect((await wsOnce(theirs, EpisodeTraceCreditDocument, { id: episodeId })).data!.episode).toBeNull();
    } finally {
      await ws.dispose();
      await theirs.dispose();
    }
    const label = (v: string | null | undefined) => (v ? ` ${v.toLowerCase().replace('_', ' ')}` : '');

    for (const token of [org.token, viewer]) {
      const { page, blocked, operations } = await signedIn(token, `episodes/${episodeId}`);
      await page.waitForSelector('[data-testid=memory-trace] td[data-field=credit] .credit');
      // the traces with their credit come in one request, not one per served fact
      expect(operations.filter((o) => o === 'DashMemoryTrace')).toHaveLength(1);
      expect(operations.filter((o) => o.startsWith('DashFact'))).toEqual([]);
      const shown = await page.$$eval('[data-testid=segments] > li', (lis) =>
        lis.map((li) => ({
          seq: Number(li.getAttribute('data-seq')),
          traces: Array.from(li.querySelectorAll('[data-testid=memory-trace]')).map((t) => ({
            id: t.getAttribute('data-trace-id'),
            items: Array.from(t.querySelectorAll('tbody tr')).map((tr) => {
              const cell = (f: string) => tr.querySelector(`[data-field=${f}]`)!.textContent;
              return [
                tr.getAttribute('data-rank'),
                cell('zone'),
                cell('semanticScore'),
                cell('lexicalScore'),
                cell('relevance'),
                cell('usefulnessScore'),
                cell('finalScore'),
                cell('used'),
              ];
            }),
            credit: Array.from(t.querySelectorAll('td[data-field=credit] .credit')).map(
              (c) => `${c.getAttribute('data-signal')}:${c.getAttribute('data-source')}`,
            ),
            feedback: Array.from(t.querySelectorAll('[data-testid=trace-feedback] li')).map((f) => f.getAttribute('data-feedback-id')),
          })),
        })),
      );
      expect(shown.map((x) => x.seq)).toEqual([first, second]);
      expect(shown.map((x) => x.traces.map((t) => t.id))).toEqual([[traces[0].id], [traces[1].id]]);
      for (const [n, t] of traces.entries()) {
        const card = shown[n].traces[0];
        expect(card.items).toEqual(
          t.items.map((i) => [
            String(i.rank),
            i.zone?.toLowerCase() ?? '–',
            fmt(i.semanticScore, 4),
            fmt(i.lexicalScore, 4),
            fmt(i.relevance, 4),
            fmt(i.usefulnessScore, 4) + label(i.usefulnessSource),
            fmt(i.finalScore, 4),
            i.used ? 'yes' : 'no',
          ]),
        );
        expect(card.feedback).toEqual([feedbackId]);
      }
      expect(shown[0].traces[0].credit.sort()).toEqual(credited);
      expect(shown[1].traces[0].credit).toEqual([]);
      expect(traces[1].items.every((i) => i.segmentId && i.zone)).toBe(true);
      expect(await page.textContent('[data-testid=untied-traces]')).toContain('Every trace is shown beside its turn.');
      expect(await page.$('[data-testid=episode-detail] .error')).toBeNull();
      expect(blocked).toEqual([]);
      if (token === org.token) await shootDocs(page, 'episode-traces');
      await page.context().close();
    }
  });
});

describe('roles', () => {
  it('lets a VIEWER use the console, the explorer and the playground, and asks nothing ADMIN-only for it', async () => {
    const { page, operations } = await signedIn(viewer, 'console');
    await page.fill('input[name=agentId]', 'console-agent');
    await page.click('[data-testid=console-form] button[type=submit]');
    await page.waitForSelector('[data-testid=console-entries]');
    await page.goto(`${origin()}/#/facts`);
    await page.waitForSelector('[data-testid=fact-results] tbody tr');
    await page.goto(`${origin()}/#/facts/${signalledId}`);
    await page.waitForSelector('[data-testid=fact-signals]');
    await page.goto(`${origin()}/#/recall`);
    await page.waitForSelector('[data-testid=recall-form] select[name=bankId] option[value=orders]', { state: 'attached' });
    await page.fill('[data-testid=recall-form] input[name=query]', 'gift wrapping');
    await page.click('[data-testid=recall-form] button[type=submit]');
    await page.waitForSelector('[data-testid=recall-results] tbody tr');
    expect(await page.$('.error')).toBeNull();
    // the views' own operations, all readable by every role; no ADMIN-only query or mutation
    const views = new Set([
      'DashViewer',
      'DashRecentFeedback',
      'DashMemoryContext',
      'DashFactBanks',
      'DashFactSearch',
      'DashFacts',
      'DashFact',
      'DashFactHistory',
      'DashRecall',
    ]);
    expect(operations.filter((o) => !views.has(o))).toEqual([]);
    await page.context().close();
  });
});

/** What must be drawn for a view to count as answered: a selector, and optionally its text's start or an attribute's value it must no longer have. */
interface Drawn {
  selector: string;
  textStartsWith?: string;
  attribute?: string;
  not?: string | null;
}

/**
 * In the page's own clock: from the next click (the input event's time) or from the hash change
 * the page makes itself, to the first animation frame after everything in `drawn` is in the
 * document. Resolves in the page, so the test's round trips to the browser are not counted.
 */
function watchFor(page: Page, drawn: Drawn[]) {
  return page.evaluate((want) => {
    const w = window as unknown as { timing?: Promise<number>; startedAt?: number; requests?: number[] };
    w.startedAt = undefined;
    w.timing = new Promise<number>((resolve) => {
      addEventListener('click', (e) => (w.startedAt ??= e.timeStamp), { capture: true, once: true });
      const ready = () =>
        want.every((d) => {
          const el = document.querySelector(d.selector);
          if (!el) return false;
          if (d.textStartsWith !== undefined && !el.textContent?.startsWith(d.textStartsWith)) return false;
          return d.attribute === undefined || el.getAttribute(d.attribute) !== d.not;
        });
      const observer = new MutationObserver(() => {
        if (w.startedAt === undefined || !ready()) return;
        observer.disconnect();
        requestAnimationFrame(() => {
          const ms = performance.now() - w.startedAt!;
          // the requests of the view: how long each took from sending to its last byte
          w.requests = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
            .filter((r) => r.name.endsWith('/graphql') && r.startTime >= w.startedAt!)
            .map((r) => Math.round(r.responseEnd - r.startTime));
          resolve(ms);
        });
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
  }, drawn);
}

describe('at the benchmark size (10,000 episodes, 100,000 facts)', () => {
  it('answers each view with data drawn; the times are logged', async () => {
    const { page, blocked } = await signedIn(big.token, 'episodes');
    await page.waitForSelector('[data-testid=episodes-table] tbody tr');
    const times: [string, number, number[]][] = [];
    const timed = async (label: string, act: () => Promise<unknown>, drawn: Drawn[]) => {
      await watchFor(page, drawn);
      await act();
      const [ms, requests] = await page.evaluate(async () => {
        const w = window as unknown as { timing: Promise<number>; requests: number[] };
        return [await w.timing, w.requests] as const;
      });
      times.push([label, Math.round(ms), requests]);
    };
    /** a hash change made by the page, its start taken just before it */
    const hash = (h: string) =>
      page.evaluate((x) => {
        (window as unknown as { startedAt?: number }).startedAt = performance.now();
        location.hash = x;
      }, h);
    const rows = '[data-testid=fact-results] tbody tr';
    const topRow = () => page.getAttribute(rows, 'data-fact-id');
    for (let round = 0; round < 2; round++) {
      await hash('#/live');
      await timed(`facts: banks and the first page (round ${round + 1})`, () => hash('#/facts'), [
        { selector: rows },
        { selector: '[data-testid=fact-banks] [data-bank=customers]' },
      ]);
      const first = await topRow();
      await timed('facts: next page', () => page.click('[data-testid=facts-next]'), [
        { selector: rows, attribute: 'data-fact-id', not: first },
      ]);
      await page.fill('[data-testid=fact-search] input[name=text]', 'drone holidays');
      await page.selectOption('[data-testid=fact-search] select[name=orderBy]', 'MOST_USEFUL');
      const before = await topRow();
      await timed('facts: words, most useful first', () => page.click('[data-testid=fact-search] button[type=submit]'), [
        { selector: rows, attribute: 'data-fact-id', not: before },
      ]);
      const id = (await topRow())!;
      await timed('fact page', () => hash(`#/facts/${id}`), [{ selector: '[data-testid=fact-detail] [data-field=usefulness]' }]);
      await hash('#/console');
      await page.waitForSelector('[data-testid=console-form]');
      if (round === 0) {
        await page.fill('input[name=agentId]', 'agent-3');
        await page.fill('input[name=query]', 'database migration');
        await page.fill('input[name=budget]', '2000');
        await timed('console: FOVEATED over 2,000 candidates', () => page.click('[data-testid=console-form] button[type=submit]'), [
          { selector: '[data-testid=console-left-out]' },
          { selector: '[data-testid=console-totals]', textStartsWith: 'FOVEATED:' },
        ]);
      }
      for (const mode of round === 0 ? ['MIXED'] : ['FOVEATED', 'RELEVANT']) {
        await timed(`console: switch to ${mode}`, () => page.click(`[data-testid=console-modes] label[data-mode=${mode}]`), [
          { selector: '[data-testid=console-diff]' },
          { selector: '[data-testid=console-totals]', textStartsWith: `${mode}:` },
        ]);
      }
      await hash('#/recall');
      await page.waitForSelector('[data-testid=recall-form] select[name=bankId] option[value=customers]', { state: 'attached' });
      await page.selectOption('[data-testid=recall-form] select[name=bankId]', 'customers');
      await page.fill('[data-testid=recall-form] input[name=query]', `drone delivery on weekends ${round}`);
      await page.evaluate(() => document.querySelector('[data-testid=recall-results]')?.remove());
      await timed(
        `recall playground, 90,000-fact bank (round ${round + 1})`,
        () => page.click('[data-testid=recall-form] button[type=submit]'),
        [{ selector: '[data-testid=recall-results] tbody tr' }],
      );
    }
    console.log(
      `views at ${BIG_EPISODES} episodes / ${BIG_FACTS} facts (ms, navigation or click to data drawn):\n${times.map(([l, ms, r]) => `  ${l}: ${ms} (requests: ${r.join(', ')} ms)`).join('\n')}`,
    );
    expect(times.length).toBe(14);
    expect(blocked).toEqual([]);
    await page.context().close();
  });
});
