import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeysDocument, CreateApiKeyDocument, RevokeApiKeyDocument, ViewerDocument } from './generated/graphql';
import { codeOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';
import type { Role } from '../src/modules/orgs/role';

let s: TestServer;
let orgA: { orgId: string; token: string };
let orgB: { orgId: string; token: string };

beforeAll(async () => {
  s = await startTestServer({ env: { KEY_RECHECK_MS: '200' } });
  orgA = await s.createOrg('Org A');
  orgB = await s.createOrg('Org B');
});
afterAll(() => s?.close());

describe('HTTP authentication', () => {
  it('refuses a request with no token with UNAUTHENTICATED and status 401', async () => {
    const r = await gql(s.url, ViewerDocument, {}, null);
    expect(r.status).toBe(401);
    expect(codeOf(r)).toBe('UNAUTHENTICATED');
    expect(r.errors?.[0].extensions?.requestId).toEqual(expect.any(String));
    expect(r.data ?? null).toBeNull();
  });

  it('refuses an unknown token and a malformed header', async () => {
    expect(codeOf(await gql(s.url, ViewerDocument, {}, 'ml_not-a-real-token'))).toBe('UNAUTHENTICATED');
    expect(codeOf(await gql(s.url, ViewerDocument, {}, null, { authorization: `Basic ${orgA.token}` }))).toBe('UNAUTHENTICATED');
  });

  it('answers viewer with the key, role and organization of the token', async () => {
    const { viewer } = await gqlOk(s.url, ViewerDocument, {}, orgA.token);
    expect(viewer).toMatchObject({ orgId: orgA.orgId, orgName: 'Org A', role: 'ADMIN', apiKeyName: 'admin' });
    const other = await gqlOk(s.url, ViewerDocument, {}, orgB.token);
    expect(other.viewer.orgId).toBe(orgB.orgId);
  });

  it('stores only the hash of a token and shows the token once', async () => {
    const { createApiKey } = await gqlOk(s.url, CreateApiKeyDocument, { name: 'agent one', role: 'AGENT' }, orgA.token);
    expect(createApiKey.token).toMatch(/^ml_[A-Za-z0-9_-]{43}$/);
    const rows = await s.app.db.orm.em.fork().execute('SELECT * FROM api_keys WHERE id = ?', [createApiKey.apiKey.id]);
    expect(JSON.stringify(rows)).not.toContain(createApiKey.token);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    const { viewer } = await gqlOk(s.url, ViewerDocument, {}, createApiKey.token);
    expect(viewer).toMatchObject({ role: 'AGENT', apiKeyName: 'agent one', orgId: orgA.orgId });
  });

  it('stops accepting a revoked token at once', async () => {
    const key = await s.createKey(orgA.orgId, 'AGENT');
    await gqlOk(s.url, ViewerDocument, {}, key.token);
    const { revokeApiKey } = await gqlOk(s.url, RevokeApiKeyDocument, { id: key.id }, orgA.token);
    expect(revokeApiKey.revokedAt).not.toBeNull();
    expect(codeOf(await gql(s.url, ViewerDocument, {}, key.token))).toBe('UNAUTHENTICATED');
  });
});

describe('roles', () => {
  const roles: Role[] = ['INTEGRATOR', 'OPERATOR', 'AGENT', 'VIEWER'];
  it.each(roles)('refuses createApiKey, revokeApiKey and apiKeys to %s with FORBIDDEN and writes nothing', async (role) => {
    const key = await s.createKey(orgA.orgId, role);
    const count = async () => (await s.app.db.orm.em.fork().execute('SELECT count(*)::int AS n FROM api_keys'))[0].n;
    const before = await count();
    const created = await gql(s.url, CreateApiKeyDocument, { name: 'sneaky', role: 'ADMIN' }, key.token);
    expect(codeOf(created)).toBe('FORBIDDEN');
    expect(await count()).toBe(before);
    const revoked = await gql(s.url, RevokeApiKeyDocument, { id: key.id }, key.token);
    expect(codeOf(revoked)).toBe('FORBIDDEN');
    expect(codeOf(await gql(s.url, ApiKeysDocument, {}, key.token))).toBe('FORBIDDEN');
    // still valid: the refused revoke changed nothing
    expect((await gqlOk(s.url, ViewerDocument, {}, key.token)).viewer.role).toBe(role);
  });

  it('lets every role read viewer', async () => {
    for (const role of ['ADMIN', ...roles] as Role[]) {
      const key = await s.createKey(orgA.orgId, role);
      expect((await gqlOk(s.url, ViewerDocument, {}, key.token)).viewer.role).toBe(role);
    }
  });
});

describe('organization isolation of API keys', () => {
  it('treats a key of another organization as not found and leaves it valid', async () => {
    const keyB = await s.createKey(orgB.orgId, 'AGENT');
    const r = await gql(s.url, RevokeApiKeyDocument, { id: keyB.id }, orgA.token);
    expect(codeOf(r)).toBe('NOT_FOUND');
    expect((await gqlOk(s.url, ViewerDocument, {}, keyB.token)).viewer.orgId).toBe(orgB.orgId);
    const { apiKeys } = await gqlOk(s.url, ApiKeysDocument, {}, orgA.token);
    expect(apiKeys.map((k) => k.id)).not.toContain(keyB.id);
  });

  it('reports a malformed id as bad input naming the field', async () => {
    const r = await gql(s.url, RevokeApiKeyDocument, { id: 'nope' }, orgA.token);
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(r.errors?.[0].extensions?.field).toBe('id');
  });
});

describe('WebSocket authentication', () => {
  it('answers viewer over a socket opened with a valid token', async () => {
    const c = wsClient(s.wsUrl, orgB.token);
    const r = await wsOnce(c, ViewerDocument);
    expect(r.data?.viewer.orgId).toBe(orgB.orgId);
    await c.dispose();
  });

  it('closes with 4403 for a missing or unknown token', async () => {
    const none = wsClient(s.wsUrl, null);
    expect((await none.closed).code).toBe(4403);
    const bad = wsClient(s.wsUrl, 'ml_unknown');
    expect((await bad.closed).code).toBe(4403);
  });

  it('closes with 4408 when connection_init never comes', async () => {
    const { default: WebSocket } = await import('ws');
    const raw = new WebSocket(s.wsUrl, 'graphql-transport-ws');
    const code = await new Promise<number>((resolve) => raw.on('close', (c) => resolve(c)));
    expect(code).toBe(4408);
  });

  it('closes a socket whose key is revoked, and refuses the key afterwards', async () => {
    const key = await s.createKey(orgA.orgId, 'VIEWER');
    const c = wsClient(s.wsUrl, key.token);
    expect((await wsOnce(c, ViewerDocument)).data?.viewer.apiKeyId).toBe(key.id);
    await gqlOk(s.url, RevokeApiKeyDocument, { id: key.id }, orgA.token);
    expect((await c.closed).code).toBe(4403);
    expect((await wsClient(s.wsUrl, key.token).closed).code).toBe(4403);
  });

  it("closes a socket whose key is revoked behind the server's back (periodic re-check)", async () => {
    const key = await s.createKey(orgA.orgId, 'VIEWER');
    const c = wsClient(s.wsUrl, key.token);
    await wsOnce(c, ViewerDocument);
    await s.app.db.orm.em.fork().execute('UPDATE api_keys SET revoked_at = now() WHERE id = ?', [key.id]);
    expect((await c.closed).code).toBe(4403);
  });

  it('refuses an ADMIN-only mutation to a non-admin socket', async () => {
    const key = await s.createKey(orgA.orgId, 'AGENT');
    const c = wsClient(s.wsUrl, key.token);
    const r = await wsOnce(c, CreateApiKeyDocument, { name: 'x', role: 'ADMIN' });
    expect(r.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    await c.dispose();
  });
});
