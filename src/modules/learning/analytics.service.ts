import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors';
import { FEEDBACK_COLUMNS, feedbackFromRow, type FeedbackRow } from '../feedback/feedback.rows';
import { checkFingerprint, PROFILE_COLUMNS, type ProfileRow, profilesFromRows } from './layout.service';
import { LearningAnalytics } from './learning.type';

const DAY_MS = 86_400_000;

/**
 * Learning analytics (seed 001 user story 5, SPEC 4.4), aggregated in PostgreSQL: one statement for
 * the event series, one for the layouts (plus their correction counts), one for the confidence
 * trend, and one for the corrections of a fingerprint.
 */
export async function learningAnalytics(em: EntityManager, orgId: string, start: Date, end: Date, fingerprint?: string | null): Promise<LearningAnalytics> {
  if (end.getTime() < start.getTime()) throw badInput('endDate', 'endDate must not be before startDate');
  if (end.getTime() - start.getTime() > 366 * DAY_MS) throw badInput('endDate', 'the range may span at most 366 days');
  if (fingerprint) checkFingerprint('layoutFingerprint', fingerprint);
  const fpCond = fingerprint ? 'AND layout_fingerprint = ?' : '';
  const range = [orgId, start.toISOString(), end.toISOString(), ...(fingerprint ? [fingerprint] : [])];

  const [series] = await em.execute<{ by_day: { date: string; count: number }[]; by_type: { eventType: string; count: number }[]; fields: { field: string; count: number }[] }[]>(
    `WITH ev AS (
       SELECT feedback_type, event_type, before, after, created_at FROM feedback
        WHERE org_id = ? AND feedback_type IN ('CORRECTION', 'CONFIRMATION', 'REJECTION') AND created_at >= ? AND created_at < ? ${fpCond}
     ), changed AS (
       SELECT CASE WHEN event_type = 'EXTRACTION_FIELD_CORRECTED' AND after->>'field' IS NOT NULL THEN ARRAY[after->>'field']
                   ELSE ARRAY(SELECT k FROM jsonb_object_keys(coalesce(before, '{}') || coalesce(after, '{}')) k
                               WHERE before->k IS DISTINCT FROM after->k) END AS fields
         FROM ev WHERE feedback_type = 'CORRECTION'
     )
     SELECT
       (SELECT coalesce(json_agg(x ORDER BY x.date), '[]') FROM (
          SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, count(*)::int AS count FROM ev GROUP BY 1) x) AS by_day,
       (SELECT coalesce(json_agg(x ORDER BY x.count DESC, x."eventType"), '[]') FROM (
          SELECT coalesce(event_type, feedback_type) AS "eventType", count(*)::int AS count FROM ev GROUP BY 1) x) AS by_type,
       (SELECT coalesce(json_agg(x ORDER BY x.count DESC, x.field), '[]') FROM (
          SELECT field, count(*)::int AS count FROM changed, unnest(changed.fields) AS field GROUP BY field ORDER BY count DESC, field LIMIT 10) x) AS fields`,
    range,
  );

  const profileRows = await em.execute<ProfileRow[]>(
    `SELECT ${PROFILE_COLUMNS} FROM layout_profiles p WHERE p.org_id = ? ${fingerprint ? 'AND p.layout_fingerprint = ?' : ''} ORDER BY p.last_seen_at DESC, p.id DESC LIMIT 1000`,
    fingerprint ? [orgId, fingerprint] : [orgId],
  );
  const trend = await em.execute<{ date: string; avg: number }[]>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, avg(extraction_confidence)::float8 AS avg FROM documents
      WHERE org_id = ? AND created_at >= ? AND created_at < ? AND extraction_confidence IS NOT NULL ${fpCond} GROUP BY 1 ORDER BY 1`,
    range,
  );
  const corrections = fingerprint
    ? await em.execute<FeedbackRow[]>(
        `SELECT ${FEEDBACK_COLUMNS} FROM feedback fb WHERE fb.org_id = ? AND fb.layout_fingerprint = ? AND fb.feedback_type = 'CORRECTION'
          AND fb.created_at >= ? AND fb.created_at < ? ORDER BY fb.created_at DESC, fb.id DESC LIMIT 100`,
        [orgId, fingerprint, start.toISOString(), end.toISOString()],
      )
    : [];

  return Object.assign(new LearningAnalytics(), {
    eventsByDay: series.by_day,
    eventsByType: series.by_type,
    correctedFields: series.fields,
    layoutStats: await profilesFromRows(em, orgId, profileRows),
    confidenceTrend: trend.map((t) => ({ date: t.date, averageConfidence: Number(t.avg) })),
    corrections: corrections.map(feedbackFromRow),
  });
}
