/// <reference lib="dom" />
// page.evaluate callbacks run in the browser
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  EraseSubjectDocument,
  ErasuresDocument,
  FactHistoryDocument,
  type FactInput,
  RecordEpisodeDocument,
  SupersedeFactDocument,
  UpsertFactsDocument,
} from './generated/graphql';
import { launchChromium, offlineContext, shootDocs, signIn } from './helpers/browser';
import { codeOf, gql, gqlOk } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let browser: Browser;
let org: { orgId: string; token: string };
let viewer: string;
let other: { orgId: string; token: string };
const origin = () => s.url.replace(/\/graphql$/, '');

beforeAll(async () => {
  s = await startTestServer();
  org = await s.createOrg('history-page');
  other = await s.createOrg('history-page-other');
  viewer = (await s.createKey(org.orgId, 'VIEWER')).token;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await s?.close();
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

const upsert = async (inputs: FactInput[]) => (await gqlOk(s.url, UpsertFactsDocument, { inputs }, org.token)).upsertFacts;

describe("a fact's history and supersession on its page", () => {
  it('lists each earlier version with what changed, when and by which key, the validity and the fact that supersedes it', async () => {
    const validFrom = '2026-01-01T00:00:00.000Z';
    const [{ id }] = await upsert([{ bankId: 'tariffs', externalId: 'ferry-price', text: 'The ferry costs 40 euros' }]);
    await upsert([{ bankId: 'tariffs', externalId: 'ferry-price', text: 'The ferry costs 45 euros', validFrom }]);
    const [{ id: nextId }] = await upsert([{ bankId: 'tariffs', externalId: 'ferry-price-2027', text: 'The ferry costs 50 euros' }]);
    await gqlOk(s.url, SupersedeFactDocument, { id, supersededBy: nextId }, org.token);
    const { fact } = await gqlOk(s.url, FactHistoryDocument, { id }, org.token);
    expect(fact!.history.length).toBe(2);
    expect(fact!.history.map((v) => v.changed)).toEqual([['supersededById'], expect.arrayContaining(['text', 'validFrom'])]);

    for (const token of [org.token, viewer]) {
      const { page, blocked } = await signedIn(token, `facts/${id}`);
      await page.waitForSelector('[data-testid=fact-versions] tbody tr');
      const rows = await page.$$eval('[data-testid=fact-versions] tbody tr', (trs) =>
        trs.map((tr) => ({
          from: tr.getAttribute('data-from'),
          to: tr.getAttribute('data-to'),
          changed: tr.getAttribute('data-changed'),
          text: tr.querySelector('[data-field=text]')!.textContent,
          writtenBy: tr.querySelector('[data-field=writtenBy]')!.textContent,
          changedBy: tr.querySelector('[data-field=changedBy]')!.textContent,
        })),
      );
      expect(rows).toEqual(
        fact!.history.map((v) => ({
          from: v.from,
          to: v.to,
          changed: v.changed.join(' '),
          text: v.text,
          writtenBy: v.writtenByKeyId ?? 'server',
          changedBy: v.changedByKeyId ?? 'server',
        })),
      );
      const validity = await page.$('[data-testid=fact-history] [data-field=validity]');
      expect(await validity!.getAttribute('data-valid-from')).toBe(fact!.validFrom);
      expect(await validity!.getAttribute('data-valid-to')).toBe('');
      expect(await page.getAttribute('[data-field=supersededBy]', 'data-id')).toBe(nextId);
      await page.waitForSelector('[data-field=supersededBy] a:has-text("The ferry costs 50 euros")');
      if (token === org.token) await shootDocs(page, 'fact-history');
      // the successor's page: current, never changed
      await page.click('[data-field=supersededBy] a');
      await page.waitForSelector(`[data-testid=fact-history] [data-field=supersededBy][data-id=""]`);
      expect(await page.textContent('[data-testid=fact-history] .empty')).toBe('Never changed since it was written.');
      expect(blocked).toEqual([]);
      await page.context().close();
    }
  });
});

describe('the erasure view', () => {
  it('erases a subject only after a dry run that shows the counts per kind the API gives, and lists the audit log (ADMIN)', async () => {
    for (const title of ['first', 'second'])
      await gqlOk(
        s.url,
        RecordEpisodeDocument,
        { input: { agentId: 'leaving-agent', title, segments: [{ role: 'user', content: `hello ${title}` }] } },
        org.token,
      );
    await upsert([
      { bankId: 'leaving-agent', text: 'likes tea' },
      { bankId: 'leaving-agent', text: 'lives in Oslo' },
    ]);
    const expected = (await gqlOk(s.url, EraseSubjectDocument, { selector: { agentId: 'leaving-agent' }, dryRun: true }, org.token))
      .eraseSubject;
    expect(expected.total).toBeGreaterThan(0);
    const perKind = (r: { kind: string; count: number }[]) => r.map((c) => [c.kind, String(c.count)]);

    const { page, blocked } = await signedIn(org.token, 'erasure');
    await page.waitForSelector('[data-testid=erasure-log] tbody tr');
    // nothing can be erased before a dry run of the selector as typed
    await page.fill('[data-testid=erasure-form] input[name=agentId]', 'leaving-agent');
    expect(await page.isDisabled('[data-testid=erasure-erase]')).toBe(true);
    await page.click('[data-testid=erasure-dry-run]');
    await page.waitForSelector('[data-testid=erasure-preview]');
    const shownCounts = (id: string) =>
      page.$$eval(`[data-testid=${id}] tbody tr[data-kind]`, (trs) =>
        trs.map((tr) => [tr.getAttribute('data-kind'), tr.getAttribute('data-count')]),
      );
    expect(await shownCounts('erasure-preview')).toEqual(perKind(expected.counts));
    expect(await page.isDisabled('[data-testid=erasure-erase]')).toBe(false);
    // a changed selector needs its own dry run
    await page.fill('[data-testid=erasure-form] input[name=sessionId]', 's-9');
    expect(await page.isDisabled('[data-testid=erasure-erase]')).toBe(true);
    await page.fill('[data-testid=erasure-form] input[name=sessionId]', '');
    expect(await page.isDisabled('[data-testid=erasure-erase]')).toBe(false);
    const [episodesBefore] = await s.app.db.orm.em
      .fork()
      .execute<{ n: string }[]>(`SELECT count(*) AS n FROM episodes WHERE org_id = ? AND agent_id = 'leaving-agent'`, [org.orgId]);
    expect(Number(episodesBefore.n)).toBe(2);
    await shootDocs(page, 'erasure');
    await page.click('[data-testid=erasure-erase]');
    await page.waitForSelector('[data-testid=erasure-done]');
    expect(await shownCounts('erasure-done')).toEqual(perKind(expected.counts));
    const [left] = await s.app.db.orm.em.fork().execute<{ n: string }[]>(
      `SELECT (SELECT count(*) FROM episodes WHERE org_id = ? AND agent_id = 'leaving-agent')
              + (SELECT count(*) FROM facts WHERE org_id = ? AND bank_id = 'leaving-agent') AS n`,
      [org.orgId, org.orgId],
    );
    expect(Number(left.n)).toBe(0);
    // the audit log as the API lists it: the API's dry run, the page's dry run, the erasure
    const { erasures } = await gqlOk(s.url, ErasuresDocument, { first: 20 }, org.token);
    expect(erasures.edges.map((e) => e.node.dryRun)).toEqual([false, true, true]);
    await page.waitForSelector('[data-testid=erasure-log] tbody tr:nth-child(3)');
    const log = await page.$$eval('[data-testid=erasure-log] tbody tr', (trs) =>
      trs.map((tr) => [tr.getAttribute('data-erasure-id'), tr.getAttribute('data-dry-run'), tr.getAttribute('data-total')]),
    );
    expect(log).toEqual(erasures.edges.map((e) => [e.node.id, String(e.node.dryRun), String(e.node.total)]));
    expect(blocked).toEqual([]);
    await page.context().close();

    // another organization's ADMIN sees none of it
    const theirs = await signedIn(other.token, 'erasure');
    await theirs.page.waitForSelector('[data-testid=erasure] .empty');
    expect(await theirs.page.textContent('[data-testid=erasure] .empty')).toBe('No erasure yet.');
    await theirs.page.context().close();
  });

  it('is neither shown to a VIEWER nor runnable by one', async () => {
    const { page, operations } = await signedIn(viewer, 'erasure');
    await page.waitForSelector('main .error');
    expect(await page.textContent('main .error')).toBe('This view is not available to the role VIEWER.');
    expect(await page.$('nav a[data-tab=erasure]')).toBeNull();
    expect(await page.$('[data-testid=erasure-form]')).toBeNull();
    expect(operations.filter((o) => o.startsWith('DashErase'))).toEqual([]);
    await page.context().close();
    const refused = await gql(s.url, EraseSubjectDocument, { selector: { agentId: 'anyone' }, dryRun: true }, viewer);
    expect(codeOf(refused)).toBe('FORBIDDEN');
    expect(codeOf(await gql(s.url, ErasuresDocument, { first: 5 }, viewer))).toBe('FORBIDDEN');
  });
});
