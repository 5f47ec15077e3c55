import { afterAll, describe, expect, it } from 'vitest';
import { OPERATION_LABELS } from '../src/http/metrics';
import { gql, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

const servers: TestServer[] = [];
const start = async (env: Record<string, string> = {}) => {
  const s = await startTestServer({ env });
  servers.push(s);
  return s;
};
afterAll(() => Promise.all(servers.map((s) => s.close())));

const metricsOf = (s: TestServer) => s.url.replace('/graphql', '/metrics');
const get = async (url: string, token?: string) => {
  const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: res.status, text: await res.text() };
};
/** the operation labels of graphql_operations_total */
const operationLabels = (text: string) => new Set([...text.matchAll(/^graphql_operations_total\{operation="([^"]*)"/gm)].map((m) => m[1]));

describe('/metrics', () => {
  it('keeps the operation label set bounded: long names and names past the distinct count become "other"', async () => {
    const s = await start();
    const { token } = await s.createOrg('labels');
    const long = `Long${'x'.repeat(OPERATION_LABELS.maxLength)}`;
    const named = (name: string) => gql(s.url, `query ${name} { viewer { orgId } }`, {}, token);
    for (let i = 0; i < OPERATION_LABELS.maxDistinct + 20; i++) expect((await named(`Op${i}`)).errors).toBeUndefined();
    await named(long);
    const c = wsClient(s.wsUrl, token);
    expect((await wsOnce(c, `query ${long}Ws { viewer { orgId } }`)).errors).toBeUndefined();
    expect((await wsOnce(c, 'query Op0 { viewer { orgId } }')).errors).toBeUndefined();
    await c.dispose();

    const text = (await get(metricsOf(s))).text;
    const labels = operationLabels(text);
    expect(labels.size).toBe(OPERATION_LABELS.maxDistinct + 1);
    expect(labels.has('other')).toBe(true);
    expect(labels.has('Op0') && labels.has(`Op${OPERATION_LABELS.maxDistinct - 1}`)).toBe(true);
    expect(labels.has(`Op${OPERATION_LABELS.maxDistinct}`)).toBe(false);
    expect(text).not.toContain(long);
    // 20 late names and the long one over HTTP, the long one over WebSocket; a known name keeps its label
    expect(text).toMatch(/^graphql_operations_total\{operation="other",transport="http",outcome="ok"\} 21$/m);
    expect(text).toMatch(/^graphql_operations_total\{operation="other",transport="ws",outcome="ok"\} 1$/m);
    expect(text).toMatch(/^graphql_operations_total\{operation="Op0",transport="ws",outcome="ok"\} 1$/m);
  });

  it('requires the bearer token when METRICS_TOKEN is set', async () => {
    const secret = 'metrics-token-0123456789';
    const s = await start({ METRICS_TOKEN: secret });
    expect((await get(metricsOf(s))).status).toBe(401);
    expect((await get(metricsOf(s), 'metrics-token-wrong-value')).status).toBe(401);
    const { token } = await s.createOrg('scraped');
    expect((await get(metricsOf(s), token)).status).toBe(401); // an API key is not the metrics token
    const ok = await get(metricsOf(s), secret);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('graphql_operations_total');
  });

  it('is not served on the API port in production without a token or a port, and says so in the log', async () => {
    const s = await start({ NODE_ENV: 'production' });
    const r = await get(metricsOf(s));
    expect(r.status).toBe(404);
    expect(r.text).not.toContain('graphql_operations_total');
    expect(s.logs.some((l) => l.level === 'warn' && String(l.msg).startsWith('/metrics is not served'))).toBe(true);
  });

  it('is served on its own 127.0.0.1 listener when METRICS_PORT is set, and no longer on the API port', async () => {
    const s = await start({ NODE_ENV: 'production', METRICS_PORT: '0' });
    const url = s.app.server.metricsUrl!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const { token } = await s.createOrg('own-port');
    await gql(s.url, 'query Scraped { viewer { orgId } }', {}, token);
    const r = await get(url);
    expect(r.status).toBe(200);
    expect(r.text).toContain('graphql_operations_total{operation="Scraped",transport="http",outcome="ok"} 1');
    expect((await get(url.replace('/metrics', '/graphql'))).status).toBe(404);
    expect((await get(metricsOf(s))).status).toBe(404);
  });

  it('counts budget refusals by scope and budget', async () => {
    const s = await start({ BUDGET_WINDOW_SECONDS: '30', BUDGET_ADMIN: '1,1000000,100' });
    const { token } = await s.createOrg('refusals');
    const answers = await Promise.all(Array.from({ length: 35 }, () => gql(s.url, '{ viewer { orgId } }', {}, token)));
    expect(answers.filter((a) => a.status === 429)).toHaveLength(5);
    expect((await get(metricsOf(s))).text).toMatch(/^budget_refusals_total\{scope="key",budget="requests"\} 5$/m);
  });
});
