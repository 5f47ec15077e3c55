import { sql as raw } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRow, prepared, rows, sql, templateRows, toDriverText } from '../src/db/typed-sql';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let org: { orgId: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  org = await s.createOrg('typed statements');
});
afterAll(() => s?.close());

describe('statements built against the generated table types', () => {
  it('binds every value as a positional parameter, in order of appearance', () => {
    const q = sql.selectFrom('episodes as e').select(['e.id']).where('e.org_id', '=', 'o').where('e.agent_id', '=', 'a').limit(3);
    expect(toDriverText(q)).toEqual({
      text: 'select "e"."id" from "episodes" as "e" where "e"."org_id" = ? and "e"."agent_id" = ? limit ?',
      params: ['o', 'a', 3],
    });
  });

  it("escapes the statement's own question marks and sends arrays as one array literal", () => {
    const q = sql
      .selectFrom('episodes as e')
      .select(['e.id'])
      .where(raw<boolean>`${'{"a":1}'}::jsonb ? 'a'`)
      .where('e.id', '=', raw<string>`any(${['x', 'y"z']}::uuid[])`);
    expect(toDriverText(q)).toEqual({
      text: 'select "e"."id" from "episodes" as "e" where ?::jsonb \\? \'a\' and "e"."id" = any(?::uuid[])',
      params: ['{"a":1}', '{"x","y\\"z"}'],
    });
  });

  it('runs on the EntityManager, inside its transaction, and scopes by the bound organization', async () => {
    const em = s.app.db.orm.em.fork();
    const id = crypto.randomUUID();
    await em.transactional(async (tx) => {
      await rows(tx, sql.insertInto('episodes').values({ id, org_id: org.orgId, agent_id: 'typed' }));
      const seen = await firstRow(
        tx,
        sql
          .selectFrom('episodes as e')
          .select(['e.id', 'e.agent_id', 'e.feedback_count'])
          .where('e.org_id', '=', org.orgId)
          .where('e.id', '=', id),
      );
      expect(seen).toEqual({ id, agent_id: 'typed', feedback_count: 0 });
      const jsonOperator = await firstRow(tx, sql.selectNoFrom(raw<boolean>`${JSON.stringify({ a: 1 })}::jsonb ? 'a'`.as('has')));
      expect(jsonOperator).toEqual({ has: true });
    });
    const other = await s.createOrg('typed bystander');
    expect(
      await rows(em, sql.selectFrom('episodes as e').select(['e.id']).where('e.org_id', '=', other.orgId).where('e.id', '=', id)),
    ).toEqual([]);
  });
});

describe('prepared statements', () => {
  const direct = (v: { orgId: string; ids: readonly string[]; agent: string | null; n: number }, withAgent: boolean) =>
    sql
      .selectFrom('episodes as e')
      .select(['e.id'])
      .where('e.org_id', '=', v.orgId)
      .where('e.id', '=', raw<string>`any(${v.ids}::uuid[])`)
      .$if(withAgent, (q) => q.where('e.agent_id', '=', v.agent!))
      .limit(v.n);
  const statement = prepared((v: { orgId: string; ids: readonly string[]; agent: string | null; n: number }, s: { withAgent: boolean }) =>
    direct(v, s.withAgent),
  );

  it('give the text and values the statement built anew would give, for every shape and any values', () => {
    for (const withAgent of [false, true, false])
      for (const v of [
        { orgId: 'o1', ids: ['a', 'b'], agent: 'x', n: 3 },
        { orgId: 'o2', ids: [], agent: 'y', n: 7 },
      ])
        expect(statement.text({ withAgent }, v)).toEqual(toDriverText(direct(v, withAgent)));
  });

  it('give the right text for shapes past those they keep built (a statement with many optional conditions)', () => {
    let builds = 0;
    const many = prepared((v: { orgId: string }, s: { k: number }) => {
      builds += 1;
      return sql.selectFrom('episodes').select(['id']).where('org_id', '=', v.orgId).where('title', '=', `t${s.k}`);
    });
    for (let k = 0; k < 300; k++) expect(many.text({ k }, { orgId: 'o' }).text).toContain('?');
    expect(builds).toBe(300);
    // the first shapes stay built; those past the cap are built again on every run, with the same text
    const first = many.text({ k: 0 }, { orgId: 'o1' });
    const late = many.text({ k: 299 }, { orgId: 'o2' });
    expect(builds).toBe(301);
    expect(first).toEqual({ text: expect.any(String), params: ['o1', 't0'] });
    expect(late).toEqual(toDriverText(sql.selectFrom('episodes').select(['id']).where('org_id', '=', 'o2').where('title', '=', 't299')));
  });

  it('refuse, on their first build, a value used other than as a bound value', () => {
    const added = prepared((v: { n: number }) =>
      sql
        .selectFrom('episodes')
        .select(['id'])
        .limit(v.n + 1),
    );
    expect(() => added.text({}, { n: 1 })).toThrow(/value n of a prepared statement/);
    const written = prepared((v: { col: string }) => sql.selectFrom('episodes').select(raw<string>`${raw.raw(`${v.col}`)}`.as('c')));
    expect(() => written.text({}, { col: 'id' })).toThrow(/value col of a prepared statement/);
    // read, but only a property of it reaches the statement
    const counted = prepared((v: { ids: readonly string[] }) => sql.selectFrom('episodes').select(['id']).limit(v.ids.length));
    expect(() => counted.text({}, { ids: ['a'] })).toThrow(/used the value\(s\) ids other than as bound values/);
  });

  it('run on the EntityManager with the values of each call', async () => {
    const em = s.app.db.orm.em.fork();
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    await rows(em, sql.insertInto('episodes').values(ids.map((id, i) => ({ id, org_id: org.orgId, agent_id: `prepared-${i}` }))));
    for (const [agent, expected] of [
      ['prepared-0', [ids[0]]],
      ['prepared-1', [ids[1]]],
    ] as const) {
      const found = await statement.rows(em, { withAgent: true }, { orgId: org.orgId, ids, agent, n: 5 });
      expect(found.map((r) => r.id)).toEqual(expected);
    }
    expect((await statement.rows(em, { withAgent: false }, { orgId: org.orgId, ids, agent: null, n: 1 })).length).toBe(1);
  });
});

describe('whole statements written as templates', () => {
  it('bind their values and return rows of the declared type', async () => {
    const em = s.app.db.orm.em.fork();
    const found = await templateRows<{ n: number; tag: string }>(
      em,
      raw`SELECT count(*)::int AS n, ${'x?y'}::text AS tag FROM episodes WHERE org_id = ${org.orgId}`,
    );
    expect(found).toEqual([{ n: expect.any(Number), tag: 'x?y' }]);
  });
});
