import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Config } from '../config';
import type { Logger } from '../core/logger';
import { bearerToken } from '../graphql/context';
import type { Metrics } from './metrics';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Where `/metrics` is served, for the caller to report and close. */
export interface MetricsEndpoint {
  /** the URL of the separate listener, or null when `/metrics` is on the API port or off */
  url: string | null;
  close(): Promise<void>;
}

/**
 * `/metrics` for Prometheus. It lists every organization's operation names, so it is served:
 * on its own listener (`METRICS_HOST`, default 127.0.0.1, port `METRICS_PORT`) when that is set;
 * else on the API port, behind `Authorization: Bearer <METRICS_TOKEN>` when a token is set,
 * and openly only outside production. A production server with neither does not serve it.
 */
export async function mountMetrics(app: Express, metrics: Metrics, config: Config, log: Logger): Promise<MetricsEndpoint> {
  const expected = config.metricsToken === null ? null : digest(config.metricsToken);
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const token = bearerToken(req.headers.authorization);
    if (expected && (token === null || !timingSafeEqual(digest(token), expected))) {
      res.writeHead(401, { 'www-authenticate': 'Bearer', 'content-type': 'text/plain' }).end('a metrics token is required\n');
      return;
    }
    try {
      const text = await metrics.registry.metrics();
      res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text);
    } catch (err) {
      log.error({ err }, 'metrics collection failed');
      res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n');
    }
  };

  if (config.metricsPort !== null) {
    const server = createServer((req, res) => {
      if (req.method === 'GET' && req.url?.split('?')[0] === '/metrics') void serve(req, res);
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.metricsPort as number, config.metricsHost, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const host = config.metricsHost.includes(':') ? `[${config.metricsHost}]` : config.metricsHost;
    return {
      url: `http://${host}:${port}/metrics`,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  }
  if (expected || !config.production) app.get('/metrics', (req, res) => void serve(req, res));
  else log.warn('/metrics is not served: set METRICS_TOKEN (bearer token on the API port) or METRICS_PORT (separate listener)');
  return { url: null, close: async () => {} };
}
