import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { rows, templateRows } from '../../db/typed-sql';
import { checkFingerprint } from '../shared';
import { badInput } from '../../core/errors';
import { FEEDBACK_COLUMNS, feedbackFromRow, type FeedbackRow } from '../feedback';
import { ANALYTICS_MAX, profilesStatement, seriesStatement } from './analytics.sql';
import { profilesFromRows } from './layout.service';
import { LearningAnalytics } from './learning.type';

const DAY_MS = 86_400_000;

/**
 * Learning analytics (is the extraction getting better: events, corrected fields, layouts,
 * confidence), aggregated in PostgreSQL: one statement for the event series and the confidence
 * trend (whole days from the daily counts, partial days from the feedback rows), one for the
 * layouts plus one for their correction counts, and one for the corrections of a fingerprint. The
 * independent statements run side by side.
 */
export async function learningAnalytics(
  em: EntityManager,
  orgId: string,
  start: Date,
  end: Date,
  fingerprint?: string | null,
): Promise<LearningAnalytics> {
  if (end.getTime() < start.getTime()) throw badInput('endDate', 'endDate must not be before startDate');
  if (end.getTime() - start.getTime() > ANALYTICS_MAX.days * DAY_MS)
    throw badInput('endDate', `the range may span at most ${ANALYTICS_MAX.days} days`);
  if (fingerprint) checkFingerprint('layoutFingerprint', fingerprint);
  const fp = fingerprint || null;

  // the feedback columns are a list written as text (shared with the other reads of feedback), so this read is a template
  const latestCorrections = (layout: string) =>
    templateRows<FeedbackRow>(
      em,
      raw`SELECT ${raw.raw(FEEDBACK_COLUMNS.join(', '))} FROM feedback fb
           WHERE fb.org_id = ${orgId} AND fb.layout_fingerprint = ${layout} AND fb.feedback_type = 'CORRECTION'
             AND fb.created_at >= ${start.toISOString()} AND fb.created_at < ${end.toISOString()}
           ORDER BY fb.created_at DESC, fb.id DESC LIMIT ${ANALYTICS_MAX.corrections}`,
    );
  const [[s], layoutStats, corrections] = await Promise.all([
    rows(em, seriesStatement(orgId, start, end, fp)),
    rows(em, profilesStatement(orgId, fp)).then((found) => profilesFromRows(em, orgId, found)),
    fp ? latestCorrections(fp) : [],
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
