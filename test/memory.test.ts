import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Memory, selectMemories } from '../src/modules/memory/policies';
import { MemoryContextDocument } from './generated/graphql';
import { codeOf, fieldOf, gql, gqlOk } from './helpers/client';
import { type Entry, foveated, mixedPolicy, recentPolicy, relevantPolicy } from './memory-reference';
import { seededRandom } from './helpers/random';
import { startTestServer, type TestServer } from './helpers/server';

const prng = seededRandom;
const VOCAB = [
  'postgres',
  'database',
  'Index',
  'slow',
  'query',
  'auth',
  'token',
  'login',
  'cache',
  'redis',
  'the',
  'a',
  'is',
  'DATABASE',
  'tuning',
];

describe('memory policies against the Python reference port', () => {
  it('select exactly what the reference selects on 250 random conversations and budgets', () => {
    const rnd = prng(42);
    const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
    for (let c = 0; c < 250; c++) {
      const n = Math.floor(rnd() * 60);
      const mine: Memory[] = [];
      const ref: Entry[] = [];
      for (let i = 0; i < n; i++) {
        const text = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => pick(VOCAB)).join(rnd() < 0.2 ? '  ' : ' ');
        const tokens = 1 + Math.floor(rnd() * 60);
        mine.push({ id: `m${i}`, content: text, tokenEstimate: tokens });
        ref.push({ entry_id: `m${i}`, text, token_estimate: tokens, created_at: i });
      }
      const budget = 1 + Math.floor(rnd() * 600);
      const query = rnd() < 0.15 ? null : Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => pick(VOCAB)).join(' ');
      const ids = (xs: { id?: string; entry_id?: string }[]) => xs.map((x) => x.id ?? x.entry_id);
      expect(ids(selectMemories('FOVEATED', mine, query, budget)), `case ${c}`).toEqual(ids(foveated(ref, query, budget)));
      expect(ids(selectMemories('RECENT', mine, query, budget))).toEqual(ids(recentPolicy(ref, budget)));
      expect(ids(selectMemories('RELEVANT', mine, query, budget))).toEqual(ids(relevantPolicy(ref, query, budget)));
      expect(ids(selectMemories('MIXED', mine, query, budget))).toEqual(ids(mixedPolicy(ref, query, budget)));
      const total = selectMemories('FOVEATED', mine, query, budget).reduce((t, m) => t + m.tokenEstimate, 0);
      expect(total).toBeLessThanOrEqual(budget);
    }
  });
});

describe('memoryContext', () => {
  let s: TestServer;
  let org: { orgId: string; token: string };
  beforeAll(async () => {
    s = await startTestServer();
    org = await s.createOrg('memory');
    // the reference's long-conversation example: an early 20-token preference, then 100 filler turns of 20 tokens
    await s.app.db.orm.em.fork().execute(
      `WITH e AS (INSERT INTO episodes (id, org_id, agent_id, session_id, created_at, updated_at)
                  VALUES (gen_random_uuid(), ?, 'assistant', 'chat-1', now() - interval '1 hour', now()) RETURNING id, org_id)
       INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at)
       SELECT gen_random_uuid(), e.org_id, e.id, g + 1,
              CASE WHEN g = 0 THEN 'user' ELSE 'assistant' END,
              CASE WHEN g = 0 THEN 'I prefer PostgreSQL for every database we build' ELSE 'filler turn number ' || g END,
              20, now() - interval '1 hour' + g * interval '1 second'
         FROM e, generate_series(0, 100) g`,
      [org.orgId],
    );
  });
  afterAll(() => s?.close());

  it('keeps the early setup in FOVEATED context and loses it in RECENT at a 256-token budget', async () => {
    const fov = (
      await gqlOk(
        s.url,
        MemoryContextDocument,
        { input: { agentId: 'assistant', query: 'which database should we use', tokenBudget: 256 } },
        org.token,
      )
    ).memoryContext;
    expect(fov.policy).toBe('FOVEATED');
    expect(fov.entries[0].content).toContain('PostgreSQL');
    expect(fov.tokenEstimate).toBeLessThanOrEqual(256);
    expect(fov.candidatesConsidered).toBe(101);
    expect(fov.memoriesSelected).toBe(fov.entries.length);
    const times = fov.entries.map((e) => e.createdAt);
    expect([...times].sort()).toEqual(times);
    const recent = (
      await gqlOk(s.url, MemoryContextDocument, { input: { agentId: 'assistant', tokenBudget: 256, mode: 'RECENT' } }, org.token)
    ).memoryContext;
    expect(recent.entries.some((e) => e.content.includes('PostgreSQL'))).toBe(false);
    expect(recent.entries).toHaveLength(12);
  });

  it('draws from one session when given, considers at most maxCandidates, and shows nothing to another organization', async () => {
    const none = await gqlOk(
      s.url,
      MemoryContextDocument,
      { input: { agentId: 'assistant', sessionId: 'other', tokenBudget: 100 } },
      org.token,
    );
    expect(none.memoryContext.candidatesConsidered).toBe(0);
    const few = await gqlOk(
      s.url,
      MemoryContextDocument,
      { input: { agentId: 'assistant', tokenBudget: 10_000, maxCandidates: 10 } },
      org.token,
    );
    expect(few.memoryContext.candidatesConsidered).toBe(10);
    expect(few.memoryContext.entries[0].content).toContain('PostgreSQL');
    const other = await s.createOrg('stranger');
    expect(
      (await gqlOk(s.url, MemoryContextDocument, { input: { agentId: 'assistant', tokenBudget: 1000 } }, other.token)).memoryContext
        .entries,
    ).toEqual([]);
  });

  it.each([0, -5, 1_000_001])('refuses a token budget of %i', async (tokenBudget) => {
    const r = await gql(s.url, MemoryContextDocument, { input: { agentId: 'assistant', tokenBudget } }, org.token);
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(fieldOf(r)).toBe('input.tokenBudget');
  });

  it('refuses an unknown policy', async () => {
    const r = await gql(
      s.url,
      MemoryContextDocument,
      { input: { agentId: 'assistant', tokenBudget: 10, mode: 'PSYCHIC' } as never },
      org.token,
    );
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
  });
});
