/// <reference lib="dom" />
// page.evaluate callbacks run in the browser
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SubmitFeedbackDocument } from './generated/graphql';
import { launchChromium, offlineContext, shoot } from './helpers/browser';
import { gqlOk } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let browser: Browser;
let token: string;
const origin = () => s.url.replace(/\/graphql$/, '');
const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

beforeAll(async () => {
  [s, browser] = await Promise.all([startTestServer(), launchChromium()]);
  token = (await s.createOrg('explorer')).token;
});

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

/** replaces the operation in GraphiQL's editor and runs it */
async function run(page: Page, operation: string): Promise<void> {
  // page functions must be self-contained: the page's Content-Security-Policy forbids evaluating strings
  await page.evaluate((op) => {
    (
      document.querySelector('.graphiql-query-editor .CodeMirror') as unknown as { CodeMirror: { setValue(v: string): void } }
    ).CodeMirror.setValue(op);
  }, operation);
  // GraphiQL parses the editor's text after a change, and picks HTTP or WebSocket from that parse
  await page.waitForFunction(
    (op) =>
      (
        document.querySelector('.graphiql-query-editor .CodeMirror') as unknown as {
          CodeMirror: { documentAST?: { loc?: { source: { body: string } } } | null };
        }
      ).CodeMirror.documentAST?.loc?.source.body === op,
    operation,
  );
  await page.click('.graphiql-execute-button');
}

const response = (page: Page) =>
  page.evaluate(
    () =>
      (
        document.querySelector('.result-window .CodeMirror') as unknown as { CodeMirror: { getValue(): string } } | null
      )?.CodeMirror.getValue() ?? '',
  );

describe('GET /graphql', () => {
  it('gives a browser the bundled explorer, with no CDN and a Content-Security-Policy', async () => {
    const res = await fetch(s.url, { headers: html });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'.*connect-src 'self'/);
    const body = await res.text();
    expect(body).toMatch(/<script type="module" crossorigin src="\/assets\/explorer-[\w-]+\.js">/);
    expect(body).not.toMatch(/https?:\/\//);
  });

  it('answers every other GET and POST as the GraphQL server did before', async () => {
    const get = await fetch(`${s.url}?query=${encodeURIComponent('{ viewer { role } }')}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'apollo-require-preflight': 'true' },
    });
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual({ data: { viewer: { role: 'ADMIN' } } });
    const bare = await fetch(s.url, { headers: { accept: 'application/json' } });
    expect(bare.status).toBe(400);
    expect(bare.headers.get('content-type')).toMatch(/json/);
    const post = await fetch(s.url, {
      method: 'POST',
      headers: { ...html, 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ viewer { role } }' }),
    });
    expect(await post.json()).toEqual({ data: { viewer: { role: 'ADMIN' } } });
  });

  it('is off in production unless EXPLORER=true', async () => {
    const off = await startTestServer({ dbUrl: s.dbUrl, env: { NODE_ENV: 'production' } });
    const on = await startTestServer({ dbUrl: s.dbUrl, env: { NODE_ENV: 'production', EXPLORER: 'true' } });
    try {
      const offRes = await fetch(off.url, { headers: html });
      expect(offRes.headers.get('content-type')).not.toMatch(/html/);
      expect(await offRes.text()).not.toContain('explorer');
      expect((await fetch(on.url, { headers: html })).headers.get('content-type')).toMatch(/^text\/html/);
    } finally {
      await Promise.all([off.close(), on.close()]);
    }
  });
});

describe('the explorer in a browser, offline', () => {
  it('runs a query and a subscription with the typed key, needing nothing but this server', async () => {
    const { context, blocked, cspViolations } = await offlineContext(browser);
    const page = await context.newPage();
    await page.goto(`${origin()}/graphql`);
    await page.fill('#api-key', token);
    await page.click('.keybar button[type=submit]');
    await page.waitForSelector('.graphiql-query-editor .CodeMirror');
    // the schema arrived with the key: the documentation explorer lists the root types
    await page.click('[aria-label="Show Documentation Explorer"]');
    await page.waitForSelector('.graphiql-doc-explorer >> text=Subscription', { timeout: 10_000 });

    await run(page, '{ viewer { orgName role } }');
    await page.waitForFunction(() =>
      /"orgName": "explorer"/.test(
        (
          document.querySelector('.result-window .CodeMirror') as unknown as { CodeMirror: { getValue(): string } } | null
        )?.CodeMirror.getValue() ?? '',
      ),
    );
    expect(JSON.parse(await response(page))).toEqual({ data: { viewer: { orgName: 'explorer', role: 'ADMIN' } } });
    await shoot(page, 'explorer-query');

    await run(page, 'subscription { feedbackAdded { feedback { id feedbackType } } }');
    // the subscription starts when the server has read its message: feedback is given until one arrives
    const given: string[] = [];
    await expect
      .poll(
        async () => {
          const { submitFeedback } = await gqlOk(
            s.url,
            SubmitFeedbackDocument,
            { input: { agentId: 'a', sessionId: 's', feedbackType: 'THUMBS_UP' } },
            token,
          );
          given.push(submitFeedback.feedback.id);
          await page.waitForTimeout(300);
          const shown = await response(page);
          return given.some((id) => shown.includes(id));
        },
        { timeout: 10_000, interval: 0 },
      )
      .toBe(true);
    expect(await response(page)).toContain('"feedbackType": "THUMBS_UP"');
    await shoot(page, 'explorer-subscription');

    expect(blocked).toEqual([]);
    expect(cspViolations).toEqual([]);
    await context.close();
  });
});
