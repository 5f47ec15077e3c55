import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeleteEpisodesDocument,
  EpisodeTracesDocument,
  EraseSubjectDocument,
  FactByIdDocument,
  FactSignalsDocument,
  JudgeEpisodeDocument,
  PurgeExpiredFeedbackDocument,
  RecordEpisodeDocument,
  SubmitSignalsDocument,
  SubmitFeedbackDocument,
  TracedMemoryContextDocument,
  TracedRecallDocument,
  TracedRecallEpisodesDocument,
  UpsertFactsDocument,
  UseFactsDocument,
} from './generated/graphql';
import { codeOf, fieldOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';
import { setCreditSettings } from '../src/modules/traces';
import { creditEpisode } from '../src/modules/traces';

let s: TestServer;
let em: () => EntityManager;
let a: { orgId: string; token: string };
let b: { orgId: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  em = () => s.app.db.orm.em.fork();
  a = await s.createOrg('a');
  b = await s.createOrg('b');
});
afterAll(() => s?.close());

let n = 0;
/** A bank of facts about one question: the first `right` ones answer it. */
async function bank(token: string, texts: string[]): Promise<{ bankId: string; ids: string[] }> {
  const bankId = `bank-${++n}`;
  const r = await gqlOk(s.url, UpsertFactsDocument, { inputs: texts.map((text) => ({ bankId, text })) }, token);
  return { bankId, ids: r.upsertFacts.map((f) => f.id) };
}
async function episode(token: string, agentId = 'agent', task = 'which tea is green'): Promise<string> {
  const r = await gqlOk(
    s.url,
    RecordEpisodeDocument,
    { input: { agentId, task, segments: [{ role: 'user', content: 'which tea is green tea' }] } },
    token,
  );
  return r.recordEpisode.id;
}
const traces = async (id: string, token = a.token) => (await gqlOk(s.url, EpisodeTracesDocument, { id }, token)).episode!.memoryTrace;
const signalsOf = async (id: string, token = a.token) => (await gqlOk(s.url, FactSignalsDocument, { id, first: 50 }, token)).fact!;
const count = async (table: string) => Number((await em().execute(`SELECT count(*) AS n FROM ${table}`))[0].n);
const TEA = ['green tea is sencha', 'green tea is black tea', 'green tea is oolong tea'];

describe('memory traces', () => {
  it('records what recall, recallEpisodes and memoryContext served, oldest first, with one more statement', async () => {
    const { bankId, ids } = await bank(a.token, TEA);
    const ep = await episode(a.token);
    const input = { bankId, query: 'which tea is green', limit: 3 };
    // the first recall of a bank also counts its statistics: measure warm reads
    await gqlOk(s.url, TracedRecallDocument, { input }, a.token);
    s.sql.reset();
    const plain = await gqlOk(s.url, TracedRecallDocument, { input }, a.token);
    const without = s.sql.besidesAuth;
    s.sql.reset();
    const traced = await gqlOk(s.url, TracedRecallDocument, { input, trace: { episodeId: ep, seq: 2 } }, a.token);
    expect(s.sql.besidesAuth).toBe(without + 1);
    expect(traced.recall).toEqual(plain.recall);
    await gqlOk(s.url, TracedRecallEpisodesDocument, { agentId: 'agent', query: 'green tea', trace: { episodeId: ep } }, a.token);
    const ctx = await gqlOk(
      s.url,
      TracedMemoryContextDocument,
      { input: { agentId: 'agent', query: 'green tea', tokenBudget: 100 }, trace: { episodeId: ep, seq: 3 } },
      a.token,
    );
    const [r, e, m] = await traces(ep);
    expect([r.operation, e.operation, m.operation]).toEqual(['RECALL', 'RECALL_EPISODES', 'MEMORY_CONTEXT']);
    expect(r).toMatchObject({ seq: 2, query: 'which tea is green', strategy: 'LEXICAL', budget: 3 });
    expect(r.items.map((i) => i.factId)).toEqual(traced.recall.map((x) => x.fact.id));
    expect(r.items.map((i) => i.rank)).toEqual([1, 2, 3]);
    expect(r.items[0]).toMatchObject({
      finalScore: traced.recall[0].finalScore,
      usefulnessScore: traced.recall[0].usefulnessScore,
      usefulnessSource: traced.recall[0].usefulnessSource,
      used: false,
    });
    expect(new Set(ids)).toEqual(new Set(r.items.map((i) => i.factId)));
    expect(e.items[0]).toMatchObject({ rank: 1, episodeId: ep, factId: null });
    expect(m).toMatchObject({ mode: 'FOVEATED', budget: 100, seq: 3 });
    expect(m.items.map((i) => i.segmentId)).toEqual(ctx.memoryContext.entries.map((x) => x.id));
    expect(m.items[0].zone).toBe('EARLY');
  });

  it("refuses another organization's episode or an unknown one with NOT_FOUND over HTTP and WebSocket, serving nothing", async () => {
    const { bankId } = await bank(a.token, TEA);
    const theirs = await episode(b.token);
    const before = await count('memory_traces');
    const input = { bankId, query: 'green tea' };
    for (const episodeId of [theirs, '00000000-0000-4000-8000-000000000000']) {
      const r = await gql(s.url, TracedRecallDocument, { input, trace: { episodeId } }, a.token);
      expect(codeOf(r)).toBe('NOT_FOUND');
      expect(fieldOf(r)).toBe('trace.episodeId');
      expect(r.data?.recall ?? null).toBeNull();
      const e = await gql(s.url, TracedRecallEpisodesDocument, { agentId: 'agent', query: 'tea', trace: { episodeId } }, a.token);
      expect(codeOf(e)).toBe('NOT_FOUND');
      const m = await gql(
        s.url,
        TracedMemoryContextDocument,
        { input: { agentId: 'agent', tokenBudget: 10 }, trace: { episodeId } },
        a.token,
      );
      expect(codeOf(m)).toBe('NOT_FOUND');
    }
    const ws = wsClient(s.wsUrl, a.token);
    try {
      const r = await wsOnce(ws, TracedRecallDocument, { input, trace: { episodeId: theirs } });
      expect(r.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect(r.data?.recall ?? null).toBeNull();
      const bad = await wsOnce(ws, TracedRecallDocument, { input, trace: { episodeId: theirs, seq: -1 } });
      expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      const mine = await episode(a.token);
      const ok = await wsOnce(ws, TracedRecallDocument, { input, trace: { episodeId: mine } });
      expect(ok.errors).toBeUndefined();
      expect((await traces(mine)).length).toBe(1);
      // the other organization does not see the episode, nor its traces, through its own key
      expect((await gql(s.url, EpisodeTracesDocument, { id: mine }, b.token)).data?.episode).toBeNull();
    } finally {
      await ws.dispose();
    }
    expect(await count('memory_traces')).toBe(before + 1);
  });

  it('go with their episode', async () => {
    const { bankId } = await bank(a.token, TEA);
    const ep = await episode(a.token);
    await gqlOk(s.url, TracedRecallDocument, { input: { bankId, query: 'tea' }, trace: { episodeId: ep } }, a.token);
    await em().execute('DELETE FROM episodes WHERE id = ?', [ep]);
    expect(Number((await em().execute('SELECT count(*) AS n FROM memory_traces WHERE episode_id = ?', [ep]))[0].n)).toBe(0);
  });
});

/** Recalls the bank into a new episode with a trace; returns the episode and the served fact ids. */
async function servedEpisode(token: string, bankId: string, query = 'which tea is green'): Promise<{ ep: string; served: string[] }> {
  const ep = await episode(token);
  const r = await gqlOk(s.url, TracedRecallDocument, { input: { bankId, query, limit: 10 }, trace: { episodeId: ep } }, token);
  return { ep, served: r.recall.map((x) => x.fact.id) };
}
const usefulness = async (id: string) => (await gqlOk(s.url, FactByIdDocument, { id }, a.token)).fact!.usefulness;

describe('credit', () => {
  it('a used fact judged bad ends lower, one judged good higher, one served alongside moves less than the bad choice', async () => {
    const { bankId, ids } = await bank(a.token, TEA);
    const { ep, served } = await servedEpisode(a.token, bankId);
    const [bad, other] = [served[0], served[1]];
    await gqlOk(s.url, UseFactsDocument, { episodeId: ep, factIds: [bad] }, a.token);
    const used = await signalsOf(bad);
    expect(used.signals).toEqual([
      expect.objectContaining({ signalType: 'USED', source: 'USAGE', episodeId: ep, feedbackId: null, query: 'which tea is green' }),
    ]);
    expect((await traces(ep))[0].items.find((i) => i.factId === bad)!.used).toBe(true);
    const fb = await gqlOk(s.url, SubmitFeedbackDocument, { input: { episodeId: ep, feedbackType: 'THUMBS_DOWN' } }, a.token);
    const after = await signalsOf(bad);
    expect(after.signals[0]).toMatchObject({ signalType: 'NOT_HELPFUL', source: 'FEEDBACK', feedbackId: fb.submitFeedback.feedback.id });
    expect(after.signals[0].traceId).toBe(used.signals[0].traceId);
    expect(after.usefulness).toBeLessThan(0.5);
    const ignored = await signalsOf(other);
    expect(ignored.signals).toEqual([expect.objectContaining({ signalType: 'IGNORED', episodeId: ep })]);
    expect(0.5 - ignored.usefulness).toBeLessThan(0.5 - after.usefulness);
    expect(0.5 - ignored.usefulness).toBeGreaterThan(0);

    // good: a new episode uses the third fact and is accepted by a judge
    const good = ids.find((id) => id !== bad && id !== other)!;
    const second = await servedEpisode(a.token, bankId);
    await gqlOk(s.url, UseFactsDocument, { episodeId: second.ep, factIds: [good] }, a.token);
    await gqlOk(s.url, JudgeEpisodeDocument, { input: { episodeId: second.ep, accepted: true } }, a.token);
    const g = await signalsOf(good);
    // served without being used in the first episode, then used in the second and accepted
    expect(g.signals.map((x) => [x.signalType, x.source])).toEqual([
      ['HELPFUL', 'VERDICT'],
      ['USED', 'USAGE'],
      ['IGNORED', 'FEEDBACK'],
    ]);
    expect(g.usefulness).toBeGreaterThan(0.5);
    // the next boosted recall of the question reads what was learned from the question's query context
    const next = await gqlOk(
      s.url,
      TracedRecallDocument,
      { input: { bankId, query: 'which tea is green', boostByUsefulness: true } },
      a.token,
    );
    const byId = new Map(next.recall.map((x) => [x.fact.id, x]));
    expect(byId.get(good)!.usefulnessSource).toBe('QUERY_CONTEXT');
    expect(byId.get(good)!.usefulnessScore).toBeGreaterThan(byId.get(other)!.usefulnessScore);
    expect(byId.get(other)!.usefulnessScore).toBeGreaterThan(byId.get(bad)!.usefulnessScore);
  });

  it('credits once: concurrent usage reports, replayed feedback and a repeated event', async () => {
    const { bankId } = await bank(a.token, TEA);
    const { ep, served } = await servedEpisode(a.token, bankId);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => gql(s.url, UseFactsDocument, { episodeId: ep, factIds: [served[0]] }, a.token)),
    );
    expect(results.every((r) => !r.errors)).toBe(true);
    const input = { episodeId: ep, feedbackType: 'THUMBS_UP' as const, idempotencyKey: `k-${ep}` };
    const [f1, f2] = await Promise.all([
      gqlOk(s.url, SubmitFeedbackDocument, { input }, a.token),
      gqlOk(s.url, SubmitFeedbackDocument, { input }, a.token),
    ]);
    expect(f1.submitFeedback.feedback.id).toBe(f2.submitFeedback.feedback.id);
    const again = await em().transactional((tx) =>
      creditEpisode(tx, a.orgId, null, { kind: 'FEEDBACK', episodeId: ep, feedbackId: f1.submitFeedback.feedback.id, score: 1 }),
    );
    expect(again).toEqual([]);
    const sig = await signalsOf(served[0]);
    expect(sig.signals.map((x) => x.signalType).sort()).toEqual(['HELPFUL', 'USED']);
    expect(sig.signalCount).toBe(2);
    expect((await signalsOf(served[1])).signals.map((x) => x.signalType)).toEqual(['IGNORED']);
  });

  it('purging feedback removes its credit and recomputes usefulness exactly from the remaining signals', async () => {
    const { bankId } = await bank(a.token, TEA);
    const { ep, served } = await servedEpisode(a.token, bankId);
    await gqlOk(s.url, UseFactsDocument, { episodeId: ep, factIds: [served[0]] }, a.token);
    const state = (id: string) =>
      em().execute('SELECT usefulness, signal_count, last_signal_at, last_used_at FROM facts WHERE id = ?', [id]);
    const contexts = (id: string) =>
      em().execute('SELECT id, usefulness, signal_count, last_signal_at FROM fact_query_contexts WHERE fact_id = ? ORDER BY id', [id]);
    const before = [await state(served[0]), await contexts(served[0]), await state(served[1])];
    await gqlOk(s.url, SubmitFeedbackDocument, { input: { episodeId: ep, feedbackType: 'RATING', rating: 1 } }, a.token);
    expect(await usefulness(served[0])).toBeLessThan(0.5);
    await em().execute(`UPDATE feedback SET created_at = now() - interval '400 days' WHERE episode_id = ?`, [ep]);
    const purged = await gqlOk(s.url, PurgeExpiredFeedbackDocument, { retentionDays: 365 }, a.token);
    expect(purged.purgeExpiredFeedback.deleted).toBeGreaterThanOrEqual(1);
    expect([await state(served[0]), await contexts(served[0]), await state(served[1])]).toEqual(before);
    expect((await signalsOf(served[0])).signals.map((x) => x.signalType)).toEqual(['USED']);
    expect((await signalsOf(served[1])).signals).toEqual([]);
  });

  it('erasing an episode or a subject removes every credit it earned, usefulness recomputed from the signals left', async () => {
    const { bankId } = await bank(a.token, TEA);
    const own = await episode(a.token, 'erased-agent');
    const served = (
      await gqlOk(
        s.url,
        TracedRecallDocument,
        { input: { bankId, query: 'which tea is green', limit: 10 }, trace: { episodeId: own } },
        a.token,
      )
    ).recall.map((x) => x.fact.id);
    // a signal a caller sent stays; the credit of the episode goes
    await gqlOk(
      s.url,
      SubmitSignalsDocument,
      { signals: [{ factId: served[0], signalType: 'HELPFUL', query: 'which tea is green' }] },
      a.token,
    );
    const state = (id: string) => em().execute('SELECT usefulness, signal_count, last_signal_at FROM facts WHERE id = ?', [id]);
    const contexts = (id: string) =>
      em().execute('SELECT id, usefulness, signal_count, last_signal_at FROM fact_query_contexts WHERE fact_id = ? ORDER BY id', [id]);
    const before = [await state(served[0]), await contexts(served[0]), await state(served[1]), await contexts(served[1])];
    await gqlOk(s.url, UseFactsDocument, { episodeId: own, factIds: [served[0]] }, a.token);
    await gqlOk(s.url, SubmitFeedbackDocument, { input: { episodeId: own, feedbackType: 'THUMBS_DOWN' } }, a.token);
    expect((await signalsOf(served[0])).signals.map((x) => x.source)).toEqual(['FEEDBACK', 'USAGE', null]);
    const dry = await gqlOk(s.url, EraseSubjectDocument, { selector: { agentId: 'erased-agent' }, dryRun: true }, a.token);
    const kinds = (r: typeof dry.eraseSubject) => Object.fromEntries(r.counts.map((c) => [c.kind, c.count]));
    const done = await gqlOk(s.url, EraseSubjectDocument, { selector: { agentId: 'erased-agent' } }, a.token);
    expect(kinds(done.eraseSubject)).toEqual(kinds(dry.eraseSubject));
    expect(kinds(done.eraseSubject).factSignals).toBe(4); // USED and NOT_HELPFUL of the used fact, IGNORED of the two others
    expect([await state(served[0]), await contexts(served[0]), await state(served[1]), await contexts(served[1])]).toEqual(before);
    expect((await signalsOf(served[0])).signals.map((x) => x.source)).toEqual([null]);
    expect(await count(`fact_signals WHERE episode_id = '${own}'`)).toBe(0);
    expect(await count(`memory_traces WHERE episode_id = '${own}'`)).toBe(0);

    // deleteEpisodes by id does the same
    const second = await servedEpisode(a.token, bankId);
    await gqlOk(s.url, UseFactsDocument, { episodeId: second.ep, factIds: [second.served[0]] }, a.token);
    expect(await count(`fact_signals WHERE episode_id = '${second.ep}'`)).toBeGreaterThan(0);
    await gqlOk(s.url, DeleteEpisodesDocument, { ids: [second.ep] }, a.token);
    expect(await count(`fact_signals WHERE episode_id = '${second.ep}'`)).toBe(0);
    expect([await state(served[0]), await contexts(served[0])]).toEqual(before.slice(0, 2));
  });

  it('is off when the organization turns it off, and bounded by maxFactsPerEvent', async () => {
    const c = await s.createOrg('c');
    await setCreditSettings(em(), c.orgId, { enabled: false });
    const { bankId } = await bank(c.token, TEA);
    const { ep, served } = await servedEpisode(c.token, bankId);
    await gqlOk(s.url, UseFactsDocument, { episodeId: ep, factIds: [served[0]] }, c.token);
    await gqlOk(s.url, SubmitFeedbackDocument, { input: { episodeId: ep, feedbackType: 'THUMBS_DOWN' } }, c.token);
    for (const id of served) expect((await signalsOf(id, c.token)).signals).toEqual([]);
    await setCreditSettings(em(), c.orgId, { enabled: null, maxFactsPerEvent: 2 });
    const second = await servedEpisode(c.token, bankId);
    await gqlOk(s.url, UseFactsDocument, { episodeId: second.ep, factIds: [second.served[0]] }, c.token);
    await gqlOk(s.url, SubmitFeedbackDocument, { input: { episodeId: second.ep, feedbackType: 'THUMBS_DOWN' } }, c.token);
    const credited = await em().execute('SELECT DISTINCT fact_id FROM fact_signals WHERE episode_id = ?', [second.ep]);
    expect(credited.length).toBe(2);
  });

  it("never crosses organizations: another organization's facts or episodes are NOT_FOUND over HTTP and WebSocket", async () => {
    const mine = await bank(a.token, TEA);
    const theirs = await bank(b.token, TEA);
    const { ep } = await servedEpisode(a.token, mine.bankId);
    const r = await gql(s.url, UseFactsDocument, { episodeId: ep, factIds: [theirs.ids[0]] }, a.token);
    expect(codeOf(r)).toBe('NOT_FOUND');
    expect(fieldOf(r)).toBe('factIds.0');
    expect(codeOf(await gql(s.url, UseFactsDocument, { episodeId: ep, factIds: [mine.ids[0]] }, b.token))).toBe('NOT_FOUND');
    const ws = wsClient(s.wsUrl, b.token);
    try {
      const w = await wsOnce(ws, UseFactsDocument, { episodeId: ep, factIds: [theirs.ids[0]] });
      expect(w.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const f = await wsOnce(ws, FactSignalsDocument, { id: mine.ids[0], first: 5 });
      expect(f.data?.fact ?? null).toBeNull();
    } finally {
      await ws.dispose();
    }
    expect(Number((await em().execute('SELECT count(*) AS n FROM episode_facts WHERE episode_id = ?', [ep]))[0].n)).toBe(0);
    for (const id of theirs.ids) expect((await signalsOf(id, b.token)).signals).toEqual([]);
  });
});
