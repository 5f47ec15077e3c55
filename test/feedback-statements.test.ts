import { describe, expect, it } from 'vitest';
import type { GraphQLObjectType } from 'graphql';
import { buildAppSchema } from '../src/graphql/build-schema';
import { CANVAS_COLUMNS, CANVAS_FIELD_COLUMNS, CANVAS_LIST_ALWAYS } from '../src/modules/canvas/canvas.rows';
import { FEEDBACK_COLUMNS, FEEDBACK_FIELD_COLUMNS, FEEDBACK_LIST_ALWAYS } from '../src/modules/feedback/feedback.rows';
import { SEGMENT_FIELD_COLUMNS, SEGMENT_LIST_ALWAYS } from '../src/modules/episodes';
import { columnsOf } from '../src/modules/shared';
import { episodeRankingStatement } from '../src/modules/feedback/recall-episodes.sql';

const selecting = (fields: string[]) => (f: string) => fields.includes(f);

describe('feedback, canvas and segment statements', () => {
  it('read only the columns of the selected fields, and always the id, the episode and the order', () => {
    expect(columnsOf(FEEDBACK_FIELD_COLUMNS, FEEDBACK_LIST_ALWAYS, selecting(['score', 'before']))).toBe(
      'id,episode_id,score,before,created_at',
    );
    expect(columnsOf(FEEDBACK_FIELD_COLUMNS, FEEDBACK_LIST_ALWAYS, selecting([]))).toBe('id,episode_id,created_at');
    expect(columnsOf(CANVAS_FIELD_COLUMNS, CANVAS_LIST_ALWAYS, selecting(['metadata', '__typename']))).toBe(
      'id,episode_id,metadata,created_at',
    );
    expect(columnsOf(SEGMENT_FIELD_COLUMNS, SEGMENT_LIST_ALWAYS, selecting(['content']))).toBe('id,episode_id,seq,content');
    // every field selected reads every column, in the table's order
    const all = (t: Record<string, string>) => columnsOf(t, [], () => true).split(',');
    expect(all(FEEDBACK_FIELD_COLUMNS)).toEqual(FEEDBACK_COLUMNS.map((c) => c.slice('fb.'.length)));
    expect(all(CANVAS_FIELD_COLUMNS)).toEqual(CANVAS_COLUMNS.map((c) => c.slice('c.'.length)));
    expect(all(SEGMENT_FIELD_COLUMNS)).toEqual(['id', 'episode_id', 'seq', 'role', 'content', 'token_estimate', 'created_at']);
  });

  it('know the column of every field of Feedback, CanvasAudit and Segment (a field without one would answer nothing)', () => {
    const schema = buildAppSchema();
    const fields = (name: string) => Object.keys((schema.getType(name) as GraphQLObjectType).getFields()).sort();
    expect(fields('Feedback')).toEqual(Object.keys(FEEDBACK_FIELD_COLUMNS).sort());
    expect(fields('CanvasAudit')).toEqual(Object.keys(CANVAS_FIELD_COLUMNS).sort());
    expect(fields('Segment')).toEqual(Object.keys(SEGMENT_FIELD_COLUMNS).sort());
  });

  it('bind the query vector, the weights and the limit of the episode ranking instead of writing them', () => {
    const args = { agentId: 'a', query: 'q', emb: [0.375, -1e-300], limit: 7, since: null };
    const [text, params] = episodeRankingStatement('org', 0.125, args);
    for (const n of ['0.375', '1e-300', '0.125', '0.2', '0.3', '7']) expect(text).not.toContain(n);
    expect(params).toEqual(expect.arrayContaining([0.375, -1e-300, 0.125, 0.2, -0.3, 7]));
  });
});
