import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_RETENTION_MS, pruneChangeLog } from '../src/db/change-feed';
import { rows, sql } from '../src/db/typed-sql';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let org: { orgId: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  org = await s.createOrg('change log pruning');
});
afterAll(() => s?.close());

describe('pruning the change log', () => {
  it('deletes the changes older than the retention and keeps the younger ones', async () => {
    const em = s.app.db.orm.em.fork();
    const at = (ageMs: number) => new Date(Date.now() - ageMs).toISOString();
    const logged = (key: string, ageMs: number) => ({ org_id: org.orgId, topic: 'facts', xid: '1', keys: [key], created_at: at(ageMs) });
    await rows(
      em,
      sql.insertInto('change_log').values([logged('old', CHANGE_RETENTION_MS + 60_000), logged('young', CHANGE_RETENTION_MS - 60_000)]),
    );
    await pruneChangeLog(em);
    const left = await rows(em, sql.selectFrom('change_log').select('keys').where('org_id', '=', org.orgId));
    expect(left.map((r) => r.keys)).toEqual([['young']]);
  });
});
