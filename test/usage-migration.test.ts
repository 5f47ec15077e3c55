import { describe, expect, it } from 'vitest';
import { initOrm } from '../src/db/orm';
import { entities } from '../src/modules';
import { cloneDatabase, sqlClient } from './helpers/db';

const MIGRATION = 'Migration20261127135627_org_usage';

describe('the org_usage migration', () => {
  it('counts what existed before it, and gives look-alike names that existed a skeleton only for the oldest', async () => {
    const url = await cloneDatabase();
    const orm = await initOrm({ clientUrl: url, entities });
    const db = await sqlClient(url);
    try {
      const migrator = orm.getMigrator();
      const executed = (await migrator.getExecutedMigrations()).map((m) => m.name);
      const previous = executed[executed.indexOf(MIGRATION) - 1];
      await migrator.down({ to: previous });

      // organizations and data written before usage was counted
      await db.query(`INSERT INTO organizations (id, name, created_at) VALUES
        ('00000000-0000-0000-0000-0000000000a1', 'Acme', now() - interval '2 days'),
        ('00000000-0000-0000-0000-0000000000a2', 'АСМЕ', now() - interval '1 day'),
        ('00000000-0000-0000-0000-0000000000b1', 'Ｂeta', now())`);
      await db.query(`INSERT INTO episodes (id, org_id, agent_id, title)
        SELECT gen_random_uuid(), '00000000-0000-0000-0000-0000000000a1', 'a', repeat('t', g) FROM generate_series(1, 30) g`);
      await db.query(`INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate)
        SELECT gen_random_uuid(), '00000000-0000-0000-0000-0000000000b1', gen_random_uuid(), g, 'user', repeat('c', g * 10), 1 FROM generate_series(1, 40) g`);
      await db.query(
        `INSERT INTO facts (id, org_id, bank_id, text) SELECT gen_random_uuid(), '00000000-0000-0000-0000-0000000000a1', 'kb', 'fact ' || g FROM generate_series(1, 25) g`,
      );

      await migrator.up();
      const { rows: usage } = await db.query(
        `SELECT org_id, sum(episode_rows)::int AS er, sum(episode_bytes)::int AS eb, sum(segment_rows)::int AS sr,
                sum(segment_bytes)::int AS sb, sum(fact_rows)::int AS fr, sum(fact_bytes)::int AS fb
           FROM org_usage GROUP BY org_id ORDER BY org_id`,
      );
      const { rows: direct } = await db.query(
        `SELECT o.id AS org_id,
           (SELECT count(*)::int FROM episodes r WHERE r.org_id = o.id) AS er,
           (SELECT coalesce(sum(org_usage_bytes_episodes(r)), 0)::int FROM episodes r WHERE r.org_id = o.id) AS eb,
           (SELECT count(*)::int FROM episode_segments r WHERE r.org_id = o.id) AS sr,
           (SELECT coalesce(sum(org_usage_bytes_episode_segments(r)), 0)::int FROM episode_segments r WHERE r.org_id = o.id) AS sb,
           (SELECT count(*)::int FROM facts r WHERE r.org_id = o.id) AS fr,
           (SELECT coalesce(sum(org_usage_bytes_facts(r)), 0)::int FROM facts r WHERE r.org_id = o.id) AS fb
         FROM organizations o WHERE o.id IN ('00000000-0000-0000-0000-0000000000a1', '00000000-0000-0000-0000-0000000000b1') ORDER BY o.id`,
      );
      expect(usage).toEqual(direct);
      expect(direct.map((r) => [r.er, r.sr, r.fr])).toEqual([
        [30, 0, 25],
        [0, 40, 0],
      ]);

      const { rows: names } = await db.query(`SELECT name, name_skeleton FROM organizations WHERE id::text LIKE '00000000-%' ORDER BY id`);
      expect(names).toEqual([
        { name: 'Acme', name_skeleton: 'acme' },
        { name: 'АСМЕ', name_skeleton: null },
        { name: 'Ｂeta', name_skeleton: 'beta' },
      ]);
    } finally {
      await db.end();
      await orm.close(true);
    }
  });
});
