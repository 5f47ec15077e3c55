import type { EntityManager } from '@mikro-orm/postgresql';
import type { FactsQuery } from './generated/graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FactByIdDocument, FactsDocument, FailedFactsDocument, UpsertFactsDocument } from './generated/graphql';
import { codeOf, fieldOf, gql, gqlOk } from './helpers/client';
import { factsById } from '../src/modules/facts/facts.loaders';
import { startTestServer, type TestServer } from './helpers/server';

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

const upsert = (token: string, inputs: unknown[], idempotencyKey?: string) =>
  gql(s.url, UpsertFactsDocument, { inputs: inputs as never, idempotencyKey }, token);

describe('upsertFacts', () => {
  it('creates facts in input order, with the neutral score, and updates by externalId keeping omitted fields', async () => {
    const r = await gqlOk(
      s.url,
      UpsertFactsDocument,
      {
        inputs: [
          { bankId: 'agent-1', text: 'Use connection pooling', kind: 'tip', externalId: 'FACT_pool', embedding: [1, 0, 0] },
          { bankId: 'agent-1', text: 'No external id' },
        ],
      },
      a.token,
    );
    expect(r.upsertFacts.map((f) => f.text)).toEqual(['Use connection pooling', 'No external id']);
    expect(r.upsertFacts[0]).toMatchObject({
      bankId: 'agent-1',
      kind: 'tip',
      externalId: 'FACT_pool',
      status: 'SUGGESTED',
      usefulness: 0.5,
      signalCount: 0,
    });
    const id = r.upsertFacts[0].id;

    const again = await gqlOk(
      s.url,
      UpsertFactsDocument,
      { inputs: [{ bankId: 'agent-1', text: 'Use a connection pool', externalId: 'FACT_pool' }] },
      a.token,
    );
    expect(again.upsertFacts[0]).toMatchObject({ id, text: 'Use a connection pool', kind: 'tip' });
    const [row] = await em().execute('SELECT embedding FROM facts WHERE id = ?', [id]);
    expect(row.embedding).toEqual([1, 0, 0]);

    // inputs without an externalId always create
    const twice = await gqlOk(s.url, UpsertFactsDocument, { inputs: [{ bankId: 'agent-1', text: 'No external id' }] }, a.token);
    expect(twice.upsertFacts[0].id).not.toBe(r.upsertFacts[1].id);
  });

  it('fills a stub fact created elsewhere with empty text', async () => {
    const [stub] = await em().execute(
      `INSERT INTO facts (id, org_id, bank_id, text, external_id) VALUES (gen_random_uuid(), ?, 'agent-9', '', 'FACT_stub') RETURNING id`,
      [a.orgId],
    );
    const r = await gqlOk(
      s.url,
      UpsertFactsDocument,
      { inputs: [{ bankId: 'agent-9', text: 'Now with text', externalId: 'FACT_stub' }] },
      a.token,
    );
    expect(r.upsertFacts[0]).toMatchObject({ id: stub.id, text: 'Now with text' });
  });

  it('replays an idempotent call without writing again', async () => {
    const inputs = [{ bankId: 'idem', text: 'once' }];
    const first = await gqlOk(s.url, UpsertFactsDocument, { inputs, idempotencyKey: 'facts-1' }, a.token);
    const second = await gqlOk(s.url, UpsertFactsDocument, { inputs, idempotencyKey: 'facts-1' }, a.token);
    expect(second.upsertFacts[0].id).toBe(first.upsertFacts[0].id);
    const [n] = await em().execute(`SELECT count(*)::int AS n FROM facts WHERE org_id = ? AND bank_id = 'idem'`, [a.orgId]);
    expect(n.n).toBe(1);
    expect(codeOf(await upsert(a.token, [{ bankId: 'idem', text: 'other' }], 'facts-1'))).toBe('CONFLICT');
  });

  it('refuses bad input naming the field, and writes nothing', async () => {
    const before = (await em().execute('SELECT count(*)::int AS n FROM facts WHERE org_id = ?', [a.orgId]))[0].n;
    const cases: [unknown[], string][] = [
      [
        [
          { bankId: 'x', text: 'ok' },
          { bankId: 'x', text: 'é'.repeat(4097) },
        ],
        'inputs.1.text',
      ],
      [[{ bankId: 'x', text: '   ' }], 'inputs.0.text'],
      [[{ bankId: '', text: 'ok' }], 'inputs.0.bankId'],
      [
        [
          { bankId: 'x', text: 'a', externalId: 'E1' },
          { bankId: 'x', text: 'b', externalId: 'E1' },
        ],
        'inputs.1.externalId',
      ],
      [[{ bankId: 'x', text: 'ok', embedding: [] }], 'inputs.0.embedding'],
      [[{ bankId: 'x', text: 'ok', embedding: [1, 0] }], 'inputs.0.embedding'],
      [
        [
          { bankId: 'x', text: 'ok', embedding: [1, 0, 0] },
          { bankId: 'x', text: 'ok', embedding: [1, 0, 0, 0] },
        ],
        'inputs.1.embedding',
      ],
      [Array.from({ length: 501 }, () => ({ bankId: 'x', text: 'ok' })), 'inputs'],
    ];
    for (const [inputs, field] of cases) {
      const r = await upsert(a.token, inputs);
      expect(codeOf(r), field).toBe('BAD_USER_INPUT');
      expect(fieldOf(r)).toBe(field);
    }
    expect((await em().execute('SELECT count(*)::int AS n FROM facts WHERE org_id = ?', [a.orgId]))[0].n).toBe(before);
  });

  it('takes any dimension for a new organization, then keeps it', async () => {
    const c = await s.createOrg('c');
    expect(codeOf(await upsert(c.token, [{ bankId: 'x', text: 'five', embedding: [1, 2, 3, 4, 5] }]))).toBeUndefined();
    expect(fieldOf(await upsert(c.token, [{ bankId: 'x', text: 'three', embedding: [1, 2, 3] }]))).toBe('inputs.0.embedding');
  });

  it('is refused to VIEWER and OPERATOR keys and allowed to AGENT keys', async () => {
    for (const role of ['VIEWER', 'OPERATOR'] as const) {
      const key = await s.createKey(a.orgId, role);
      expect(codeOf(await upsert(key.token, [{ bankId: 'roles', text: role }]))).toBe('FORBIDDEN');
    }
    const agent = await s.createKey(a.orgId, 'AGENT');
    expect(codeOf(await upsert(agent.token, [{ bankId: 'roles', text: 'agent' }]))).toBeUndefined();
    const [n] = await em().execute(`SELECT count(*)::int AS n FROM facts WHERE org_id = ? AND bank_id = 'roles'`, [a.orgId]);
    expect(n.n).toBe(1);
  });
});

describe('fact and facts', () => {
  it('pages newest first with keyset cursors and filters', async () => {
    const org = await s.createOrg('pages');
    await em().execute(
      `INSERT INTO facts (id, org_id, bank_id, text, kind, status, created_at)
       SELECT gen_random_uuid(), ?, 'bank-' || (g % 2), 'fact ' || g, CASE WHEN g % 3 = 0 THEN 'rule' END,
              CASE WHEN g % 5 = 0 THEN 'CONFIRMED' ELSE 'SUGGESTED' END, now() - make_interval(secs => g)
       FROM generate_series(1, 45) g`,
      [org.orgId],
    );
    const seen: string[] = [];
    let after: string | null | undefined = null;
    for (let page = 0; page < 5; page++) {
      s.sql.reset();
      const r: FactsQuery = await gqlOk(s.url, FactsDocument, { first: 20, after }, org.token);
      expect(s.sql.count).toBeLessThanOrEqual(3);
      seen.push(...r.facts.edges.map((e) => e.node.text));
      after = r.facts.pageInfo.endCursor;
      if (!r.facts.pageInfo.hasNextPage) break;
    }
    expect(seen).toEqual(Array.from({ length: 45 }, (_, i) => `fact ${i + 1}`));

    const filtered = await gqlOk(
      s.url,
      FactsDocument,
      { filter: { bankId: 'bank-0', kind: 'rule', statuses: ['CONFIRMED'] }, first: 100 },
      org.token,
    );
    expect(filtered.facts.edges.map((e) => e.node.text)).toEqual(['fact 30']);
    const bad = await gql(s.url, FactsDocument, { first: 101 }, org.token);
    expect(fieldOf(bad)).toBe('first');
    expect(fieldOf(await gql(s.url, FactsDocument, { after: 'nope' }, org.token))).toBe('after');
  });

  it('filters by externalId and scope, and reads one fact by id', async () => {
    const r = await gqlOk(
      s.url,
      UpsertFactsDocument,
      { inputs: [{ bankId: 'mappings', text: 'sku', externalId: 'MAP_1', scope: 'cust-1', key: 'A', value: 'B' }] },
      a.token,
    );
    const byExt = await gqlOk(s.url, FactsDocument, { filter: { externalId: 'MAP_1' } }, a.token);
    expect(byExt.facts.edges.map((e) => e.node.id)).toEqual([r.upsertFacts[0].id]);
    const byScope = await gqlOk(s.url, FactsDocument, { filter: { scope: 'cust-1' } }, a.token);
    expect(byScope.facts.edges).toHaveLength(1);
    const one = await gqlOk(s.url, FactByIdDocument, { id: r.upsertFacts[0].id }, a.token);
    expect(one.fact).toMatchObject({ key: 'A', value: 'B', scope: 'cust-1' });
    expect(fieldOf(await gql(s.url, FactByIdDocument, { id: 'not-a-uuid' }, a.token))).toBe('id');
  });
});

describe('failedFacts', () => {
  it('ranks facts by how many rejected episodes used them', async () => {
    const org = await s.createOrg('failed');
    const r = await gqlOk(
      s.url,
      UpsertFactsDocument,
      { inputs: ['F1', 'F2', 'F3', 'F4'].map((x) => ({ bankId: 'kg', text: x, externalId: x })) },
      org.token,
    );
    const [f1, f2, f3, f4] = r.upsertFacts.map((f) => f.id);
    // episodes: accepted false x3, true x2, null x1; links via episode_facts
    const episodes = await em().execute<{ id: string; n: number }[]>(
      `INSERT INTO episodes (id, org_id, agent_id, accepted)
       SELECT gen_random_uuid(), ?, 'agent', (ARRAY[false, false, false, true, true, NULL]::boolean[])[g] FROM generate_series(1, 6) g
       RETURNING id, accepted`,
      [org.orgId],
    );
    const rejected = episodes.filter((e) => (e as unknown as { accepted: boolean | null }).accepted === false).map((e) => e.id);
    const accepted = episodes.filter((e) => (e as unknown as { accepted: boolean | null }).accepted !== false).map((e) => e.id);
    const links: [string, string][] = [
      ...rejected.map((e) => [e, f2] as [string, string]), // f2: 3 rejected
      [rejected[0], f1],
      [rejected[1], f1], // f1: 2 rejected
      [rejected[0], f3], // f3: 1 rejected
      ...accepted.map((e) => [e, f4] as [string, string]), // f4: only accepted / unjudged
    ];
    await em().execute(
      `INSERT INTO episode_facts (episode_id, fact_id, org_id) SELECT x.e, x.f, ? FROM jsonb_to_recordset(?::jsonb) AS x(e uuid, f uuid)`,
      [org.orgId, JSON.stringify(links.map(([e, f]) => ({ e, f })))],
    );
    s.sql.reset();
    const res = await gqlOk(s.url, FailedFactsDocument, { topN: 10 }, org.token);
    expect(s.sql.count).toBeLessThanOrEqual(2);
    expect(res.failedFacts.map((x) => [x.fact.externalId, x.rejectedEpisodeCount])).toEqual([
      ['F2', 3],
      ['F1', 2],
      ['F3', 1],
    ]);
    const top1 = await gqlOk(s.url, FailedFactsDocument, { topN: 1 }, org.token);
    expect(top1.failedFacts.map((x) => x.fact.externalId)).toEqual(['F2']);
    expect(fieldOf(await gql(s.url, FailedFactsDocument, { topN: 0 }, org.token))).toBe('topN');
    // org isolation: another org sees none of it
    expect((await gqlOk(s.url, FailedFactsDocument, {}, b.token)).failedFacts).toEqual([]);
  });
});

describe('factsById loader (for other types that return facts)', () => {
  it('loads any number of facts in one statement and hides other orgs', async () => {
    const ids = (
      await gqlOk(
        s.url,
        UpsertFactsDocument,
        { inputs: Array.from({ length: 30 }, (_, i) => ({ bankId: 'loader', text: `l${i}` })) },
        a.token,
      )
    ).upsertFacts.map((f) => f.id);
    const [bId] = (await gqlOk(s.url, UpsertFactsDocument, { inputs: [{ bankId: 'loader', text: 'b' }] }, b.token)).upsertFacts.map(
      (f) => f.id,
    );
    const loader = factsById(em(), a.orgId);
    s.sql.reset();
    const got = await Promise.all([...ids, bId].map((id) => loader.load(id)));
    expect(s.sql.count).toBe(1);
    expect(got.slice(0, 30).map((f) => f?.text)).toEqual(ids.map((_, i) => `l${i}`));
    expect(got[30]).toBeNull();
  });
});

describe('org isolation', () => {
  it('org B can neither see nor change org A facts', async () => {
    const r = await gqlOk(
      s.url,
      UpsertFactsDocument,
      { inputs: [{ bankId: 'secret', text: 'A only', externalId: 'SHARED_EXT' }] },
      a.token,
    );
    const id = r.upsertFacts[0].id;
    expect((await gqlOk(s.url, FactByIdDocument, { id }, b.token)).fact).toBeNull();
    expect((await gqlOk(s.url, FactsDocument, { filter: { bankId: 'secret' } }, b.token)).facts.edges).toEqual([]);
    expect((await gqlOk(s.url, FactsDocument, { filter: { externalId: 'SHARED_EXT' } }, b.token)).facts.edges).toEqual([]);
    // the same externalId in org B creates B's own fact and leaves A's alone
    const mine = await gqlOk(
      s.url,
      UpsertFactsDocument,
      { inputs: [{ bankId: 'secret', text: 'B version', externalId: 'SHARED_EXT' }] },
      b.token,
    );
    expect(mine.upsertFacts[0].id).not.toBe(id);
    expect((await gqlOk(s.url, FactByIdDocument, { id }, a.token)).fact?.text).toBe('A only');
  });
});
