import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RevokeApiKeyDocument, ViewerDocument } from './generated/graphql';
import { gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let org: { orgId: string; token: string };
let other: { orgId: string; token: string };
beforeAll(async () => {
  s = await startTestServer();
  org = await s.createOrg('ws auth');
  other = await s.createOrg('ws auth other');
});
afterAll(() => s?.close());

describe('WebSocket authentication', () => {
  it.each(['authorization', 'Authorization', 'AUTHORIZATION'])('accepts the token in connectionParams.%s', async (name) => {
    const c = wsClient(s.wsUrl, null, { connectionParams: { [name]: `Bearer ${org.token}` } });
    expect((await wsOnce(c, ViewerDocument)).data?.viewer.orgId).toBe(org.orgId);
    await c.dispose();
  });

  it('says in the close reason what was wrong: missing, malformed, unknown or revoked', async () => {
    const reasonOf = async (params: Record<string, unknown>) => await wsClient(s.wsUrl, null, { connectionParams: params }).closed;
    expect(await reasonOf({})).toEqual({ code: 4403, reason: 'an API key is required: connectionParams.authorization = "Bearer <token>"' });
    expect(await reasonOf({ authorization: org.token })).toEqual({
      code: 4403,
      reason: 'the Authorization value must be "Bearer <token>"',
    });
    expect(await reasonOf({ authorization: 'Bearer ml_nobody-has-this-token' })).toEqual({ code: 4403, reason: 'the API key is unknown' });
    const key = await s.createKey(org.orgId, 'AGENT');
    await gqlOk(s.url, RevokeApiKeyDocument, { id: key.id }, org.token);
    expect(await reasonOf({ Authorization: `Bearer ${key.token}` })).toEqual({ code: 4403, reason: 'the API key is revoked' });
  });

  it('says the same over HTTP, and tells another organization nothing about a key', async () => {
    const key = await s.createKey(org.orgId, 'VIEWER');
    await gqlOk(s.url, RevokeApiKeyDocument, { id: key.id }, org.token);
    const revoked = await gql(s.url, ViewerDocument, {}, key.token);
    expect([revoked.status, revoked.errors?.[0].message]).toEqual([401, 'the API key is revoked']);
    const unknown = await gql(s.url, ViewerDocument, {}, 'ml_nobody-has-this-token');
    expect([unknown.status, unknown.errors?.[0].message]).toEqual([401, 'the API key is unknown']);
    // revoking a key of another organization: the same answer as for an id that does not exist
    const live = await s.createKey(org.orgId, 'VIEWER');
    const foreign = await gql(s.url, RevokeApiKeyDocument, { id: live.id }, other.token);
    const missing = await gql(s.url, RevokeApiKeyDocument, { id: '00000000-0000-4000-8000-000000000000' }, other.token);
    expect(foreign.errors?.[0].message).toBe(missing.errors?.[0].message);
    expect((await gqlOk(s.url, ViewerDocument, {}, live.token)).viewer.apiKeyId).toBe(live.id);
  });
});
