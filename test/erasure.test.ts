import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeleteEpisodesDocument,
  DeleteFactsDocument,
  EraseSubjectDocument,
  ErasuresDocument,
  MemoryContextDocument,
  RecallDocument,
  UpsertFactsDocument,
} from './generated/graphql';
import { codeOf, fieldOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let second: TestServer;
const sql = (q: string, p: unknown[] = []) => s.app.db.orm.em.fork().execute(q, p);

beforeAll(async () => {
  s = await startTestServer();
  second = await startTestServer({ dbUrl: s.dbUrl });
});
afterAll(async () => {
  await second?.close();
  await s?.close();
});

/**
 * `n` episodes of `agent` in session `session` (metadata userId = `user`), each with 2 segments, an
 * output, a link to a fact of the agent's bank, a scored rating and a correction (counted in the
 * daily learning counts) and a canvas action; the facts have a past version, a query context and a
 * signal. Set-based.
 */
async function seed(orgId: string, agent: string, session: string, user: string, n: number): Promise<void> {
  await sql(
    `WITH e AS (INSERT INTO episodes (id, org_id, agent_id, session_id, metadata, created_at, updated_at, feedback_count, feedback_score_sum, feedback_score_count, canvas_action_count)
                SELECT gen_random_uuid(), ?::uuid, ?, ?, jsonb_build_object('userId', ?::text), now(), now(), 2, 0.5, 1, 1 FROM generate_series(1, ?) RETURNING id, org_id),
     f AS (INSERT INTO facts (id, org_id, bank_id, text, created_at, updated_at) SELECT gen_random_uuid(), org_id, ?, 'the fact of ' || id, now(), now() FROM e RETURNING id, org_id, text),
     l AS (INSERT INTO episode_facts (episode_id, fact_id, org_id, created_at) SELECT e.id, f.id, e.org_id, now() FROM e JOIN f ON f.text = 'the fact of ' || e.id),
     g AS (INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at)
           SELECT gen_random_uuid(), org_id, id, k, 'user', 'said by ' || ?::text, 3, now() FROM e, generate_series(1, 2) k),
     o AS (INSERT INTO episode_outputs (id, org_id, episode_id, created_at, updated_at, kind, content) SELECT gen_random_uuid(), org_id, id, now(), now(), 'mcq', '{}' FROM e),
     r AS (INSERT INTO feedback (id, org_id, created_at, episode_id, agent_id, session_id, actor_id, feedback_type, rating, score)
           SELECT gen_random_uuid(), org_id, now(), id, ?, ?, gen_random_uuid(), 'RATING', 3, 0.5 FROM e),
     c AS (INSERT INTO canvas_audits (id, org_id, created_at, agent_id, session_id, episode_id, canvas_type, action) SELECT gen_random_uuid(), org_id, now(), ?, ?, id, 'docs', 'PRESENT' FROM e),
     q AS (INSERT INTO fact_query_contexts (id, org_id, created_at, fact_id, query, normalized_query) SELECT gen_random_uuid(), org_id, now(), id, 'q', 'q' FROM f RETURNING id, org_id, fact_id),
     si AS (INSERT INTO fact_signals (id, org_id, created_at, fact_id, context_id, signal_type, confidence, delta, query) SELECT gen_random_uuid(), org_id, now(), fact_id, id, 'USED', 1, 1, 'q' FROM q)
     INSERT INTO feedback (id, org_id, created_at, episode_id, agent_id, session_id, actor_id, feedback_type)
     SELECT gen_random_uuid(), org_id, now(), id, ?, ?, gen_random_uuid(), 'CORRECTION' FROM e`,
    [orgId, agent, session, user, n, agent, user, agent, session, agent, session, agent, session],
  );
  // learning counts as the writes of feedback keep them; a version of each fact
  await sql(
    `INSERT INTO learning_event_counts AS c (org_id, day, kind, key_hash, key, count)
     SELECT org_id, (created_at AT TIME ZONE 'UTC')::date, k.kind, md5(k.key)::uuid, k.key, count(*)
       FROM feedback f CROSS JOIN LATERAL (SELECT 'type' AS kind, f.feedback_type AS key) k
      WHERE f.org_id = ?::uuid AND f.agent_id = ? AND f.feedback_type = 'CORRECTION' GROUP BY 1, 2, 3, 4, 5
     ON CONFLICT (org_id, day, kind, key_hash) DO UPDATE SET count = c.count + EXCLUDED.count`,
    [orgId, agent],
  );
  await sql(`UPDATE facts SET text = text || ' (edited)' WHERE org_id = ?::uuid AND bank_id = ?`, [orgId, agent]);
}

/** Rows of each table for the organization (and agent where the table has one). */
async function rowsOf(orgId: string) {
  const [r] = await sql(
    `SELECT (SELECT count(*) FROM episodes WHERE org_id = ?::uuid)::int AS episodes,
            (SELECT count(*) FROM episode_segments WHERE org_id = ?::uuid)::int AS segments,
            (SELECT count(*) FROM facts WHERE org_id = ?::uuid)::int AS facts,
            (SELECT count(*) FROM fact_versions WHERE org_id = ?::uuid)::int AS versions,
            (SELECT count(*) FROM feedback WHERE org_id = ?::uuid)::int AS feedback,
            (SELECT count(*) FROM canvas_audits WHERE org_id = ?::uuid)::int AS canvas`,
    Array(6).fill(orgId),
  );
  return r as Record<string, number>;
}

const count = (r: { counts: { kind: string; count: number }[] }) => Object.fromEntries(r.counts.map((c) => [c.kind, c.count]));

describe('eraseSubject', () => {
  it('dry-runs, erases one agent with every part, keeps aggregates exact, and reports zero on a retry', async () => {
    const a = await s.createOrg('erase-a');
    const b = await s.createOrg('erase-b');
    await seed(a.orgId, 'alice', 's1', 'u1', 30);
    await seed(a.orgId, 'bob', 's2', 'u2', 5);
    await seed(b.orgId, 'alice', 's1', 'u1', 5);
    // alice rated one of bob's episodes: erasing alice takes it out of bob's counters
    const [bobEpisode] = await sql(`SELECT id FROM episodes WHERE org_id = ?::uuid AND agent_id = 'bob' LIMIT 1`, [a.orgId]);
    await sql(
      `WITH f AS (INSERT INTO feedback (id, org_id, created_at, episode_id, agent_id, actor_id, feedback_type, rating, score)
                  VALUES (gen_random_uuid(), ?::uuid, now(), ?::uuid, 'alice', gen_random_uuid(), 'RATING', 5, 1.0) RETURNING episode_id)
       UPDATE episodes SET feedback_count = feedback_count + 1, feedback_score_sum = feedback_score_sum + 1.0, feedback_score_count = feedback_score_count + 1
        WHERE id = (SELECT episode_id FROM f)`,
      [a.orgId, bobEpisode.id],
    );
    const before = await rowsOf(a.orgId);
    const otherBefore = await rowsOf(b.orgId);

    const dry = (await gqlOk(s.url, EraseSubjectDocument, { selector: { agentId: 'alice' }, dryRun: true }, a.token)).eraseSubject;
    expect(dry.dryRun).toBe(true);
    const expected = {
      episodes: 30,
      segments: 60,
      outputs: 30,
      factLinks: 30,
      feedback: 61,
      canvasActions: 30,
      facts: 30,
      factVersions: 30,
      factSignals: 30,
      queryContexts: 30,
    };
    expect(count(dry)).toEqual(expected);
    expect(await rowsOf(a.orgId)).toEqual(before);

    const done = (await gqlOk(s.url, EraseSubjectDocument, { selector: { agentId: 'alice' } }, a.token)).eraseSubject;
    expect(count(done)).toEqual(expected);
    expect(done.total).toBe(Object.values(expected).reduce((x, y) => x + y, 0));
    const after = await rowsOf(a.orgId);
    expect(after).toEqual({ episodes: 5, segments: 10, facts: 5, versions: 5, feedback: 10, canvas: 5 });
    // nothing of another organization moved
    expect(await rowsOf(b.orgId)).toEqual(otherBefore);
    // bob's episode lost alice's rating from its counters
    const [bob] = await sql(`SELECT feedback_count, feedback_score_sum, feedback_score_count FROM episodes WHERE id = ?::uuid`, [
      bobEpisode.id,
    ]);
    expect([bob.feedback_count, Number(bob.feedback_score_sum), bob.feedback_score_count]).toEqual([2, 0.5, 1]);
    // the daily learning counts equal a recount of the feedback left
    const [drift] = await sql(
      `SELECT (SELECT coalesce(sum(count), 0) FROM learning_event_counts WHERE org_id = ?::uuid AND kind = 'type')::int AS kept,
              (SELECT count(*) FROM feedback WHERE org_id = ?::uuid AND feedback_type = 'CORRECTION')::int AS real`,
      [a.orgId, a.orgId],
    );
    expect(drift.kept).toBe(drift.real);
    // the organization's usage follows the deletes (kept by triggers)
    const [usage] = await sql(`SELECT sum(episode_rows)::int AS e, sum(fact_rows)::int AS f FROM org_usage WHERE org_id = ?::uuid`, [
      a.orgId,
    ]);
    expect([usage.e, usage.f]).toEqual([5, 5]);

    const retry = (await gqlOk(s.url, EraseSubjectDocument, { selector: { agentId: 'alice' } }, a.token)).eraseSubject;
    expect(retry.total).toBe(0);

    // the audit log: who, when, what selector, counts; newest first; never content
    const log = (await gqlOk(s.url, ErasuresDocument, { first: 10 }, a.token)).erasures.edges.map((e) => e.node);
    expect(log.map((e) => [e.operation, e.dryRun, e.total, e.selector.agentId])).toEqual([
      ['eraseSubject', false, 0, 'alice'],
      ['eraseSubject', false, done.total, 'alice'],
      ['eraseSubject', true, dry.total, 'alice'],
    ]);
    expect(JSON.stringify(log)).not.toContain('said by');
    expect((await gqlOk(s.url, ErasuresDocument, { first: 10 }, b.token)).erasures.edges).toEqual([]);
  });

  it('erases by session and by a metadata key and value, and says so when nothing matches', async () => {
    const o = await s.createOrg('erase-meta');
    await seed(o.orgId, 'carol', 's9', 'u9', 3);
    await seed(o.orgId, 'carol', 's8', 'u8', 2);
    const bySession = (await gqlOk(s.url, EraseSubjectDocument, { selector: { sessionId: 's9' } }, o.token)).eraseSubject;
    expect(count(bySession)).toMatchObject({ episodes: 3, segments: 6, feedback: 6, canvasActions: 3, facts: 0 });
    const byUser = (await gqlOk(s.url, EraseSubjectDocument, { selector: { metadataKey: 'userId', metadataValue: 'u8' } }, o.token))
      .eraseSubject;
    expect(count(byUser)).toMatchObject({ episodes: 2, segments: 4, facts: 0 });
    const none = (await gqlOk(s.url, EraseSubjectDocument, { selector: { metadataKey: 'userId', metadataValue: 'nobody' } }, o.token))
      .eraseSubject;
    expect(none.total).toBe(0);
    // the facts of carol's bank stay: a session or a user does not own a bank
    expect((await rowsOf(o.orgId)).facts).toBe(5);
  });

  it('refuses a missing selector and the roles that may not erase, changing nothing', async () => {
    const o = await s.createOrg('erase-roles');
    await seed(o.orgId, 'dave', 's1', 'u1', 2);
    const before = await rowsOf(o.orgId);
    const empty = await gql(s.url, EraseSubjectDocument, { selector: {} }, o.token);
    expect([codeOf(empty), fieldOf(empty)]).toEqual(['BAD_USER_INPUT', 'selector']);
    const half = await gql(s.url, EraseSubjectDocument, { selector: { metadataKey: 'userId' } }, o.token);
    expect([codeOf(half), fieldOf(half)]).toEqual(['BAD_USER_INPUT', 'selector.metadataValue']);
    for (const role of ['VIEWER', 'OPERATOR', 'AGENT'] as const) {
      const k = await s.createKey(o.orgId, role);
      expect(codeOf(await gql(s.url, EraseSubjectDocument, { selector: { agentId: 'dave' } }, k.token))).toBe('FORBIDDEN');
      expect(codeOf(await gql(s.url, DeleteEpisodesDocument, { ids: [] }, k.token))).toBe('FORBIDDEN');
    }
    const integrator = await s.createKey(o.orgId, 'INTEGRATOR');
    expect(codeOf(await gql(s.url, ErasuresDocument, {}, integrator.token))).toBe('FORBIDDEN');
    expect(await rowsOf(o.orgId)).toEqual(before);
    const ok = (await gqlOk(s.url, EraseSubjectDocument, { selector: { agentId: 'dave' }, dryRun: true }, integrator.token)).eraseSubject;
    expect(ok.total).toBeGreaterThan(0);
  });
});

describe('deleteFacts and deleteEpisodes', () => {
  it("answer NOT_FOUND for another organization's ids over HTTP and WebSocket, deleting nothing; a retry reports zero", async () => {
    const a = await s.createOrg('del-a');
    const b = await s.createOrg('del-b');
    await seed(a.orgId, 'erin', 's1', 'u1', 2);
    const [fact] = await sql(`SELECT id, external_id FROM facts WHERE org_id = ?::uuid LIMIT 1`, [a.orgId]);
    const [episode] = await sql(`SELECT id FROM episodes WHERE org_id = ?::uuid LIMIT 1`, [a.orgId]);
    const before = await rowsOf(a.orgId);
    const foreign = await gql(s.url, DeleteFactsDocument, { ids: [fact.id] }, b.token);
    expect([codeOf(foreign), fieldOf(foreign)]).toEqual(['NOT_FOUND', 'ids']);
    const ws = wsClient(s.wsUrl, b.token);
    try {
      expect(codeOf(await wsOnce(ws, DeleteFactsDocument, { ids: [fact.id] }))).toBe('NOT_FOUND');
      expect(codeOf(await wsOnce(ws, DeleteEpisodesDocument, { ids: [episode.id] }))).toBe('NOT_FOUND');
      expect((await wsOnce(ws, EraseSubjectDocument, { selector: { agentId: 'erin' } })).data?.eraseSubject.total).toBe(0);
    } finally {
      await ws.dispose();
    }
    // one unknown id among known ones: nothing is deleted
    const mixed = await gql(s.url, DeleteFactsDocument, { ids: [fact.id, '00000000-0000-4000-8000-000000000000'] }, a.token);
    expect(codeOf(mixed)).toBe('NOT_FOUND');
    expect(await rowsOf(a.orgId)).toEqual(before);

    const gone = (await gqlOk(s.url, DeleteFactsDocument, { ids: [fact.id] }, a.token)).deleteFacts;
    expect(count(gone)).toMatchObject({ facts: 1, factVersions: 1, factSignals: 1, queryContexts: 1, factLinks: 1 });
    expect((await gqlOk(s.url, DeleteFactsDocument, { ids: [fact.id] }, a.token)).deleteFacts.total).toBe(0);
    const ep = (await gqlOk(s.url, DeleteEpisodesDocument, { ids: [episode.id] }, a.token)).deleteEpisodes;
    expect(count(ep)).toMatchObject({ episodes: 1, segments: 2, outputs: 1, feedback: 2, canvasActions: 1 });
    expect((await gqlOk(s.url, DeleteEpisodesDocument, { ids: [episode.id] }, a.token)).deleteEpisodes.total).toBe(0);
    // the other organization's retry of the same id is still NOT_FOUND: nothing revealed
    expect(codeOf(await gql(s.url, DeleteEpisodesDocument, { ids: [episode.id] }, b.token))).toBe('NOT_FOUND');
  });

  it('deletes by external id and a whole bank', async () => {
    const o = await s.createOrg('del-ext');
    await gqlOk(
      s.url,
      UpsertFactsDocument,
      {
        inputs: [
          { bankId: 'k1', text: 'one', externalId: 'x1' },
          { bankId: 'k1', text: 'two' },
          { bankId: 'k2', text: 'three' },
        ],
      },
      o.token,
    );
    const wrongBank = await gql(s.url, DeleteFactsDocument, { externalIds: ['x1'], bankId: 'k2' }, o.token);
    expect([codeOf(wrongBank), fieldOf(wrongBank)]).toEqual(['NOT_FOUND', 'externalIds']);
    expect(count((await gqlOk(s.url, DeleteFactsDocument, { externalIds: ['x1'] }, o.token)).deleteFacts).facts).toBe(1);
    expect((await gqlOk(s.url, DeleteFactsDocument, { externalIds: ['x1'] }, o.token)).deleteFacts.total).toBe(0);
    expect(count((await gqlOk(s.url, DeleteFactsDocument, { bankId: 'k1' }, o.token)).deleteFacts).facts).toBe(1);
    expect((await rowsOf(o.orgId)).facts).toBe(1);
    const nothing = await gql(s.url, DeleteFactsDocument, {}, o.token);
    expect([codeOf(nothing), fieldOf(nothing)]).toEqual(['BAD_USER_INPUT', 'ids']);
  });
});

describe('after an erasure', () => {
  it('no instance recalls the erased facts (vector index and PostgreSQL) nor serves erased turns from the memory-context cache', async () => {
    const o = await s.createOrg('erase-caches');
    const facts = Array.from({ length: 20 }, (_, i) => ({
      bankId: i < 10 ? 'frank' : 'grace',
      text: `invoice number ${i} is paid`,
      embedding: [1, i / 20, 0.5],
    }));
    await gqlOk(s.url, UpsertFactsDocument, { inputs: facts }, o.token);
    await seed(o.orgId, 'frank', 's1', 'u1', 2);
    const recallOn = async (srv: TestServer, strategy: 'SEMANTIC' | 'LEXICAL') =>
      (
        await gqlOk(
          srv.url,
          RecallDocument,
          { input: { bankId: 'frank', query: 'invoice paid', queryEmbedding: [1, 0.2, 0.5], strategy, limit: 50 } },
          o.token,
        )
      ).recall.length;
    const context = async (srv: TestServer) =>
      (await gqlOk(srv.url, MemoryContextDocument, { input: { agentId: 'frank', tokenBudget: 1000 } }, o.token)).memoryContext.entries
        .length;
    for (const srv of [s, second]) {
      // the bank's 10 invoices and the 2 facts of its episodes
      expect(await recallOn(srv, 'SEMANTIC')).toBe(12);
      expect(await recallOn(srv, 'LEXICAL')).toBeGreaterThanOrEqual(10);
      expect(await context(srv)).toBe(4);
    }
    await gqlOk(s.url, EraseSubjectDocument, { selector: { agentId: 'frank' } }, o.token);
    for (const srv of [second, s]) {
      expect(await recallOn(srv, 'SEMANTIC')).toBe(0);
      expect(await recallOn(srv, 'LEXICAL')).toBe(0);
      expect(await context(srv)).toBe(0);
    }
    const grace = await gqlOk(
      s.url,
      RecallDocument,
      { input: { bankId: 'grace', query: 'invoice', queryEmbedding: [1, 0.2, 0.5] } },
      o.token,
    );
    expect(grace.recall.length).toBe(10);
  });
});
