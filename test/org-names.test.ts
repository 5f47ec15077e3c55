import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { initOrm } from '../src/db/orm';
import { entities } from '../src/modules';
import { nameSkeleton, normaliseName } from '../src/modules/orgs/names';
import { createOrganization } from '../src/modules/orgs/orgs.service';
import { cloneDatabase, sqlClient } from './helpers/db';
import { runCli } from './helpers/process';

let env: Record<string, string>;
let orm: MikroORM;
beforeAll(async () => {
  env = { DATABASE_URL: await cloneDatabase(), MIGRATE_ON_START: 'false' };
  orm = await initOrm({ clientUrl: env.DATABASE_URL, entities });
});
afterAll(() => orm?.close(true));

const create = (name: string) => createOrganization(orm.em.fork(), name);
const refusal = async (name: string) => {
  const e = await create(name).then(
    () => null,
    (err: { code?: string; field?: string; message?: string }) => err,
  );
  return e && { code: e.code, field: e.field, message: e.message };
};

describe('organization names', () => {
  it('refuse a name that looks like an existing one: Cyrillic and Greek look-alikes, fullwidth letters, another case', async () => {
    await create('Paypal Bank');
    for (const lookAlike of [
      'Pаypal Bank', // Cyrillic а
      'Payраl Bank', // Cyrillic р and а
      'Ρaypal Βank', // Greek capital Rho and Beta
      'Ｐａｙｐａｌ Bank', // fullwidth
      'PAYPAL  BANK', // case and a double space
      'Paypal\u00a0Bank', // no-break space
    ]) {
      expect(await refusal(lookAlike)).toMatchObject({ code: 'CONFLICT', field: 'name' });
    }
    expect((await refusal('Pаypal Bank'))!.message).toMatch(/looks like the name of an existing organization, "Paypal Bank"/);
    // a name that only shares letters is not a look-alike
    await expect(create('Paypal Banks')).resolves.toBeDefined();
  });

  it('refuse control, invisible and bidirectional characters with BAD_USER_INPUT on name, and create nothing', async () => {
    const before = await countOrgs();
    for (const [name, code] of [
      ['Acme\u200bCorp', 'U+200B'], // zero-width space
      ['Acme\u202eproC', 'U+202E'], // right-to-left override
      ['Acme\u2066Corp\u2069', 'U+2066'], // left-to-right isolate
      ['Acme\u0007Corp', 'U+0007'], // bell
      ['Acme\u0085Corp', 'U+0085'], // next line (C1)
      ['Acme\ufeffCorp', 'U+FEFF'], // byte order mark
      ['Acme\u200dCorp', 'U+200D'], // zero-width joiner
      ['Acme\u2028Corp', 'U+2028'], // line separator
      ['Acme\u00adCorp', 'U+00AD'], // soft hyphen
    ]) {
      const r = await refusal(name);
      expect(r).toMatchObject({ code: 'BAD_USER_INPUT', field: 'name' });
      expect(r!.message).toContain(code);
    }
    expect(await countOrgs()).toBe(before);
  });

  it('store the NFKC form of a name and its skeleton', async () => {
    const { org } = await create('Ｎｏｒｍａｌ Ｃｏ');
    expect(org.name).toBe('Normal Co');
    const db = await sqlClient(env.DATABASE_URL);
    try {
      const { rows } = await db.query('SELECT name, name_skeleton FROM organizations WHERE id = $1', [org.id]);
      expect(rows[0]).toEqual({ name: 'Normal Co', name_skeleton: 'normal co' });
    } finally {
      await db.end();
    }
    expect(nameSkeleton('НОМЕ Вох')).toBe(nameSkeleton('home box'));
    expect(normaliseName('name', '  ﬁne\u3000 name\n')).toBe('fine name');
  });

  it('are refused the same way by the CLI, with exit code 2 and one line naming the problem', async () => {
    await create('Globex');
    // one process each, at once: a CLI start takes seconds on a busy machine
    const cases = [
      ['Glоbex', /looks like the name of an existing organization, "Globex"/], // Cyrillic о
      ['Glo\u200bbex\u202e', /control, invisible or bidirectional characters \(U\+200B/], // zero-width space, then an override
    ] as const;
    const results = await Promise.all(cases.map(([name]) => runCli(['create-org', name], env)));
    for (const [i, [, message]] of cases.entries()) {
      const r = results[i];
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    }
    const [{ n }] = await orm.em
      .fork()
      .execute<{ n: number }[]>(`SELECT count(*)::int AS n FROM organizations WHERE name_skeleton LIKE 'glo%'`);
    expect(n).toBe(1);
  });
});

async function countOrgs(): Promise<number> {
  const [{ n }] = await orm.em.fork().execute<{ n: number }[]>('SELECT count(*)::int AS n FROM organizations');
  return n;
}
