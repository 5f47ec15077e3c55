import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { projectRoot } from '../../src/db/paths';

/** Debian's Chromium (`apt-get install chromium`); playwright-core downloads no browser of its own */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const screenshotDir = join(projectRoot, 'test', 'screenshots');
const docsShots = join(projectRoot, 'docs', 'screenshots');

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  mkdirSync(screenshotDir, { recursive: true });
  mkdirSync(docsShots, { recursive: true });
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A browser context that can reach only this machine: every request to another host is aborted and
 * listed in `blocked`, so a test can assert that nothing outside was needed. Content-Security-Policy
 * violations the pages report are listed in `cspViolations`.
 */
export async function offlineContext(browser: Browser): Promise<{ context: BrowserContext; blocked: string[]; cspViolations: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const blocked: string[] = [];
  const cspViolations: string[] = [];
  await context.route('**/*', (route) => {
    const { hostname } = new URL(route.request().url());
    if (hostname === '127.0.0.1' || hostname === 'localhost') return route.continue();
    blocked.push(route.request().url());
    return route.abort('internetdisconnected');
  });
  context.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  return { context, blocked, cspViolations };
}

export const shoot = (page: Page, name: string) => page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });

/** Signs in on the dashboard's form with `token`. */
export async function signIn(page: Page, origin: string, token: string): Promise<void> {
  await page.goto(`${origin}/`);
  await page.fill('#api-key', token);
  await page.click('button[type=submit]');
}

/** A screenshot of what the viewport shows, kept in docs/screenshots/ for the manual (JPEG, small). */
export const shootDocs = (page: Page, name: string) => page.screenshot({ path: join(docsShots, `${name}.jpg`), type: 'jpeg', quality: 50 });
