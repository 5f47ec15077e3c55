import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RecordEpisodeDocument, SubmitFeedbackDocument } from './generated/graphql';
import { gqlOk, wsClient, wsSubscribe } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

const MAX = 2 * 1024 * 1024;
const CONTENT = 'x'.repeat(100_000);
const QUERY = 'subscription Big { feedbackAdded { feedback { id } episode { segments { content } } } }';

let s: TestServer;
let org: { orgId: string; token: string };
beforeAll(async () => {
  s = await startTestServer({ env: { WS_MAX_BUFFERED_BYTES: String(MAX), KEY_RECHECK_MS: '60000' } });
  org = await s.createOrg('slow-readers');
});
afterAll(() => s?.close());

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A graphql-ws client written by hand, so that the test can stop it reading its socket. */
async function rawSubscriber(token: string, subscriptions: number) {
  const ws = new WebSocket(s.wsUrl, 'graphql-transport-ws');
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  let nexts = 0;
  const acked = new Promise<void>((resolve) =>
    ws.on('message', (data: Buffer) => {
      const msg = JSON.parse(String(data)) as { type: string };
      if (msg.type === 'connection_ack') resolve();
      if (msg.type === 'next') nexts += 1;
    }),
  );
  await new Promise((resolve) => ws.once('open', resolve));
  ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
  await acked;
  for (let i = 0; i < subscriptions; i++) ws.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query: QUERY } }));
  const socket = (ws as unknown as { _socket: Socket })._socket;
  return { ws, closed, nexts: () => nexts, pause: () => socket.pause(), resume: () => socket.resume() };
}

describe('a subscriber that stops reading', () => {
  it('is closed with 4008 once more than WS_MAX_BUFFERED_BYTES wait for it, and what waited is released; other subscribers get every event', async () => {
    const episode = (
      await gqlOk(s.url, RecordEpisodeDocument, { input: { agentId: 'big', segments: [{ role: 'user', content: CONTENT }] } }, org.token)
    ).recordEpisode;
    const feedbackId = (
      await gqlOk(s.url, SubmitFeedbackDocument, { input: { episodeId: episode.id, feedbackType: 'THUMBS_UP' } }, org.token)
    ).submitFeedback.feedback.id;

    const healthy = wsClient(s.wsUrl, org.token);
    const kept = wsSubscribe(healthy, QUERY);
    const stalled = await rawSubscriber(org.token, 5);
    await settle(300); // subscribed
    stalled.pause();

    const EVENTS = 50;
    let highest = 0;
    for (let i = 0; i < EVENTS; i++) {
      s.app.bus.pubsub.publish('feedbackAdded', {
        orgId: org.orgId,
        feedbackId,
        episodeId: episode.id,
        agentId: 'big',
        feedbackType: 'THUMBS_UP',
      });
      await settle(5);
      highest = Math.max(highest, s.app.server.ws.pendingBytes());
    }
    await kept.waitFor(EVENTS, 10_000);
    expect(kept.events).toHaveLength(EVENTS);
    expect(kept.errors).toEqual([]);
    // what waited for the stalled socket never went past the bound by more than the messages being written
    expect(highest).toBeLessThan(MAX + 3 * (CONTENT.length + 1000));

    stalled.resume();
    const closed = await stalled.closed;
    expect(closed.code).toBe(4008);
    expect(closed.reason).toContain('WS_MAX_BUFFERED_BYTES');
    // the stalled client got some events, not all: the rest was dropped, not kept
    expect(stalled.nexts()).toBeLessThan(5 * EVENTS);
    for (let i = 0; i < 100 && s.app.server.ws.pendingBytes() > 0; i++) await settle(20);
    expect(s.app.server.ws.pendingBytes()).toBe(0);
    await healthy.dispose();
  });
});
