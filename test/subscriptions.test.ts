import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedbackAddedDocument, RecordEpisodeDocument, SubmitFeedbackDocument } from './generated/graphql';
import { gql, gqlOk, wsClient, wsSubscribe } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let a: { orgId: string; token: string };
let b: { orgId: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createOrg('A');
  b = await s.createOrg('B');
});
afterAll(() => s?.close());

const episode = (agentId: string, token = a.token, url = s.url) =>
  gqlOk(url, RecordEpisodeDocument, { input: { agentId } }, token).then((r) => r.recordEpisode);
const thumbs = (episodeId: string, token = a.token, url = s.url) =>
  gqlOk(url, SubmitFeedbackDocument, { input: { episodeId, feedbackType: 'THUMBS_UP' } }, token);
const settle = () => new Promise((r) => setTimeout(r, 300));

describe('feedbackAdded', () => {
  it('delivers feedback with the updated episode, filtered by agent, episode and type', async () => {
    const c = wsClient(s.wsUrl, a.token);
    const e1 = await episode('agent-1');
    const e2 = await episode('agent-2');
    const all = wsSubscribe(c, FeedbackAddedDocument, {});
    const byAgent = wsSubscribe(c, FeedbackAddedDocument, { agentId: 'agent-2' });
    const byEpisode = wsSubscribe(c, FeedbackAddedDocument, { episodeId: e1.id });
    const byType = wsSubscribe(c, FeedbackAddedDocument, { types: ['RATING'] });
    await settle();
    await thumbs(e1.id);
    await gqlOk(s.url, SubmitFeedbackDocument, { input: { episodeId: e2.id, feedbackType: 'RATING', rating: 1 } }, a.token);
    await all.waitFor(2);
    await settle();
    expect(all.events[0].errors).toBeUndefined();
    expect(all.events.map((e) => e.data?.feedbackAdded.feedback.feedbackType)).toEqual(['THUMBS_UP', 'RATING']);
    expect(all.events[1].data?.feedbackAdded.episode).toMatchObject({ id: e2.id, feedbackCount: 1, aggregateFeedbackScore: -1 });
    expect(byAgent.events.map((e) => e.data?.feedbackAdded.feedback.agentId)).toEqual(['agent-2']);
    expect(byEpisode.events.map((e) => e.data?.feedbackAdded.episode?.id)).toEqual([e1.id]);
    expect(byType.events.map((e) => e.data?.feedbackAdded.feedback.feedbackType)).toEqual(['RATING']);
    // each event is loaded afresh: a second event on the same episode shows the new count
    await thumbs(e1.id);
    await byEpisode.waitFor(2);
    expect(byEpisode.events[1].data?.feedbackAdded.episode?.feedbackCount).toBe(2);
    await c.dispose();
  });

  it('executes each event with fresh loaders: a context list of the episode shows the feedback of that event', async () => {
    const c = wsClient(s.wsUrl, a.token);
    const e = await episode('agent-lists');
    type Event = { feedbackAdded: { feedback: { id: string }; episode: { feedbackContext: { id: string }[] } | null } };
    const sub = wsSubscribe<Event, { episodeId: string }>(
      c,
      `subscription Lists($episodeId: ID) { feedbackAdded(episodeId: $episodeId) { feedback { id } episode { feedbackContext { id } } } }`,
      { episodeId: e.id },
    );
    await settle();
    await thumbs(e.id);
    await sub.waitFor(1);
    await thumbs(e.id);
    await sub.waitFor(2);
    const [first, second] = sub.events.map((x) => x.data!.feedbackAdded);
    expect(first.episode!.feedbackContext.map((f) => f.id)).toEqual([first.feedback.id]);
    // a loader kept from the first event would answer with its one-item list again
    expect(second.episode!.feedbackContext.map((f) => f.id)).toEqual([first.feedback.id, second.feedback.id]);
    await c.dispose();
  });

  it("never delivers another organization's feedback", async () => {
    const cb = wsClient(s.wsUrl, b.token);
    const subB = wsSubscribe(cb, FeedbackAddedDocument, {});
    const ca = wsClient(s.wsUrl, a.token);
    const subA = wsSubscribe(ca, FeedbackAddedDocument, {});
    await settle();
    const ep = await episode('busy');
    await Promise.all(Array.from({ length: 100 }, () => thumbs(ep.id)));
    await subA.waitFor(100);
    await settle();
    expect(subA.events).toHaveLength(100);
    expect(subA.events.every((e) => !e.errors && e.data?.feedbackAdded.episode?.id === ep.id)).toBe(true);
    expect(subB.events).toHaveLength(0);
    // an episode id of org A as a filter shows org B nothing either
    const probe = wsSubscribe(cb, FeedbackAddedDocument, { episodeId: ep.id });
    await settle();
    await thumbs(ep.id);
    await settle();
    expect(probe.events).toHaveLength(0);
    await Promise.all([ca.dispose(), cb.dispose()]);
  });

  it('publishes nothing for a refused write', async () => {
    const c = wsClient(s.wsUrl, a.token);
    const sub = wsSubscribe(c, FeedbackAddedDocument, {});
    await settle();
    const ep = await episode('refused');
    const r = await gql(s.url, SubmitFeedbackDocument, { input: { episodeId: ep.id, feedbackType: 'RATING', rating: 9 } }, a.token);
    expect(r.errors).toBeDefined();
    const viewer = await s.createKey(a.orgId, 'VIEWER');
    await gql(s.url, SubmitFeedbackDocument, { input: { episodeId: ep.id, feedbackType: 'THUMBS_UP' } }, viewer.token);
    await settle();
    expect(sub.events).toHaveLength(0);
    await c.dispose();
  });

  it.skipIf(!process.env.REDIS_URL)('reaches a subscriber on another instance through Redis', async () => {
    const env = { REDIS_URL: process.env.REDIS_URL! };
    const one = await startTestServer({ env });
    const two = await startTestServer({ env, dbUrl: one.dbUrl });
    try {
      const org = await one.createOrg('redis');
      const c = wsClient(two.wsUrl, org.token);
      const sub = wsSubscribe(c, FeedbackAddedDocument, {});
      await settle();
      const ep = await episode('x', org.token, one.url);
      await thumbs(ep.id, org.token, one.url);
      await sub.waitFor(1);
      expect(sub.events[0]?.data?.feedbackAdded.episode?.id).toBe(ep.id);
      // and the latency of 1,000 deliveries across instances, for the record
      const times: number[] = [];
      for (let i = 0; i < 1000; i++) {
        const t0 = performance.now();
        await thumbs(ep.id, org.token, one.url);
        await sub.waitFor(i + 2);
        times.push(performance.now() - t0);
      }
      times.sort((x, y) => x - y);
      console.log(`redis delivery incl. mutation: p50 ${times[500].toFixed(1)} ms, p99 ${times[989].toFixed(1)} ms`);
      await c.dispose();
    } finally {
      await two.close();
      await one.close();
    }
  });
});
