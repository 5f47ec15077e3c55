import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { benchSteps, insertTarget, Progress, reportingRows } from '../bench/progress';
import { cloneDatabase } from './helpers/db';

describe('benchmark progress', () => {
  afterEach(() => vi.useRealTimers());

  it('announces each step as it starts with the time left, learning the pace from the steps done', () => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
    const lines: string[] = [];
    const p = new Progress(
      [
        { id: 'a', title: 'first', nominalMs: 10_000 },
        { id: 'b', title: 'second', nominalMs: 20_000 },
        { id: 'c', title: 'third', nominalMs: 30_000 },
      ],
      (l) => lines.push(l),
    );
    p.start('a');
    vi.setSystemTime(20_000); // the first step took twice its nominal time
    p.start('b');
    vi.setSystemTime(30_000); // the second took half: the pace of both together is nominal
    p.start('c');
    p.finish();
    expect(lines).toEqual(['[1/3] first: about 1 min 0 s left', '[2/3] second: about 1 min 40 s left', '[3/3] third: about 30 s left']);
  });

  it('plans the chosen scenarios, each warm-up and window once per server, and the fan-out and noisy tenant', () => {
    const scenarios = [
      { id: 'viewer', title: '0 viewer' },
      { id: 'upsert-facts', title: '10 upsertFacts', raw: false },
      { id: 'recall', title: '7 recall' },
    ];
    const args = { scale: 0.5, facts: null, only: ['viewer', 'upsert-facts', 'fan-out'], noRaw: false, warmup: 2, duration: 8 };
    expect(benchSteps(scenarios, { id: 'fan-out' }, args, true).map((s) => [s.id, s.nominalMs])).toEqual([
      ['seed', 35_000],
      ['viewer', 20_000],
      ['upsert-facts', 10_000],
      ['fan-out', 30_000],
    ]);
  });

  it("reports the seeder's rows per second on every insert", async () => {
    const lines: string[] = [];
    const c = reportingRows(new pg.Client({ connectionString: await cloneDatabase() }), (l) => lines.push(l));
    await c.connect();
    try {
      await c.query(`INSERT INTO organizations (id, name) SELECT gen_random_uuid(), 'progress-' || i FROM generate_series(1, 3) i`);
      await c.query('SELECT 1');
    } finally {
      await c.end();
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^seed: organizations \+3 rows in [\d.]+ s \([\d,]+ rows\/s\); 3 rows in \d+ s \([\d,]+ rows\/s\)$/);
  });
});

describe('insertTarget', () => {
  it('names the table of the statement, or of the first inserting CTE under a query', () => {
    expect(insertTarget('INSERT INTO facts (id) SELECT 1')).toBe('facts');
    expect(insertTarget('WITH c AS (INSERT INTO contexts (id) SELECT 1 RETURNING id) INSERT INTO signals (id) SELECT id FROM c')).toBe(
      'signals',
    );
    expect(
      insertTarget(
        'WITH f AS (INSERT INTO feedback (id) SELECT 1 RETURNING id), c AS (INSERT INTO counts (n) SELECT 1) SELECT count(*) FROM f',
      ),
    ).toBe('feedback');
    expect(insertTarget('SELECT 1')).toBeUndefined();
  });
});
