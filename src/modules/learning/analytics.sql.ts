import { pgArray } from '../../core/sql';
import { eventRows, LEARNING_EVENT_TYPES_SQL } from '../shared/learning-event-counts';

/** How much one analytics answer can hold: days of its range, corrected fields, layouts, corrections of a fingerprint. */
export const ANALYTICS_MAX = { days: 366, fields: 10, layouts: 1000, corrections: 100 } as const;

/**
 * The statements of `learningAnalytics`, as SQL text with `?` placeholders and their parameters
 * (no ORM dependencies: the benchmark's raw baseline runs the same statements through pg).
 */
export interface Statement {
  sql: string;
  params: unknown[];
}

const DAY_MS = 86_400_000;

/**
 * The whole UTC days inside [start, end), read from the daily counts, and the parts of the range
 * before and after them, read from the feedback rows. With a fingerprint (the counts are not per
 * layout) or without a whole day, the rows cover the entire range.
 */
export function splitRange(start: Date, end: Date, perDay: boolean) {
  let first = Math.ceil(start.getTime() / DAY_MS) * DAY_MS;
  let last = Math.floor(end.getTime() / DAY_MS) * DAY_MS;
  if (!perDay || first >= last) first = last = end.getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  return { firstDay: iso(first).slice(0, 10), endDay: iso(last).slice(0, 10), head: [start.toISOString(), iso(first)], tail: [iso(last), end.toISOString()] };
}

/**
 * One statement for eventsByDay, eventsByType, correctedFields (top 10) and the confidence trend.
 * The events of the range are the counts of its whole days plus the rows of its partial days.
 */
export function seriesStatement(orgId: string, start: Date, end: Date, fingerprint: string | null): Statement {
  const r = splitRange(start, end, !fingerprint);
  const fp = fingerprint ? 'AND layout_fingerprint = ?' : '';
  const fpParam = fingerprint ? [fingerprint] : [];
  const rows = `(SELECT org_id, created_at, feedback_type, event_type, changed_fields FROM feedback WHERE org_id = ? AND feedback_type IN (${LEARNING_EVENT_TYPES_SQL})
                   AND ((created_at >= ? AND created_at < ?) OR (created_at >= ? AND created_at < ?)) ${fp})`;
  const sql = `WITH ev AS (
      SELECT day, kind, key, count AS n FROM learning_event_counts WHERE org_id = ? AND day >= ?::date AND day < ?::date
      UNION ALL
      SELECT day, kind, key, 1 FROM (${eventRows(rows)}) r
    )
    SELECT
      (SELECT coalesce(json_agg(x ORDER BY x.date), '[]') FROM (
         SELECT to_char(day, 'YYYY-MM-DD') AS date, sum(n)::int AS count FROM ev WHERE kind = 'type' GROUP BY day HAVING sum(n) > 0) x) AS by_day,
      (SELECT coalesce(json_agg(x ORDER BY x.count DESC, x."eventType"), '[]') FROM (
         SELECT key AS "eventType", sum(n)::int AS count FROM ev WHERE kind = 'type' GROUP BY key HAVING sum(n) > 0) x) AS by_type,
      (SELECT coalesce(json_agg(x ORDER BY x.count DESC, x.field), '[]') FROM (
         SELECT key AS field, sum(n)::int AS count FROM ev WHERE kind = 'field' GROUP BY key HAVING sum(n) > 0 ORDER BY count DESC, field LIMIT ${ANALYTICS_MAX.fields}) x) AS fields,
      (SELECT coalesce(json_agg(json_build_object('date', to_char(x.day, 'YYYY-MM-DD'), 'averageConfidence', x.avg) ORDER BY x.day), '[]') FROM (
         SELECT (created_at AT TIME ZONE 'UTC')::date AS day, avg(extraction_confidence)::float8 AS avg FROM documents
          WHERE org_id = ? AND created_at >= ? AND created_at < ? AND extraction_confidence IS NOT NULL ${fp} GROUP BY 1) x) AS trend`;
  return {
    sql,
    params: [orgId, r.firstDay, r.endDay, orgId, ...r.head, ...r.tail, ...fpParam, orgId, start.toISOString(), end.toISOString(), ...fpParam],
  };
}

export interface SeriesRow {
  by_day: { date: string; count: number }[];
  by_type: { eventType: string; count: number }[];
  fields: { field: string; count: number }[];
  trend: { date: string; averageConfidence: number }[];
}

export const PROFILE_COLUMNS = 'p.id, p.layout_fingerprint, p.seen_count, p.last_seen_at, p.stats, p.created_at, p.updated_at';

/** The layout profiles of `layoutStats`: most recently seen first, at most 1,000. */
export function profilesStatement(orgId: string, fingerprint: string | null): Statement {
  return {
    sql: `SELECT ${PROFILE_COLUMNS} FROM layout_profiles p WHERE p.org_id = ? ${fingerprint ? 'AND p.layout_fingerprint = ?' : ''}
           ORDER BY p.last_seen_at DESC, p.id DESC LIMIT ${ANALYTICS_MAX.layouts}`,
    params: fingerprint ? [orgId, fingerprint] : [orgId],
  };
}

/**
 * exampleCount and corrected documents of some layouts, from the partial index on the corrections
 * (org_id, layout_fingerprint, document_id) alone. Layouts without corrections have no row.
 */
export function layoutCountsStatement(orgId: string, fingerprints: string[]): Statement {
  return {
    sql: `SELECT layout_fingerprint AS fp, count(*)::int AS examples, count(DISTINCT document_id)::int AS corrected_docs FROM feedback
           WHERE org_id = ? AND feedback_type = 'CORRECTION' AND layout_fingerprint = ANY(?::text[]) GROUP BY layout_fingerprint`,
    params: [orgId, pgArray(fingerprints)],
  };
}
