import type { EntityManager } from '@mikro-orm/postgresql';
import { checkFingerprint } from '../shared/layout-fingerprint';
import { badInput } from '../../core/errors';
import { FEEDBACK_COLUMNS, feedbackFromRow, type FeedbackRow } from '../feedback/feedback.rows';
import { ANALYTICS_MAX, profilesStatement, type SeriesRow, seriesStatement } from './analytics.sql';
import { type ProfileRow, profilesFromRows } from './layout.service';
import { LearningAnalytics } from './learning.type';

const DAY_MS = 86_400_000;

/**
 * Learning analytics (is the extraction getting better: events, corrected fields, layouts,
 * confidence), aggregated in PostgreSQL: one statement for the event series and the confidence
 * trend (whole days from the daily counts, partial days from the feedback rows), one for the
 * layouts plus one for their correction counts, and one for the corrections of a fingerprint. The
 * independent statements run side by side.
 */
export async function learningAnalytics(em: EntityManager, orgId: string, start: Date, end: Date, fingerprint?: string | null): Promise<LearningAnalytics> {
  if (end.getTime() < start.getTime()) throw badInput('endDate', 'endDate must not be before startDate');
  if (end.getTime() - start.getTime() > ANALYTICS_MAX.days * DAY_MS) throw badInput('endDate', `the range may span at most ${ANALYTICS_MAX.days} days`);
  if (fingerprint) checkFingerprint('layoutFingerprint', fingerprint);
  const fp = fingerprint || null;

  const series = seriesStatement(orgId, start, end, fp);
  const profiles = profilesStatement(orgId, fp);
  const [[s], layoutStats, corrections] = await Promise.all([
    em.execute<SeriesRow[]>(series.sql, series.params),
    em.execute<ProfileRow[]>(profiles.sql, profiles.params).then((rows) => profilesFromRows(em, orgId, rows)),
    fp
      ? em.execute<FeedbackRow[]>(
          `SELECT ${FEEDBACK_COLUMNS} FROM feedback fb WHERE fb.org_id = ? AND fb.layout_fingerprint = ? AND fb.feedback_type = 'CORRECTION'
            AND fb.created_at >= ? AND fb.created_at < ? ORDER BY fb.created_at DESC, fb.id DESC LIMIT ${ANALYTICS_MAX.corrections}`,
          [orgId, fp, start.toISOString(), end.toISOString()],
        )
      : [],
  ]);

  return Object.assign(new LearningAnalytics(), {
    eventsByDay: s.by_day,
    eventsByType: s.by_type,
    correctedFields: s.fields,
    layoutStats,
    confidenceTrend: s.trend,
    corrections: corrections.map(feedbackFromRow),
  });
}
