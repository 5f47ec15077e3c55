import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import express, { type Express, type Request, type Response } from 'express';
import { projectRoot } from '../db/paths';

/** where scripts/build-dashboard.mjs writes the dashboard and the explorer */
const dashboardDir = join(projectRoot, 'dashboard', 'dist');

const common =
  "default-src 'none'; script-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/** the dashboard runs only its own files, and talks only to this server (HTTP and WebSocket) */
const DASHBOARD_CSP = `${common}; style-src 'self'; font-src 'self'`;
/** GraphiQL's editor and popovers position themselves with inline styles, and its stylesheet carries its fonts */
const EXPLORER_CSP = `${common}; style-src 'self' 'unsafe-inline'; font-src 'self' data:`;

function secured(res: Response, csp: string): void {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

/** what a browser's navigation asks for; the same negotiation Apollo Server uses for its landing page */
const prefersHtml = (req: Request) =>
  req.accepts(['application/json', 'application/graphql-response+json', 'multipart/mixed', 'text/html']) === 'text/html';

function page(file: string, csp: string) {
  return (_req: Request, res: Response) => {
    const path = join(dashboardDir, file);
    if (!existsSync(path)) {
      res.status(503).type('text/plain').send('The dashboard is not built: run `npm run build`.\n');
      return;
    }
    secured(res, csp);
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(path);
  };
}

/**
 * The dashboard on `/`, its content-hashed files on `/assets/` (cached for good), and, when
 * `explorer` is on, the explorer on GET `/graphql` for requests that prefer HTML. Every other
 * request to `/graphql` goes on to the GraphQL server untouched.
 */
export function mountDashboard(app: Express, opts: { explorer: boolean }): void {
  const assets = join(dashboardDir, 'assets');
  const forever = { maxAge: '365d', immutable: true };
  // the build's gzipped copy to browsers that take it (hashed names only: no path reaches outside)
  app.get(/^\/assets\/[\w.-]+\.(?:js|css)$/, (req, res, next) => {
    const gz = join(assets, `${req.path.slice('/assets/'.length)}.gz`);
    if (!req.acceptsEncodings('gzip') || !existsSync(gz)) return next();
    secured(res, DASHBOARD_CSP);
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Content-Encoding', 'gzip');
    res.type(extname(req.path));
    res.sendFile(gz, forever);
  });
  app.use(
    '/assets',
    express.static(assets, {
      index: false,
      ...forever,
      setHeaders: (res) => secured(res, DASHBOARD_CSP),
    }),
  );
  app.get('/', page('index.html', DASHBOARD_CSP));
  const explorer = page('explorer.html', EXPLORER_CSP);
  app.get('/graphql', (req, res, next) => (opts.explorer && prefersHtml(req) ? explorer(req, res) : next()));
}
