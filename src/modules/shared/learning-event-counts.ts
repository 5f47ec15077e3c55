/**
 * The daily counts behind `learningAnalytics` (table learning_event_counts). Every statement that
 * writes or deletes feedback of these types adds or subtracts its rows here in the same statement,
 * so the counts are exact at every commit. Plain SQL text without ORM dependencies: the benchmark's
 * seeder and raw baseline use the same statements.
 */

/** the feedback types `learningAnalytics` counts */
export const LEARNING_EVENT_TYPES = ['CORRECTION', 'CONFIRMATION', 'REJECTION'] as const;
const LEARNING_EVENT_TYPES_SQL = LEARNING_EVENT_TYPES.map((t) => `'${t}'`).join(', ');

/**
 * The events of the feedback rows of `rows` (alias `f`; columns org_id, created_at, feedback_type,
 * event_type, changed_fields) as (org_id, day, kind, key): one 'type' row per feedback, and one
 * 'field' row per field a correction changed.
 */
export const eventRows = (rows: string) => `
  SELECT f.org_id, (f.created_at AT TIME ZONE 'UTC')::date AS day, k.kind, k.key
    FROM ${rows} f
   CROSS JOIN LATERAL (SELECT 'type' AS kind, coalesce(f.event_type, f.feedback_type) AS key
                       UNION ALL SELECT 'field', unnest(f.changed_fields)) k
   WHERE f.feedback_type IN (${LEARNING_EVENT_TYPES_SQL})`;

/**
 * Adds (`sign` 1) or subtracts (-1) the events of `rows` to the daily counts: one upsert, rows locked
 * in key order (concurrent writers of the same days cannot deadlock). Use it as a data-modifying
 * CTE of the statement that inserts or deletes `rows`, or on its own for a set of existing rows.
 */
export const addEventCounts = (rows: string, sign: 1 | -1) => `
  INSERT INTO learning_event_counts AS c (org_id, day, kind, key_hash, key, count)
  SELECT org_id, day, kind, md5(key)::uuid, min(key), ${sign} * count(*)::int
    FROM (${eventRows(rows)}) e
   GROUP BY org_id, day, kind, md5(key)::uuid
   ORDER BY org_id, day, kind, md5(key)::uuid
  ON CONFLICT (org_id, day, kind, key_hash) DO UPDATE SET count = c.count + EXCLUDED.count`;
