import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors';
import { timeSortKey } from '../../core/keyset';
import { addEventCounts, DROP_EMPTY_COUNTS } from '../shared/learning-event-counts';
import { moveFeedbackCounters } from '../shared/episode-feedback-counters';

export interface ForgetOptions {
  decayThreshold?: number | null;
  maxAgeDays?: number | null;
  dryRun?: boolean | null;
}

export interface ForgetOutcome {
  examined: number;
  deleted: number;
  preserved: number;
  deletedIds: string[];
}

const BATCH = 1000;
const MAX_DRY_RUN_IDS = 10_000;

/** decayScore in SQL (alias `e`); the TypeScript twin, with the formula, is episodes/decay.ts. */
export const DECAY_SQL = `(exp(-?::float8 * greatest(0, extract(epoch FROM now() - e.created_at)) / 86400)
  * CASE WHEN e.accepted IS FALSE THEN 0.6 ELSE 1 END * CASE WHEN e.overall_score < 0.5 THEN 0.7 ELSE 1 END)`;
const PROTECTED = '(e.accepted IS TRUE AND e.overall_score > 0.85)';
const DOOMED = `(${DECAY_SQL} < ?::float8 OR (e.created_at < now() - ?::int * interval '1 day' AND e.accepted IS NOT TRUE))`;

function check(o: ForgetOptions): { threshold: number; maxAge: number; dryRun: boolean } {
  const threshold = o.decayThreshold ?? 0.1;
  const maxAge = o.maxAgeDays ?? 90;
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) throw badInput('input.decayThreshold', 'decayThreshold must be 0..1');
  if (!Number.isInteger(maxAge) || maxAge < 0) throw badInput('input.maxAgeDays', 'maxAgeDays must be an integer >= 0');
  return { threshold, maxAge, dryRun: o.dryRun ?? false };
}

/**
 * Selective forgetting: deletes decayed or stale unaccepted episodes in batches of
 * 1,000, each batch one statement (its own transaction): segments, outputs, fact links and
 * judgements go with the episode; other feedback and canvas audits stay, unlinked. Nothing is
 * loaded into memory but the counts, so it is safe to interrupt and to run again.
 */
export async function forgetEpisodes(em: EntityManager, orgId: string, lambda: number, options: ForgetOptions): Promise<ForgetOutcome> {
  const { threshold, maxAge, dryRun } = check(options);
  const [counts] = await em.execute<{ examined: number; doomed: number; preserved: number }[]>(
    `SELECT count(*)::int AS examined,
            count(*) FILTER (WHERE NOT ${PROTECTED} AND ${DOOMED})::int AS doomed,
            count(*) FILTER (WHERE ${PROTECTED} AND ${DOOMED})::int AS preserved
       FROM episodes e WHERE e.org_id = ?`,
    [lambda, threshold, maxAge, lambda, threshold, maxAge, orgId],
  );
  if (dryRun) {
    const ids = await em.execute<{ id: string }[]>(
      `SELECT e.id FROM episodes e WHERE e.org_id = ? AND NOT ${PROTECTED} AND ${DOOMED} ORDER BY e.created_at, e.id LIMIT ${MAX_DRY_RUN_IDS}`,
      [orgId, lambda, threshold, maxAge],
    );
    return { examined: counts.examined, deleted: counts.doomed, preserved: counts.preserved, deletedIds: ids.map((r) => r.id) };
  }
  let deleted = 0;
  // walk the episodes once in (created_at, id) order, so kept episodes are not re-read by every batch
  let after: { at: string; id: string } = { at: '-infinity', id: '00000000-0000-0000-0000-000000000000' };
  for (;;) {
    const [r] = await em.execute<{ n: number; seen: number; last_at: string | null; last_id: string | null }[]>(
      `WITH w AS (SELECT e.id, e.created_at, NOT ${PROTECTED} AND ${DOOMED} AS doomed FROM episodes e
                   WHERE e.org_id = ? AND (e.created_at, e.id) > (?::timestamptz, ?::uuid)
                   ORDER BY e.created_at, e.id LIMIT ${BATCH * 10}),
       b AS (SELECT e.id FROM episodes e WHERE e.org_id = ? AND e.id IN (SELECT id FROM w WHERE doomed) FOR UPDATE SKIP LOCKED),
       s AS (DELETE FROM episode_segments WHERE org_id = ? AND episode_id IN (SELECT id FROM b)),
       o AS (DELETE FROM episode_outputs WHERE org_id = ? AND episode_id IN (SELECT id FROM b)),
       f AS (DELETE FROM episode_facts WHERE org_id = ? AND episode_id IN (SELECT id FROM b)),
       j AS (DELETE FROM feedback WHERE org_id = ? AND episode_id IN (SELECT id FROM b) AND feedback_type = 'JUDGEMENT'), -- not a learning event: no counts change
       u AS (UPDATE feedback SET episode_id = NULL WHERE org_id = ? AND episode_id IN (SELECT id FROM b) AND feedback_type <> 'JUDGEMENT'),
       c AS (UPDATE canvas_audits SET episode_id = NULL WHERE org_id = ? AND episode_id IN (SELECT id FROM b)),
       d AS (DELETE FROM episodes WHERE org_id = ? AND id IN (SELECT id FROM b) RETURNING 1),
       last AS (SELECT ${timeSortKey('w.created_at')} AS at, w.id FROM w ORDER BY w.created_at DESC, w.id DESC LIMIT 1)
       SELECT (SELECT count(*) FROM d)::int AS n, (SELECT count(*) FROM w)::int AS seen, (SELECT at FROM last) AS last_at, (SELECT id FROM last) AS last_id`,
      [lambda, threshold, maxAge, orgId, after.at, after.id, orgId, orgId, orgId, orgId, orgId, orgId, orgId, orgId],
    );
    deleted += r.n;
    if (r.seen < BATCH * 10 || !r.last_at || !r.last_id) break;
    after = { at: r.last_at, id: r.last_id };
  }
  return { examined: counts.examined, deleted, preserved: counts.preserved, deletedIds: [] };
}

/**
 * Deletes feedback older than the retention (365 days unless told otherwise) in batches, taking
 * each batch out of its episodes' counters and score sums and out of the daily learning event
 * counts in the same statement, so aggregates stay exact.
 */
export async function purgeExpiredFeedback(em: EntityManager, orgId: string, retentionDays = 365, batch = 5000): Promise<number> {
  if (!Number.isInteger(retentionDays) || retentionDays < 1) throw badInput('retentionDays', 'retentionDays must be an integer >= 1');
  let total = 0;
  for (;;) {
    const [{ n }] = await em.execute<{ n: number }[]>(
      `WITH b AS (SELECT id FROM feedback WHERE org_id = ? AND created_at < now() - ?::int * interval '1 day' LIMIT ${batch} FOR UPDATE SKIP LOCKED),
       d AS (DELETE FROM feedback f WHERE f.org_id = ? AND f.id IN (SELECT id FROM b)
              RETURNING f.episode_id, f.score, f.org_id, f.created_at, f.feedback_type, f.event_type, f.changed_fields),
       lc AS (${addEventCounts('d', -1)}),
       agg AS (SELECT episode_id, count(*) AS n, coalesce(sum(score), 0) AS s, count(score) AS sc FROM d WHERE episode_id IS NOT NULL GROUP BY episode_id),
       u AS (UPDATE episodes e SET ${moveFeedbackCounters({ count: '-agg.n', sum: '-agg.s', scored: '-agg.sc' })}, updated_at = now()
               FROM agg WHERE e.org_id = ? AND e.id = agg.episode_id)
       SELECT count(*)::int AS n FROM d`,
      [orgId, retentionDays, orgId, orgId],
    );
    total += n;
    if (n < batch) break;
  }
  if (total > 0) await em.execute(DROP_EMPTY_COUNTS, [orgId]);
  return total;
}
