import 'reflect-metadata';
import { parse, validate } from 'graphql';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackendCpu, processCpuMs } from '../bench/db-cpu';
import { difference } from '../bench/answers';
import { peersTable, type PeersResult } from '../bench/peer-report';
import { createPeerSchema, dropPeerSchema } from '../bench/peer-setup';
import { normalize, PEER_SCENARIOS } from '../bench/peers';
import { scenarios } from '../bench/scenarios';
import { seed, type SeedResult } from '../bench/seed';
import type { LoadResult } from '../bench/load';
import { buildAppSchema } from '../src/graphql/build-schema';
import { cloneDatabase, sqlClient } from './helpers/db';

describe('peer comparison: answers compared', () => {
  it('reads a connection as its list, leaves cursors out and spells timestamps one way', () => {
    const ours = {
      episodes: {
        edges: [{ cursor: 'b3Vycw==', node: { id: 'e1', createdAt: '2026-11-27T13:22:49.903Z', segments: [{ id: 's1', seq: 0 }] } }],
        pageInfo: { hasNextPage: true, endCursor: 'b3Vycw==' },
      },
    };
    const theirs = {
      episodes: {
        edges: [
          {
            cursor: 'WyJuYXR1cmFsIl0=',
            node: { id: 'e1', createdAt: '2026-11-27 14:22:49.903613+01', segments: { nodes: [{ id: 's1', seq: 0 }] } },
          },
        ],
        pageInfo: { hasNextPage: true, endCursor: 'WyJuYXR1cmFsIl0=' },
      },
    };
    expect(normalize(theirs)).toEqual(normalize(ours));
    expect(normalize(ours)).toEqual({
      episodes: {
        edges: [{ node: { id: 'e1', createdAt: '2026-11-27T13:22:49.903Z', segments: [{ id: 's1', seq: 0 }] } }],
        pageInfo: { hasNextPage: true },
      },
    });
  });

  it('still tells apart answers that differ in a list length, an id or a time', () => {
    const answer = (segments: unknown[], id = 'e1', at = '2026-11-27T13:22:49.903Z') =>
      normalize({ episode: { id, createdAt: at, segments } });
    const base = answer([{ id: 's1' }]);
    expect(difference(base, answer([{ id: 's1' }, { id: 's2' }]), false)).toMatch(/segments: 1 items vs 2/);
    expect(difference(base, answer([{ id: 's1' }], 'e2'), false)).toMatch(/\.episode\.id/);
    expect(difference(base, answer([{ id: 's1' }], 'e1', '2026-11-27T13:22:49.904+00:00'), false)).toMatch(/createdAt/);
  });

  it("sends our server the benchmark's own documents, valid against our schema", () => {
    const schema = buildAppSchema();
    expect(PEER_SCENARIOS[0].ours).toBe(scenarios.find((s) => s.id === 'episodes')!.query);
    expect(PEER_SCENARIOS[1].ours).toBe(scenarios.find((s) => s.id === 'episode')!.query);
    for (const s of PEER_SCENARIOS) expect(validate(schema, parse(s.ours))).toEqual([]);
  });
});

describe('peer comparison: the schema PostGraphile reads', () => {
  let url: string;
  let db: pg.Client;
  let seeded: SeedResult;

  beforeAll(async () => {
    url = await cloneDatabase();
    seeded = await seed(url, 0.01);
    await createPeerSchema(url, seeded.orgId);
    db = await sqlClient(url);
  });
  afterAll(async () => {
    await db?.end();
  });

  const n = async (sql: string, params: unknown[] = []) => Number((await db.query(sql, params)).rows[0].n);

  it("holds the benchmark organization's rows and none of the other's", async () => {
    for (const table of ['episodes', 'episode_segments', 'canvas_audits', 'feedback']) {
      const own = await n(`SELECT count(*) n FROM public.${table} WHERE org_id = $1`, [seeded.orgId]);
      expect(own).toBeGreaterThan(0);
      expect(await n(`SELECT count(*) n FROM peer.${table}`)).toBe(own);
      expect(await n(`SELECT count(*) n FROM peer.${table} WHERE org_id = $1`, [seeded.otherOrgId])).toBe(0);
    }
    expect(await n(`SELECT count(*) n FROM public.episodes WHERE org_id = $1`, [seeded.otherOrgId])).toBeGreaterThan(0);
  });

  it('computes the aggregate feedback score as our server does, and declares the keys PostGraphile needs', async () => {
    const scores = await db.query(
      `SELECT peer.episodes_aggregate_feedback_score(e) AS peer, e.feedback_score_sum, e.feedback_score_count FROM peer.episodes e`,
    );
    for (const r of scores.rows)
      expect(r.peer).toBe(r.feedback_score_count > 0 ? Number(r.feedback_score_sum) / r.feedback_score_count : null);
    const comment = (await db.query(`SELECT obj_description('peer.feedback'::regclass, 'pg_class') AS c`)).rows[0].c as string;
    expect(comment).toBe('@primaryKey id\n@foreignKey (episode_id) references peer.episodes (id)');
  });

  it('is dropped with everything in it', async () => {
    await dropPeerSchema(url);
    expect(await n(`SELECT count(*) n FROM pg_namespace WHERE nspname = 'peer'`)).toBe(0);
    await createPeerSchema(url, seeded.orgId);
  });
});

describe('peer comparison: PostgreSQL CPU per server', () => {
  it("counts the CPU time of the backends of one application name, not the others'", async () => {
    const url = await cloneDatabase();
    expect(processCpuMs(process.pid)).toBeGreaterThan(0);
    const measured = await BackendCpu.open(url, 'bench-test-measured');
    expect(measured).not.toBeNull();
    const busy = new pg.Client({ connectionString: url, application_name: 'bench-test-measured' });
    const other = new pg.Client({ connectionString: url, application_name: 'bench-test-other' });
    await busy.connect();
    await other.connect();
    try {
      const before = await measured!.read();
      await other.query('SELECT count(*) FROM generate_series(1, 2000000)');
      const afterOther = await measured!.read();
      await busy.query('SELECT count(*) FROM generate_series(1, 2000000)');
      const afterBusy = await measured!.read();
      // 2 million rows take PostgreSQL well over 100 ms of CPU; the other backend's share is not counted
      expect(afterOther - before).toBeLessThan(50);
      expect(afterBusy - afterOther).toBeGreaterThan(100);
    } finally {
      await busy.end();
      await other.end();
      await measured!.close();
    }
  });
});

describe('peer comparison: the table', () => {
  const load = (rps: number, cpu: number, dbCpu: number): LoadResult => ({
    requests: rps * 10,
    rps,
    p50: 4,
    p99: 12.5,
    errors: 0,
    statementsPerRequest: 2,
    cpuMsPerRequest: cpu,
    dbCpuMsPerRequest: dbCpu,
  });
  it("gives our servers' req/s and CPU per request (server + PostgreSQL) as ratios to PostGraphile's, per runtime", () => {
    const r: PeersResult = {
      postgraphile: '5.1.5',
      scope: 'views',
      rows: [
        {
          scenario: '2 episode(id) + the same context',
          connections: 10,
          answers: {
            'v20.20.2': { requests: 5, same: 5, firstDifference: null },
            'v24.21.0': { requests: 5, same: 4, firstDifference: 'x' },
          },
          results: [
            { server: 'us', runtime: 'v20.20.2', load: load(150, 3, 1) },
            { server: 'us', runtime: 'v24.21.0', load: load(300, 1.5, 1) },
            { server: 'postgraphile', runtime: 'v24.21.0', load: load(200, 2, 0.5) },
          ],
        },
      ],
    };
    const lines = peersTable(r);
    expect(lines).toHaveLength(5);
    expect(lines[2]).toBe(
      '| 2 episode(id) + the same context | memory-loop (20.20.2) | 150 | 4 / 12.5 | 3.00 | 1.00 | 2 | 0.75x | 1.60x | 5/5 |',
    );
    expect(lines[3]).toBe(
      '| 2 episode(id) + the same context | memory-loop (24.21.0) | 300 | 4 / 12.5 | 1.50 | 1.00 | 2 | 1.50x | 1.00x | 4/5 |',
    );
    expect(lines[4]).toBe(
      '| 2 episode(id) + the same context | PostGraphile 5.1.5 (24.21.0) | 200 | 4 / 12.5 | 2.00 | 0.50 | 2 | - | - | - |',
    );
  });
});
