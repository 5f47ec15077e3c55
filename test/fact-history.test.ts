import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FactHistoryDocument, FactsDocument, RecallDocument, SupersedeFactDocument, UpsertFactsDocument } from './generated/graphql';
import { codeOf, fieldOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
const sql = (q: string, p: unknown[] = []) => s.app.db.orm.em.fork().execute(q, p);

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const upsert = async (token: string, inputs: Parameters<typeof gqlOk<unknown, { inputs: unknown[] }>>[2]['inputs']) =>
  (await gqlOk(s.url, UpsertFactsDocument, { inputs: inputs as never }, token)).upsertFacts.map((f) => f.id);

describe('fact history', () => {
  it('keeps every version with what changed, when and by which key; a change of usefulness alone is no version', async () => {
    const o = await s.createOrg('history');
    const other = await s.createKey(o.orgId, 'AGENT');
    const [id] = await upsert(o.token, [{ bankId: 'b', text: 'Alice works at Acme', externalId: 'alice-job', kind: 'job' }]);
    await upsert(other.token, [{ bankId: 'b', text: 'Alice works at Globex', externalId: 'alice-job' }]);
    // the same text again changes nothing that a version keeps
    await upsert(other.token, [{ bankId: 'b', text: 'Alice works at Globex', externalId: 'alice-job' }]);
    await sql(`UPDATE facts SET usefulness = 0.9 WHERE id = ?::uuid`, [id]);
    await upsert(o.token, [{ bankId: 'b', text: 'Alice works at Globex', externalId: 'alice-job', kind: 'employment' }]);
    const fact = (await gqlOk(s.url, FactHistoryDocument, { id }, o.token)).fact!;
    expect(fact.text).toBe('Alice works at Globex');
    expect(fact.history.map((v) => [v.text, v.kind, v.changed])).toEqual([
      ['Alice works at Globex', 'job', ['kind']],
      ['Alice works at Acme', 'job', ['text']],
    ]);
    const [newest, oldest] = fact.history;
    const [{ api_key_id: firstKey }] = await sql(`SELECT id AS api_key_id FROM api_keys WHERE org_id = ?::uuid AND id <> ?::uuid`, [
      o.orgId,
      other.id,
    ]);
    expect([oldest.writtenByKeyId, oldest.changedByKeyId]).toEqual([firstKey, other.id]);
    expect([newest.writtenByKeyId, newest.changedByKeyId]).toEqual([other.id, firstKey]);
    expect(new Date(oldest.to).getTime()).toBeLessThanOrEqual(new Date(newest.from).getTime());
    // another organization sees neither the fact nor its history
    const b = await s.createOrg('history-other');
    expect((await gqlOk(s.url, FactHistoryDocument, { id }, b.token)).fact).toBeNull();
  });
});

describe('supersession and validity', () => {
  it('leaves superseded and expired facts out of facts and recall (index and SQL) unless asked, and refuses self, cycles and other organizations', async () => {
    const o = await s.createOrg('supersede');
    const past = new Date(Date.now() - 86_400_000).toISOString();
    const [old, current, expired, future] = await upsert(o.token, [
      { bankId: 'b', text: 'Alice works at Acme', embedding: [1, 0, 0] },
      { bankId: 'b', text: 'Alice works at Globex', embedding: [0.9, 0.1, 0] },
      { bankId: 'b', text: 'Alice works at Initech', embedding: [0.95, 0.05, 0], validTo: past },
      { bankId: 'b', text: 'Alice works at Hooli', embedding: [0.8, 0.2, 0], validFrom: new Date(Date.now() + 86_400_000).toISOString() },
    ]);
    const recalled = async (input: Record<string, unknown>) =>
      (
        await gqlOk(
          s.url,
          RecallDocument,
          { input: { bankId: 'b', query: 'where does Alice work', limit: 10, ...input } as never },
          o.token,
        )
      ).recall
        .map((r) => r.fact.id)
        .sort();
    const semantic = { queryEmbedding: [1, 0, 0], strategy: 'SEMANTIC' };
    expect(await recalled(semantic)).toEqual([old, current].sort());
    const superseded = (await gqlOk(s.url, SupersedeFactDocument, { id: old, supersededBy: current }, o.token)).supersedeFact;
    expect(superseded.supersededById).toBe(current);
    for (const input of [semantic, { strategy: 'LEXICAL' }, { queryEmbedding: [1, 0, 0], strategy: 'HYBRID' }]) {
      expect(await recalled(input)).toEqual([current]);
      expect(await recalled({ ...input, includeSuperseded: true })).toEqual([old, current, expired, future].sort());
    }
    const listed = async (includeSuperseded: boolean) =>
      (await gqlOk(s.url, FactsDocument, { filter: { bankId: 'b', includeSuperseded } }, o.token)).facts.edges.map((e) => e.node.id).sort();
    expect(await listed(false)).toEqual([current]);
    expect(await listed(true)).toHaveLength(4);
    // the superseding fact keeps its own usefulness; the history records the supersession
    const h = (await gqlOk(s.url, FactHistoryDocument, { id: old }, o.token)).fact!;
    expect(h.history[0].changed).toEqual(['supersededById']);

    const self = await gql(s.url, SupersedeFactDocument, { id: current, supersededBy: current }, o.token);
    expect([codeOf(self), fieldOf(self)]).toEqual(['BAD_USER_INPUT', 'supersededBy']);
    const cycle = await gql(s.url, SupersedeFactDocument, { id: current, supersededBy: old }, o.token);
    expect([codeOf(cycle), fieldOf(cycle)]).toEqual(['BAD_USER_INPUT', 'supersededBy']);
    const b = await s.createOrg('supersede-other');
    const [theirs] = await upsert(b.token, [{ bankId: 'b', text: 'theirs' }]);
    const foreign = await gql(s.url, SupersedeFactDocument, { id: current, supersededBy: theirs }, o.token);
    expect([codeOf(foreign), fieldOf(foreign)]).toEqual(['NOT_FOUND', 'supersededBy']);
    const ws = wsClient(s.wsUrl, b.token);
    try {
      expect(codeOf(await wsOnce(ws, SupersedeFactDocument, { id: current, supersededBy: null }))).toBe('NOT_FOUND');
    } finally {
      await ws.dispose();
    }
    expect(await recalled(semantic)).toEqual([current]);
    // cleared: recalled again
    await gqlOk(s.url, SupersedeFactDocument, { id: old, supersededBy: null }, o.token);
    expect(await recalled(semantic)).toEqual([old, current].sort());
  });

  it('refuses validTo before validFrom, in one input and against the stored validFrom, writing nothing', async () => {
    const o = await s.createOrg('validity');
    const from = '2026-01-02T00:00:00.000Z';
    const bad = await gql(
      s.url,
      UpsertFactsDocument,
      { inputs: [{ bankId: 'b', text: 't', validFrom: from, validTo: '2026-01-01T00:00:00.000Z' }] },
      o.token,
    );
    expect([codeOf(bad), fieldOf(bad)]).toEqual(['BAD_USER_INPUT', 'inputs.0.validTo']);
    await upsert(o.token, [{ bankId: 'b', text: 't', externalId: 'x', validFrom: from }]);
    const later = await gql(
      s.url,
      UpsertFactsDocument,
      { inputs: [{ bankId: 'b', text: 't', externalId: 'x', validTo: '2025-01-01T00:00:00.000Z' }] },
      o.token,
    );
    expect(codeOf(later)).toBe('BAD_USER_INPUT');
    const [{ n }] = await sql(`SELECT count(*)::int AS n FROM facts WHERE org_id = ?::uuid AND valid_to IS NOT NULL`, [o.orgId]);
    expect(n).toBe(0);
  });
});

describe('recall asOf', () => {
  it('answers with the facts valid then, with their text then', async () => {
    const o = await s.createOrg('as-of');
    const [job] = await upsert(o.token, [{ bankId: 'b', text: 'Alice works at Acme', externalId: 'job' }]);
    await new Promise((r) => setTimeout(r, 50));
    const before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 50));
    await upsert(o.token, [{ bankId: 'b', text: 'Alice works at Globex', externalId: 'job' }]);
    const [later] = await upsert(o.token, [{ bankId: 'b', text: 'Alice works remotely' }]);
    const at = async (asOf: string | null, extra: Record<string, unknown> = {}) =>
      (await gqlOk(s.url, RecallDocument, { input: { bankId: 'b', query: 'Alice works', asOf, ...extra } as never }, o.token)).recall.map(
        (r) => [r.fact.id, r.fact.text],
      );
    expect(await at(before)).toEqual([[job, 'Alice works at Acme']]);
    expect((await at(null)).map(([id]) => id).sort()).toEqual([job, later].sort());
    expect(await at(before, { queryEmbedding: null, strategy: 'HYBRID' })).toEqual([[job, 'Alice works at Acme']]);
    // superseded after `before`: still recalled as of then
    await gqlOk(s.url, SupersedeFactDocument, { id: job, supersededBy: later }, o.token);
    expect(await at(before)).toEqual([[job, 'Alice works at Acme']]);
    expect(await at(new Date().toISOString())).toEqual([[later, 'Alice works remotely']]);
    const future = await gql(
      s.url,
      RecallDocument,
      { input: { bankId: 'b', query: 'x', asOf: new Date(Date.now() + 3_600_000).toISOString() } },
      o.token,
    );
    expect([codeOf(future), fieldOf(future)]).toEqual(['BAD_USER_INPUT', 'input.asOf']);
    const semantic = await gql(
      s.url,
      RecallDocument,
      { input: { bankId: 'b', query: 'x', asOf: before, strategy: 'SEMANTIC', queryEmbedding: [1] } },
      o.token,
    );
    expect([codeOf(semantic), fieldOf(semantic)]).toEqual(['BAD_USER_INPUT', 'input.strategy']);
  });
});
