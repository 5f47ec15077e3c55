import { sql as raw } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRow, rows, sql, templateRows, toDriverText } from '../src/db/typed-sql';
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
