import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOrgQuota } from '../src/modules/usage';
import { AppendSegmentsDocument, RecordEpisodeDocument, StorageUsageDocument, UpsertFactsDocument } from './generated/graphql';
import { codeOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { sqlClient } from './helpers/db';
import { runCli } from './helpers/process';
import { startTestServer, type TestServer } from './helpers/server';

// Every organization may store 60 rows and 40,000 bytes of episodes, segments and facts.
const QUOTA_ROWS = 60;
const QUOTA_BYTES = 40_000;

let s: TestServer;
let db: pg.Client;
beforeAll(async () => {
  s = await startTestServer({ env: { QUOTA_ROWS: String(QUOTA_ROWS), QUOTA_BYTES: String(QUOTA_BYTES) } });
  db = await sqlClient(s.dbUrl);
});
afterAll(async () => {
  await db?.end();
  await s?.close();
});

/** What the tables hold for an organization, counted directly: rows, and bytes as the quota counts them. */
async function counted(orgId: string) {
  const one = async (table: string) => {
    const { rows } = await db.query(
      `SELECT count(*)::int AS rows, coalesce(sum(org_usage_bytes_${table}(r)), 0)::int AS bytes FROM ${table} r WHERE r.org_id = $1`,
      [orgId],
    );
    return rows[0] as { rows: number; bytes: number };
  };
  const [episodes, segments, facts] = [await one('episodes'), await one('episode_segments'), await one('facts')];
  return {
    episodes,
    segments,
    facts,
    total: { rows: episodes.rows + segments.rows + facts.rows, bytes: episodes.bytes + segments.bytes + facts.bytes },
  };
}

/** Seeds `n` segments of `size` characters under one episode of the organization, with set-based SQL. */
async function seed(orgId: string, n: number, size: number) {
  const { rows } = await db.query(`INSERT INTO episodes (id, org_id, agent_id) VALUES (gen_random_uuid(), $1, 'seeded') RETURNING id`, [
    orgId,
  ]);
  await db.query(
    `INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate)
     SELECT gen_random_uuid(), $1, $2, g, 'user', repeat('s', $3), 1 FROM generate_series(1, $4) g`,
    [orgId, rows[0].id, size, n],
  );
}

const episode = (agentId: string, content: string) => ({
  input: { agentId, sessionId: 's', title: 'big', segments: [{ role: 'user', content }] },
});

describe('storage usage', () => {
  it('moves exactly with inserts, updates and deletes, over GraphQL and SQL alike', async () => {
    const { orgId, token } = await s.createOrg('usage-exact');
    const usage = async () => (await gqlOk(s.url, StorageUsageDocument, {}, token)).storageUsage;
    const expectExact = async () => {
      const { quotaRows, quotaBytes, ...measured } = await usage();
      expect(measured).toEqual(await counted(orgId));
      expect({ quotaRows, quotaBytes }).toEqual({ quotaRows: QUOTA_ROWS, quotaBytes: QUOTA_BYTES });
      return measured;
    };
    expect((await expectExact()).total).toEqual({ rows: 0, bytes: 0 });

    await gqlOk(s.url, RecordEpisodeDocument, episode('agent-1', 'hello world'), token);
    await gqlOk(
      s.url,
      UpsertFactsDocument,
      {
        inputs: [
          { bankId: 'kb', externalId: 'a', text: 'first text' },
          { bankId: 'kb', externalId: 'b', text: 'second' },
        ],
      },
      token,
    );
    const inserted = await expectExact();
    expect(inserted.total.rows).toBe(4);

    // an update that makes a fact's text longer
    await gqlOk(s.url, UpsertFactsDocument, { inputs: [{ bankId: 'kb', externalId: 'a', text: 'first text, now longer' }] }, token);
    const updated = await expectExact();
    expect(updated.facts.bytes).toBe(inserted.facts.bytes + 12);

    await seed(orgId, 20, 100);
    await db.query(`UPDATE episode_segments SET content = content || 'xyz' WHERE org_id = $1 AND seq <= 5`, [orgId]);
    await expectExact();
    await db.query(`DELETE FROM episode_segments WHERE org_id = $1 AND seq > 10`, [orgId]);
    await db.query(`DELETE FROM facts WHERE org_id = $1 AND external_id = 'b'`, [orgId]);
    const deleted = await expectExact();
    expect(deleted.total.rows).toBe(4 + 1 + 20 - 10 - 1);
  });
});

describe('storage quotas', () => {
  it('refuse a write over the bytes quota with QUOTA_EXCEEDED over HTTP and WebSocket, write nothing, and never block another organization', async () => {
    const full = await s.createOrg('quota-full');
    const other = await s.createOrg('quota-other');
    await seed(full.orgId, 30, 1200); // about 37,500 of the 40,000 bytes
    const before = await counted(full.orgId);
    expect(before.total.bytes).toBeGreaterThan(QUOTA_BYTES - 5000);

    const big = 'x'.repeat(5000);
    const overHttp = await gql(s.url, RecordEpisodeDocument, episode('agent-q', big), full.token);
    expect(overHttp.status).toBe(200);
    expect(overHttp.data ?? null).toBeNull();
    expect(codeOf(overHttp)).toBe('QUOTA_EXCEEDED');
    const ext = overHttp.errors![0].extensions!;
    expect(ext).toMatchObject({ resource: 'bytes', quota: QUOTA_BYTES, requestId: expect.any(String) });
    // the segment statement is refused; the usage it saw includes the episode row its transaction had just written
    expect(ext.table).toBe('episode_segments');
    expect(ext.usage).toBeGreaterThanOrEqual(before.total.bytes);
    expect(ext.usage as number).toBeLessThanOrEqual(QUOTA_BYTES);
    expect((ext.usage as number) + (ext.requested as number)).toBeGreaterThan(QUOTA_BYTES);
    expect(overHttp.errors![0].message).toMatch(/storage quota of 40000 bytes/);

    const ws = wsClient(s.wsUrl, full.token);
    try {
      const overWs = await wsOnce(ws, RecordEpisodeDocument, episode('agent-q', big));
      expect(overWs.errors?.[0]?.extensions).toMatchObject({ code: 'QUOTA_EXCEEDED', resource: 'bytes', quota: QUOTA_BYTES });
    } finally {
      await ws.dispose();
    }
    // nothing of either refused write was kept, and the usage did not move
    expect(await counted(full.orgId)).toEqual(before);
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM episodes WHERE org_id = $1 AND agent_id = 'agent-q'`, [full.orgId]);
    expect(rows[0].n).toBe(0);
    expect((await gqlOk(s.url, StorageUsageDocument, {}, full.token)).storageUsage.total).toEqual(before.total);

    // the other organization writes as much as it likes under its own quota
    const fine = await gql(s.url, RecordEpisodeDocument, episode('agent-o', big), other.token);
    expect(fine.errors).toBeUndefined();
    // a small write still fits the full organization; appending a large turn to it does not
    const small = await gqlOk(s.url, RecordEpisodeDocument, episode('agent-small', 'ok'), full.token);
    const append = await gql(
      s.url,
      AppendSegmentsDocument,
      { episodeId: small.recordEpisode.id, segments: [{ role: 'user', content: big }] },
      full.token,
    );
    expect(append.errors?.[0]?.extensions).toMatchObject({ code: 'QUOTA_EXCEEDED', resource: 'bytes', table: 'episode_segments' });
    // deleting is always allowed, and makes room
    await db.query(`DELETE FROM episode_segments WHERE org_id = $1 AND seq <= 10`, [full.orgId]);
    expect((await gql(s.url, RecordEpisodeDocument, episode('agent-q', big), full.token)).errors).toBeUndefined();
  });

  it('refuse a write over the rows quota with the quota and usage in rows; an organization of its own quota gets it', async () => {
    const a = await s.createOrg('quota-rows');
    await seed(a.orgId, QUOTA_ROWS - 3, 1); // 1 episode + 57 segments = 58 rows
    const facts = (n: number) => ({
      inputs: Array.from({ length: n }, (_, i) => ({ bankId: 'kb', externalId: `f${i}`, text: `fact ${i}` })),
    });
    const over = await gql(s.url, UpsertFactsDocument, facts(3), a.token);
    expect(codeOf(over)).toBe('QUOTA_EXCEEDED');
    expect(over.errors![0].extensions).toMatchObject({
      resource: 'rows',
      quota: QUOTA_ROWS,
      usage: QUOTA_ROWS - 2,
      requested: 3,
      table: 'facts',
    });
    expect((await counted(a.orgId)).facts.rows).toBe(0);

    await setOrgQuota(s.app.db.orm.em.fork(), a.orgId, { rows: 100 });
    expect((await gql(s.url, UpsertFactsDocument, facts(3), a.token)).errors).toBeUndefined();
    const { quotaRows, quotaBytes, total } = (await gqlOk(s.url, StorageUsageDocument, {}, a.token)).storageUsage;
    expect({ quotaRows, quotaBytes, rows: total.rows }).toEqual({ quotaRows: 100, quotaBytes: QUOTA_BYTES, rows: QUOTA_ROWS + 1 });
  });

  it('are set for one organization by the CLI (set-quota), which answers the quotas and the usage', async () => {
    const a = await s.createOrg('quota-cli');
    const b = await s.createOrg('quota-cli-other');
    const r = await runCli(['set-quota', '--org', 'QUOTA-CLI', '--bytes', '100'], { DATABASE_URL: s.dbUrl, MIGRATE_ON_START: 'false' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ orgId: a.orgId, quotaRows: QUOTA_ROWS, quotaBytes: 100, usage: { rows: 0, bytes: 0 } });
    const refused = await gql(s.url, RecordEpisodeDocument, episode('agent-cli', 'x'.repeat(100)), a.token);
    // the episode row fits; its segment does not (usage counts the episode its transaction wrote, all rolled back)
    const ext = refused.errors?.[0]?.extensions;
    expect(ext).toMatchObject({ code: 'QUOTA_EXCEEDED', resource: 'bytes', quota: 100, table: 'episode_segments' });
    expect((ext!.usage as number) + (ext!.requested as number)).toBeGreaterThan(100);
    expect((await counted(a.orgId)).total).toEqual({ rows: 0, bytes: 0 });
    expect((await gql(s.url, RecordEpisodeDocument, episode('agent-cli', 'x'.repeat(100)), b.token)).errors).toBeUndefined();
  });

  it('report the usage of the largest organizations on /metrics, by id, and the rest as other', async () => {
    const a = await s.createOrg('quota-metrics');
    await seed(a.orgId, 3, 50);
    const text = await (await fetch(`${s.url.replace('/graphql', '')}/metrics`)).text();
    const { total } = await counted(a.orgId);
    expect(text).toContain(`org_storage_bytes{org="${a.orgId}"} ${total.bytes}`);
    expect(text).toContain(`org_storage_rows{org="${a.orgId}"} ${total.rows}`);
    expect(text).toMatch(/org_storage_bytes\{org="other"\} \d+/);
  });
});
