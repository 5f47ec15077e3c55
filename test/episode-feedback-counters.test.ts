import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedbackScore, FEEDBACK_TYPES } from '../src/modules/feedback/feedback-score';
import { aggregateFeedbackScore, aggregateFeedbackScoreSql, moveFeedbackCounters } from '../src/modules/shared/episode-feedback-counters';
import { cloneDatabase, sqlClient } from './helpers/db';

// The counters and the aggregate of an episode's feedback on a grid of feedback sets: the SQL and
// the TypeScript aggregate agree, and counters moved by the shared assignments (adding feedback one
// by one, then taking some away as deletions do) end where a recount of the rows would put them.
let db: pg.Client;

beforeAll(async () => {
  db = await sqlClient(await cloneDatabase());
  await db.query(
    'CREATE TEMP TABLE ep (id int PRIMARY KEY, feedback_count int NOT NULL DEFAULT 0, feedback_score_sum float8 NOT NULL DEFAULT 0, feedback_score_count int NOT NULL DEFAULT 0)',
  );
});
afterAll(async () => {
  await db?.end();
});

/** Every feedback type with every rating 1..5 and none: the scores (or null) feedback can carry. */
const SCORES = [...new Set(FEEDBACK_TYPES.flatMap((t) => [null, 1, 2, 3, 4, 5].map((r) => feedbackScore(t, r))))];

/** A deterministic grid of feedback sets of 0 to 7 scores (or nulls), with unscored-only sets among them. */
const grid: (number | null)[][] = [
  [null],
  [null, null],
  [null, null, null, 1],
  ...Array.from({ length: 60 }, (_, i) => Array.from({ length: i % 8 }, (_, k) => SCORES[(i * 7 + k * 3) % SCORES.length])),
];

describe('episode feedback counters and aggregate', () => {
  it('take every score feedback can carry into the grid', () => {
    expect(SCORES).toEqual(expect.arrayContaining([null, -1, -0.5, 0, 0.5, 1]));
  });

  it('give the mean of the scored feedback, null when none is scored, in SQL as in TypeScript, after adds and removals', async () => {
    for (const [i, scores] of grid.entries()) {
      await db.query('INSERT INTO ep (id) VALUES ($1)', [i]);
      for (const s of scores)
        await db.query(`UPDATE ep SET ${moveFeedbackCounters({ count: '1', sum: '$2::float8', scored: '$3::int' })} WHERE id = $1`, [
          i,
          s ?? 0,
          s === null ? 0 : 1,
        ]);
      const removed = scores.slice(0, Math.floor(scores.length / 3));
      const scored = removed.filter((s): s is number => s !== null);
      await db.query(`UPDATE ep SET ${moveFeedbackCounters({ count: '-$2::int', sum: '-$3::float8', scored: '-$4::int' })} WHERE id = $1`, [
        i,
        removed.length,
        scored.reduce((a, b) => a + b, 0),
        scored.length,
      ]);
    }
    const rows = (
      await db.query(
        `SELECT id, feedback_count, feedback_score_sum, feedback_score_count, ${aggregateFeedbackScoreSql('ep')} AS aggregate FROM ep ORDER BY id`,
      )
    ).rows;
    expect(rows).toHaveLength(grid.length);
    for (const r of rows) {
      const kept = grid[r.id].slice(Math.floor(grid[r.id].length / 3));
      const scored = kept.filter((s): s is number => s !== null);
      const mean = scored.length ? scored.reduce((a, b) => a + b, 0) / scored.length : null;
      expect({ id: r.id, count: r.feedback_count, scored: r.feedback_score_count }).toEqual({
        id: r.id,
        count: kept.length,
        scored: scored.length,
      });
      const fromCounters = aggregateFeedbackScore(r.feedback_score_sum, r.feedback_score_count);
      if (mean === null) expect([r.aggregate, fromCounters]).toEqual([null, null]);
      else {
        expect(r.aggregate).toBeCloseTo(mean, 12);
        expect(fromCounters).toBeCloseTo(mean, 12);
      }
    }
    // the grid has episodes with no feedback, with only unscored feedback, and with scored feedback
    expect(rows.some((r) => r.feedback_count === 0)).toBe(true);
    expect(rows.some((r) => r.feedback_count > 0 && r.feedback_score_count === 0)).toBe(true);
    expect(rows.filter((r) => r.aggregate !== null).length).toBeGreaterThan(20);
  });
});
