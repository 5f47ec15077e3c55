import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeysDocument, FeedbackAddedDocument, RecordEpisodeDocument, SubmitFeedbackDocument, ViewerDocument } from './generated/graphql';
import { gql, gqlOk, wsClient, wsOnce, wsSubscribe } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let org: { orgId: string; token: string };
let other: { orgId: string; token: string };
beforeAll(async () => {
  s = await startTestServer({ env: { KEY_RECHECK_MS: '200' } });
  org = await s.createOrg('role-change');
  other = await s.createOrg('role-change-other');
});
afterAll(() => s?.close());

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
const setRole = (keyId: string, role: string) =>
  s.app.db.orm.em.fork().execute(`UPDATE api_keys SET role = '${role}' WHERE id = '${keyId}'`);
const codeOfWs = (r: { errors?: readonly { extensions?: Record<string, unknown> }[] }) => r.errors?.[0]?.extensions?.code;

describe('a role changed in the database reaches open sockets', () => {
  it('runs the next operations with the new role and ends shared subscriptions with ROLE_CHANGED; other keys are untouched', async () => {
    const key = await s.createKey(org.orgId, 'ADMIN', 'demoted');
    const client = wsClient(s.wsUrl, key.token);
    const bystander = wsClient(s.wsUrl, other.token);
    try {
      expect(codeOfWs(await wsOnce(client, ApiKeysDocument))).toBeUndefined();
      const feed = wsSubscribe(client, FeedbackAddedDocument, {});
      const beats = wsSubscribe(client, 'subscription { heartbeat(intervalSeconds: 5) }');
      const otherFeed = wsSubscribe(bystander, FeedbackAddedDocument, {});
      await beats.waitFor(1);
      await settle(300);

      await setRole(key.id, 'VIEWER');
      await feed.waitFor(1, 5000);

      // the shared subscription ended with one error saying why, and nothing else
      expect(feed.events).toHaveLength(1);
      expect(feed.events[0].errors?.[0]).toMatchObject({ extensions: { code: 'ROLE_CHANGED' } });
      expect(feed.events[0].errors?.[0].message).toContain('VIEWER');

      // the socket stays open and runs as the new role, on WebSocket and HTTP alike
      expect((await wsOnce(client, ViewerDocument)).data?.viewer.role).toBe('VIEWER');
      expect(codeOfWs(await wsOnce(client, ApiKeysDocument))).toBe('FORBIDDEN');
      expect(codeOfWs(await gql(s.url, ApiKeysDocument, {}, key.token))).toBe('FORBIDDEN');
      expect(beats.errors).toEqual([]);

      // a subscription opened again receives events, as the new role; the other organization's is untouched
      const again = wsSubscribe(client, FeedbackAddedDocument, {});
      await settle(300);
      const ep = (await gqlOk(s.url, RecordEpisodeDocument, { input: { agentId: 'r' } }, org.token)).recordEpisode;
      await gqlOk(s.url, SubmitFeedbackDocument, { input: { episodeId: ep.id, feedbackType: 'THUMBS_UP' } }, org.token);
      await again.waitFor(1);
      expect(again.events[0].errors).toBeUndefined();
      expect(again.events[0].data?.feedbackAdded.episode?.id).toBe(ep.id);
      expect(otherFeed.events).toEqual([]);
      expect(otherFeed.errors).toEqual([]);
      expect((await wsOnce(bystander, ApiKeysDocument)).errors).toBeUndefined();
    } finally {
      await client.dispose();
      await bystander.dispose();
    }
  });
});
