import { type RawBuilder, sql as raw } from 'kysely';
import { timeSortKeyOf } from '../../core/keyset';
import { sql } from '../../db/typed-sql';
import { feedbackCounterMoves } from '../shared';
import { addEventCounts } from '../shared';

/** Episodes a forgetting batch looks at, in (created_at, id) order. */
export const BATCH = 1000;

/** Episodes (alias `e`) never forgotten: accepted with an overall score above 0.85. */
export const PROTECTED = raw<boolean>`(e.accepted IS TRUE AND e.overall_score > 0.85)`;

/**
 * One batch of forgetting as one statement: the next `BATCH * 10` episodes after `after` in
 * (created_at, id) order, of which the due ones not locked by others are deleted with their
 * segments, outputs, fact links and judgements; other feedback and canvas audits stay, unlinked.
 * Returns how many were deleted, how many were looked at, where the walk continues, and the ids of
 * the judgements deleted.
 */
export function forgetBatch(orgId: string, due: RawBuilder<boolean>, after: { at: string; id: string }) {
  return (
    sql
      .with('w', (db) =>
        db
          .selectFrom('episodes as e')
          .select(['e.id', 'e.created_at', raw<boolean>`NOT ${PROTECTED} AND ${due}`.as('doomed')])
          .where('e.org_id', '=', orgId)
          .where(raw<boolean>`(e.created_at, e.id) > (${after.at}::timestamptz, ${after.id}::uuid)`)
          .orderBy('e.created_at')
          .orderBy('e.id')
          .limit(BATCH * 10),
      )
      .with('b', (db) =>
        db
          .selectFrom('episodes as e')
          .select('e.id')
          .where('e.org_id', '=', orgId)
          .where(
            'e.id',
            'in',
            db
              .selectFrom('w')
              .select('w.id')
              .where(raw<boolean>`w.doomed`),
          )
          .forUpdate()
          .skipLocked(),
      )
      .with('s', (db) =>
        db.deleteFrom('episode_segments').where('org_id', '=', orgId).where('episode_id', 'in', db.selectFrom('b').select('b.id')),
      )
      .with('o', (db) =>
        db.deleteFrom('episode_outputs').where('org_id', '=', orgId).where('episode_id', 'in', db.selectFrom('b').select('b.id')),
      )
      .with('f', (db) =>
        db.deleteFrom('episode_facts').where('org_id', '=', orgId).where('episode_id', 'in', db.selectFrom('b').select('b.id')),
      )
      // judgements are not learning events: no counts change
      .with('j', (db) =>
        db
          .deleteFrom('feedback')
          .where('org_id', '=', orgId)
          .where('episode_id', 'in', db.selectFrom('b').select('b.id'))
          .where('feedback_type', '=', 'JUDGEMENT')
          .returning('id'),
      )
      .with('u', (db) =>
        db
          .updateTable('feedback')
          .set({ episode_id: null })
          .where('org_id', '=', orgId)
          .where('episode_id', 'in', db.selectFrom('b').select('b.id'))
          .where('feedback_type', '<>', 'JUDGEMENT'),
      )
      .with('c', (db) =>
        db
          .updateTable('canvas_audits')
          .set({ episode_id: null })
          .where('org_id', '=', orgId)
          .where('episode_id', 'in', db.selectFrom('b').select('b.id')),
      )
      .with('d', (db) =>
        db
          .deleteFrom('episodes')
          .where('org_id', '=', orgId)
          .where('id', 'in', db.selectFrom('b').select('b.id'))
          .returning(raw<number>`1`.as('one')),
      )
      .with('last', (db) =>
        db
          .selectFrom('w')
          .select([timeSortKeyOf(raw.ref('w.created_at')).as('at'), 'w.id'])
          .orderBy('w.created_at', 'desc')
          .orderBy('w.id', 'desc')
          .limit(1),
      )
      .selectNoFrom([
        raw<number>`(SELECT count(*) FROM d)::int`.as('n'),
        raw<number>`(SELECT count(*) FROM w)::int`.as('seen'),
        raw<string | null>`(SELECT at FROM last)`.as('last_at'),
        raw<string | null>`(SELECT id FROM last)`.as('last_id'),
        raw<string[] | null>`(SELECT array_agg(id) FROM j)`.as('verdicts'),
      ])
  );
}

/**
 * One batch of the feedback purge as one statement: up to `batch` feedback older than the retention
 * (not locked by others) are deleted, taken out of the daily learning event counts and out of their
 * episodes' counters and score sums. Returns how many were deleted, and their ids.
 */
export function purgeBatch(orgId: string, retentionDays: number, batch: number) {
  return sql
    .with('b', (db) =>
      db
        .selectFrom('feedback')
        .select('id')
        .where('org_id', '=', orgId)
        .where('created_at', '<', raw<string>`now() - ${retentionDays}::int * interval '1 day'`)
        .limit(batch)
        .forUpdate()
        .skipLocked(),
    )
    .with('d', (db) =>
      db
        .deleteFrom('feedback')
        .where('org_id', '=', orgId)
        .where('id', 'in', db.selectFrom('b').select('b.id'))
        .returning(['id', 'episode_id', 'score', 'org_id', 'created_at', 'feedback_type', 'event_type', 'changed_fields']),
    )
    .with('lc', () => raw`(${raw.raw(addEventCounts('d', -1))})`)
    .with('agg', (db) =>
      db
        .selectFrom('d')
        .select(['d.episode_id', raw<number>`count(*)`.as('n')])
        .select([raw<number>`coalesce(sum(score), 0)`.as('s'), raw<number>`count(score)`.as('sc')])
        .where('d.episode_id', 'is not', null)
        .groupBy('d.episode_id'),
    )
    .with('u', (db) =>
      db
        .updateTable('episodes as e')
        .from('agg')
        .set({ ...feedbackCounterMoves({ count: raw`-agg.n`, sum: raw`-agg.s`, scored: raw`-agg.sc` }), updated_at: raw`now()` })
        .where('e.org_id', '=', orgId)
        .whereRef('e.id', '=', 'agg.episode_id'),
    )
    .selectFrom('d')
    .select([raw<number>`count(*)::int`.as('n'), raw<string[] | null>`array_agg(d.id)`.as('ids')]);
}
