import { describe, expect, it } from 'vitest';
import { CANVAS_BRIEF_COLUMNS, CANVAS_COLUMNS } from '../src/modules/canvas/canvas.rows';
import { FEEDBACK_BRIEF_COLUMNS, FEEDBACK_COLUMNS } from '../src/modules/feedback/feedback.rows';
import { episodeRankingStatement } from '../src/modules/feedback/recall-episodes.sql';

/** The column names of a select list as text, in order. */
const names = (list: string) =>
  list.split(',').map((c) =>
    c
      .trim()
      .split(/\s+AS\s+|\./i)
      .pop()!
      .replace(/"/g, ''),
  );

describe('feedback and canvas statements', () => {
  it('read the same columns in the same order in brief, with the large ones as NULL', () => {
    expect(names(FEEDBACK_BRIEF_COLUMNS)).toEqual(names(FEEDBACK_COLUMNS.join(',')));
    expect(names(CANVAS_BRIEF_COLUMNS)).toEqual(names(CANVAS_COLUMNS.join(',')));
    for (const c of ['NULL::text AS corrections', 'NULL::jsonb AS before', 'NULL::jsonb AS after', 'NULL::jsonb AS meta']) {
      expect(FEEDBACK_BRIEF_COLUMNS).toContain(c);
    }
    expect(CANVAS_BRIEF_COLUMNS).toContain('NULL::jsonb AS metadata');
  });

  it('bind the query vector, the weights and the limit of the episode ranking instead of writing them', () => {
    const args = { agentId: 'a', query: 'q', emb: [0.375, -1e-300], limit: 7, since: null };
    const [text, params] = episodeRankingStatement('org', 0.125, args);
    for (const n of ['0.375', '1e-300', '0.125', '0.2', '0.3', '7']) expect(text).not.toContain(n);
    expect(params).toEqual(expect.arrayContaining([0.375, -1e-300, 0.125, 0.2, -0.3, 7]));
  });
});
