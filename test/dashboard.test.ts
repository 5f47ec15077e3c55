/// <reference lib="dom" />
// page.evaluate callbacks run in the browser
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  CanvasInsightsDocument,
  EmbeddingStatusDocument,
  EpisodeDetailDocument,
  EpisodeRowsDocument,
  FactUsefulnessDocument,
  LearningAnalyticsDocument,
  StorageUsageDocument,
  SubmitFeedbackDocument,
} from './generated/graphql';
import { launchChromium, offlineContext, shoot, signIn } from './helpers/browser';
import { gqlOk } from './helpers/client';
import { SEEDED_FACTS, seedDashboard } from './helpers/dashboard-seed';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let browser: Browser;
let admin: string;
let viewer: string;
let integrator: string;
let episodeId: string;
const started = Date.now();
const origin = () => s.url.replace(/\/graphql$/, '');

async function adminPage(hash: string): Promise<{ page: Page; blocked: string[]; cspViolations: string[] }> {
  const { context, blocked, cspViolations } = await offlineContext(browser);
  const page = await context.newPage();
  await signIn(page, origin(), admin);
  await page.waitForSelector('[data-testid=role]');
  await page.goto(`${origin()}/#/${hash}`);
  return { page, blocked, cspViolations };
}

beforeAll(async () => {
  s = await startTestServer();
  const org = await s.createOrg('dash');
  admin = org.token;
  viewer = (await s.createKey(org.orgId, 'VIEWER')).token;
  integrator = (await s.createKey(org.orgId, 'INTEGRATOR')).token;
  [{ episodeId }, browser] = await Promise.all([seedDashboard(s, org.orgId, admin), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await s?.close();
  console.log(`dashboard browser tests: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

describe('the dashboard in a browser', () => {
  it('loads under 250 KB of gzipped script, none of it the explorer', async () => {
    const page = await (await fetch(`${origin()}/`)).text();
    const scripts = [...page.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((p) => /explorer|graphql-|graphiql|react/i.test(p))).toEqual([]);
    let bytes = 0;
    for (const path of scripts) {
      const res = await fetch(`${origin()}${path}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(res.headers.get('cache-control')).toMatch(/immutable/);
      bytes += Number(res.headers.get('content-length'));
    }
    console.log(`dashboard first load: ${scripts.length} scripts, ${(bytes / 1024).toFixed(1)} KB gzipped`);
    expect(bytes).toBeLessThan(250 * 1024);
  });

  it('refuses a bad key with a clear message, and serves its page with a strict Content-Security-Policy', async () => {
    const { context } = await offlineContext(browser);
    const page = await context.newPage();
    const res = await page.goto(`${origin()}/`);
    expect(res!.headers()['content-security-policy']).toMatch(/default-src 'none'; script-src 'self'/);
    await page.fill('#api-key', 'ml_not-a-real-key-at-all-0000000000000000');
    await page.click('button[type=submit]');
    const message = await page.textContent('[data-testid=signin-error]', { timeout: 5000 });
    expect(message).toMatch(/^This key was not accepted: .*unknown/i);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await shoot(page, 'signin-refused');
    await context.close();
  });

  it('shows a VIEWER no ADMIN-only views or actions, and an INTEGRATOR learning but no ADMIN action', async () => {
    const { context } = await offlineContext(browser);
    const page = await context.newPage();
    await signIn(page, origin(), viewer);
    expect(await page.textContent('[data-testid=role]')).toBe('VIEWER');
    const tabs = await page.$$eval('nav a', (as) => as.map((a) => a.getAttribute('data-tab')));
    expect(tabs).toEqual(['live', 'episodes', 'facts', 'recall', 'console', 'memory', 'canvas']);
    await page.goto(`${origin()}/#/memory`);
    await page.waitForSelector('[data-testid=memory-summary]');
    expect(await page.$('[data-testid=forget-preview]')).toBeNull();
    await shoot(page, 'memory-viewer');
    await page.goto(`${origin()}/#/learning`);
    expect(await page.textContent('main')).toContain('not available to the role VIEWER');
    // the key is kept for this tab only, never in the address
    expect(page.url()).not.toContain(viewer);
    expect(await page.evaluate(() => sessionStorage.getItem('memory-loop.apiKey'))).toBe(viewer);

    // an INTEGRATOR sees learning analytics, and still no ADMIN action
    await page.click('header button');
    await signIn(page, origin(), integrator);
    expect(await page.textContent('[data-testid=role]')).toBe('INTEGRATOR');
    expect(await page.$$eval('nav a', (as) => as.map((a) => a.getAttribute('data-tab')))).toContain('learning');
    await page.goto(`${origin()}/#/memory`);
    await page.waitForSelector('[data-testid=memory-summary]');
    expect(await page.$('[data-testid=forget-preview]')).toBeNull();
    await context.close();
  });

  it('lists episodes and shows an episode as the API returns them', async () => {
    const { page, blocked, cspViolations } = await adminPage('episodes');
    // time to first data: a reload with the key already in the tab, until the first page is drawn
    await page.reload();
    await page.waitForSelector('[data-testid=episodes-table] tbody tr');
    const firstDataMs = await page.evaluate(() => performance.now());
    console.log(`dashboard time to first data on localhost: ${firstDataMs.toFixed(0)} ms`);
    // the goal is under a second; the bound leaves room for a machine busy with other test files
    expect(firstDataMs).toBeLessThan(2500);
    const rows = () =>
      page.$$eval('[data-testid=episodes-table] tbody tr', (trs) =>
        trs.map((tr) => ({
          id: tr.getAttribute('data-episode-id'),
          feedback: tr.querySelector('[data-field=feedbackCount]')!.textContent,
          decay: tr.querySelector('[data-field=decayScore]')!.textContent,
        })),
      );
    const api = await gqlOk(s.url, EpisodeRowsDocument, { first: 20 }, admin);
    const expected = api.episodes.edges.map(({ node: n }) => ({
      id: n.id,
      feedback: String(n.feedbackCount),
      decay: n.decayScore.toFixed(3),
    }));
    expect(await rows()).toEqual(expected);
    await shoot(page, 'episodes');
    // keyset paging: the second page is the API's second page
    await page.click('[data-testid=next-page]');
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid=episodes-table] tbody tr')?.getAttribute('data-episode-id') !== id,
      expected[0].id,
    );
    const second = await gqlOk(s.url, EpisodeRowsDocument, { first: 20, after: api.episodes.pageInfo.endCursor }, admin);
    expect((await rows()).map((r) => r.id)).toEqual(second.episodes.edges.map((e) => e.node.id));
    // a filter the API supports
    await page.fill('input[name=agentId]', 'agent-api');
    await page.click('[data-testid=episode-filters] button[type=submit]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=episodes-table] tbody tr').length === 1);
    expect((await rows()).map((r) => r.id)).toEqual([episodeId]);

    await page.click(`tr[data-episode-id="${episodeId}"] a`);
    await page.waitForSelector('[data-testid=episode-detail] [data-testid=segments]');
    const { episode } = await gqlOk(s.url, EpisodeDetailDocument, { id: episodeId }, admin);
    const detail = await page.$eval('[data-testid=episode-detail]', (el) => ({
      segments: Array.from(el.querySelectorAll('[data-testid=segments] li')).map((li) => li.getAttribute('data-role')),
      outputs: el.querySelectorAll('[data-testid=outputs] li').length,
      verdicts: el.querySelectorAll('[data-testid=verdicts] li').length,
      feedback: el.querySelectorAll('[data-testid=episode-feedback] tr').length,
      decay: el.querySelector('[data-field=decayScore]')!.textContent,
      overall: el.querySelector('[data-field=overallScore]')!.textContent,
    }));
    expect(detail).toEqual({
      segments: episode!.segments.map((x) => x.role),
      outputs: episode!.outputs.length,
      verdicts: episode!.feedbackContext.filter((f) => f.feedbackType === 'JUDGEMENT').length,
      feedback: episode!.feedbackContext.length,
      decay: episode!.decayScore.toFixed(3),
      overall: episode!.overallScore!.toFixed(2),
    });
    expect(detail.verdicts).toBe(1);
    await shoot(page, 'episode-detail');
    // back to the list as it was left
    await page.click('text=← Episodes');
    await page.waitForSelector('[data-testid=episodes-table] tbody tr');
    expect(await page.inputValue('input[name=agentId]')).toBe('agent-api');
    expect((await rows()).map((r) => r.id)).toEqual([episodeId]);
    expect(blocked).toEqual([]);
    expect(cspViolations).toEqual([]);
    await page.context().close();
  });

  it('draws the learning analytics the API returns', async () => {
    const { page, cspViolations } = await adminPage('learning');
    await page.waitForSelector('[data-chart=events-by-type] canvas');
    const series = (id: string) => page.$eval(`[data-chart=${id}]`, (el) => JSON.parse(el.getAttribute('data-series')!));
    const [start, end] = await page.evaluate(() => {
      const day = 86_400_000;
      const e = Math.ceil(Date.now() / day) * day;
      return [new Date(e - 30 * day).toISOString(), new Date(e).toISOString()];
    });
    const { learningAnalytics: a } = await gqlOk(s.url, LearningAnalyticsDocument, { start, end }, admin);
    expect(a.eventsByType.reduce((n, t) => n + t.count, 0)).toBeGreaterThanOrEqual(300);
    expect(await series('events-by-day')).toEqual({
      labels: a.eventsByDay.map((d) => d.date),
      series: [{ label: 'events', data: a.eventsByDay.map((d) => d.count) }],
    });
    expect(await series('events-by-type')).toEqual({
      labels: a.eventsByType.map((d) => d.eventType),
      series: [{ label: 'events', data: a.eventsByType.map((d) => d.count) }],
    });
    expect(await series('corrected-fields')).toEqual({
      labels: a.correctedFields.map((d) => d.field),
      series: [{ label: 'corrections', data: a.correctedFields.map((d) => d.count) }],
    });
    expect(await series('confidence-trend')).toEqual({
      labels: a.confidenceTrend.map((d) => d.date),
      series: [{ label: 'average confidence', data: a.confidenceTrend.map((d) => d.averageConfidence) }],
    });
    // the charts were drawn: each canvas has pixels that are not blank
    const painted = await page.$$eval('[data-chart] canvas', (cs) =>
      cs.map((c) => {
        const { data } = (c as HTMLCanvasElement)
          .getContext('2d')!
          .getImageData(0, 0, (c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height);
        let n = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
        return n;
      }),
    );
    expect(painted).toHaveLength(4);
    for (const n of painted) expect(n).toBeGreaterThan(500);
    expect(await page.$$eval('[data-testid=layouts] tbody tr', (r) => r.length)).toBe(a.layoutStats.length);
    await shoot(page, 'learning');
    expect(cspViolations).toEqual([]);
    await page.context().close();
  });

  it('shows facts and canvas insights as the API returns them', async () => {
    const { page, cspViolations } = await adminPage('facts');
    await page.click('[data-testid=facts-overview] summary');
    await page.waitForSelector('[data-chart=usefulness] canvas');
    const { facts } = await gqlOk(s.url, FactUsefulnessDocument, { first: 100 }, admin);
    expect(facts.edges).toHaveLength(SEEDED_FACTS);
    const bins = new Array<number>(10).fill(0);
    for (const { node } of facts.edges) bins[Math.min(9, Math.floor(node.usefulness * 10))] += 1;
    const drawn = JSON.parse((await page.getAttribute('[data-chart=usefulness]', 'data-series'))!);
    expect(drawn.series[0].data).toEqual(bins);
    const signalled = facts.edges.map((e) => e.node).filter((f) => f.signalCount > 0);
    const top = Math.max(...signalled.map((f) => f.usefulness));
    expect(await page.$$eval('[data-testid=most-useful] tbody tr', (r) => r.length)).toBe(Math.min(10, signalled.length));
    expect(await page.textContent('[data-testid=most-useful] tbody tr td:nth-child(3)')).toBe(top.toFixed(2));
    await shoot(page, 'facts');

    await page.goto(`${origin()}/#/canvas`);
    await page.waitForSelector('[data-chart=canvas-by-type] canvas');
    const { canvasInsights } = await gqlOk(s.url, CanvasInsightsDocument, { agentId: 'agent-api', timeRange: '30d' }, admin);
    const series = JSON.parse((await page.getAttribute('[data-chart=canvas-by-type]', 'data-series'))!);
    expect(series.labels).toEqual(canvasInsights.byType.map((t) => t.canvasType));
    expect(series.series.map((x: { data: number[] }) => x.data)).toEqual([
      canvasInsights.byType.map((t) => t.presentations),
      canvasInsights.byType.map((t) => t.closes),
      canvasInsights.byType.map((t) => t.submits),
    ]);
    expect(await page.$$eval('[data-testid=canvas-components] tbody tr', (r) => r.length)).toBe(canvasInsights.byComponent.length);
    await shoot(page, 'canvas');

    await page.goto(`${origin()}/#/memory`);
    await page.waitForSelector('[data-testid=forget-preview]');
    await page.click('[data-testid=forget-preview] button[type=submit]');
    expect(await page.textContent('[data-testid=forget-result]')).toMatch(/^Examined \d+; would forget \d+; preserved \d+\.$/);
    // the storage panel shows what storageUsage answers: rows and bytes of each kind and the quotas
    await page.waitForSelector('[data-testid=storage-usage] tr[data-usage=total]');
    const { storageUsage } = await gqlOk(s.url, StorageUsageDocument, {}, admin);
    const shown = await page.$$eval('[data-testid=storage-usage] tr[data-usage]', (rows) =>
      rows.map((r) => [r.getAttribute('data-usage'), r.getAttribute('data-rows'), r.getAttribute('data-bytes')]),
    );
    const u = storageUsage;
    expect(u.total.rows).toBeGreaterThan(0);
    expect(shown).toEqual(
      [
        ['episodes', u.episodes.rows, u.episodes.bytes],
        ['segments', u.segments.rows, u.segments.bytes],
        ['facts', u.facts.rows, u.facts.bytes],
        ['total', u.total.rows, u.total.bytes],
        ['quota', u.quotaRows, u.quotaBytes],
      ].map((r) => r.map(String)),
    );
    expect(await page.textContent('[data-testid=storage-usage] tr[data-usage=quota]')).toMatch(/% of /);
    // the embeddings panel shows what embeddingStatus answers: provider, model, dimension and the vectors still to embed again
    await page.waitForSelector('[data-testid=embedding-status] tr[data-field=pendingVectors]');
    const { embeddingStatus: e } = await gqlOk(s.url, EmbeddingStatusDocument, {}, admin);
    const cells = await page.$$eval('[data-testid=embedding-status] tr[data-field]', (rows) =>
      rows.map((r) => [r.getAttribute('data-field'), r.querySelector('td:last-child')?.textContent]),
    );
    expect(cells).toEqual([
      ['provider', e.provider],
      ['model', e.model ?? '—'],
      ['dimension', e.dimension === null ? '—' : String(e.dimension)],
      ['pendingVectors', e.pendingVectors > 0 ? `re-embedding: ${e.pendingVectors.toLocaleString('en')} vectors to go` : 'up to date'],
    ]);
    expect(await page.getAttribute('[data-testid=embedding-status] tr[data-field=pendingVectors]', 'data-pending')).toBe(
      String(e.pendingVectors),
    );
    await shoot(page, 'memory');
    expect(cspViolations).toEqual([]);
    await page.context().close();
  });

  it('streams new feedback within 2 s, and after a server restart reconnects and shows what it missed', async () => {
    const { page } = await adminPage('live');
    await page.waitForSelector('[data-testid=connection][data-state=live]');
    const t0 = Date.now();
    const { submitFeedback: first } = await gqlOk(
      s.url,
      SubmitFeedbackDocument,
      { input: { episodeId, feedbackType: 'CORRECTION', corrections: 'qty is 3' } },
      admin,
    );
    await page.waitForSelector(`tr[data-feedback-id="${first.feedback.id}"]`, { timeout: 2000 });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(await page.textContent(`tr[data-feedback-id="${first.feedback.id}"]`)).toContain('qty is 3');

    // the server goes away; feedback is given meanwhile (through another instance on the same database)
    const port = s.app.server.port;
    const dbUrl = s.dbUrl;
    await s.close();
    await page.waitForSelector('[data-testid=connection][data-state=reconnecting]', { timeout: 5000 });
    await shoot(page, 'live-reconnecting');
    const other = await startTestServer({ dbUrl });
    const { submitFeedback: missed } = await gqlOk(
      other.url,
      SubmitFeedbackDocument,
      { input: { episodeId, feedbackType: 'THUMBS_DOWN' } },
      admin,
    );
    await other.close();
    s = await startTestServer({ dbUrl, env: { PORT: String(port) } });
    await page.waitForSelector(`tr[data-feedback-id="${missed.feedback.id}"][data-recovered=true]`, { timeout: 15_000 });
    expect(await page.getAttribute('[data-testid=connection]', 'data-state')).toBe('live');
    // newest on top
    expect(
      await page.$$eval('[data-testid=live-table] tbody tr', (r) => r.slice(0, 2).map((tr) => tr.getAttribute('data-feedback-id'))),
    ).toEqual([missed.feedback.id, first.feedback.id]);
    await shoot(page, 'live');
    await page.context().close();
  });
});
