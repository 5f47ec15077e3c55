import { type AliasedSelectQueryBuilder, type Expression, type Selectable, sql as raw } from 'kysely';
import type { LayoutProfilesTable } from '../../db/tables';
import { sql, type Unqualified } from '../../db/typed-sql';
import { eventRows, LEARNING_EVENT_TYPES } from '../shared';

/** How much one analytics answer can hold: days of its range, corrected fields, layouts, corrections of a fingerprint. */
export const ANALYTICS_MAX = { days: 366, fields: 10, layouts: 1000, corrections: 100 } as const;

/**
 * The statements of `learningAnalytics`, built against the table types (no ORM dependencies: the
 * benchmark's raw baseline compiles and runs the same statements through pg).
 */

const DAY_MS = 86_400_000;

/**
 * The whole UTC days inside [start, end), read from the daily counts, and the parts of the range
 * before and after them, read from the feedback rows. With a fingerprint (the counts are not per
 * layout) or without a whole day, the rows cover the entire range.
 */
function splitRange(start: Date, end: Date, perDay: boolean) {
  let first = Math.ceil(start.getTime() / DAY_MS) * DAY_MS;
  let last = Math.floor(end.getTime() / DAY_MS) * DAY_MS;
  if (!perDay || first >= last) first = last = end.getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    firstDay: iso(first).slice(0, 10),
    endDay: iso(last).slice(0, 10),
    head: [start.toISOString(), iso(first)],
    tail: [iso(last), end.toISOString()],
  };
}

/** An event of the counts: its UTC day, its kind ('type' or 'field') and its key. */
type EventRow = { org_id: string; day: string; kind: string; key: string };

/**
 * The events of the feedback rows that `rows` selects, by the one definition the daily counts are
 * written with (`eventRows`), the rows being a built subquery with its values bound.
 */
function eventRowsOf(rows: Expression<unknown>) {
  const marker = '\u0000rows\u0000';
  const [before, after] = eventRows(marker).split(marker);
  return raw<EventRow>`(${raw.raw(before)}${rows}${raw.raw(after)})`;
}

/** The rows of `rows` as one JSON array in the order `orderBy` (written in code, over alias `x`), `[]` when none. */
const jsonList = <R>(rows: { as(alias: 'x'): AliasedSelectQueryBuilder<R, 'x'> }, orderBy: string) =>
  sql
    .selectFrom(rows.as('x'))
    .select(raw<R[]>`coalesce(json_agg(x ORDER BY ${raw.raw(orderBy)}), '[]')`.as('list'))
    .$asScalar();

const learningTypes = LEARNING_EVENT_TYPES.map((t) => raw.lit(t));

/**
 * One statement for eventsByDay, eventsByType, correctedFields (top 10) and the confidence trend.
 * The events of the range are the counts of its whole days plus the rows of its partial days.
 */
export function seriesStatement(orgId: string, start: Date, end: Date, fingerprint: string | null) {
  const r = splitRange(start, end, !fingerprint);
  const rows = sql
    .selectFrom('feedback')
    .select(['org_id', 'created_at', 'feedback_type', 'event_type', 'changed_fields'])
    .where('org_id', '=', orgId)
    .where('feedback_type', 'in', learningTypes)
    .where((eb) =>
      eb.or([
        eb.and([eb('created_at', '>=', r.head[0]), eb('created_at', '<', r.head[1])]),
        eb.and([eb('created_at', '>=', r.tail[0]), eb('created_at', '<', r.tail[1])]),
      ]),
    )
    .$if(fingerprint !== null, (q) => q.where('layout_fingerprint', '=', fingerprint!));
  const sum = raw<number>`sum(n)::int`;
  return sql
    .with('ev', (db) =>
      db
        .selectFrom('learning_event_counts')
        .select(['day', 'kind', 'key', 'count as n'])
        .where('org_id', '=', orgId)
        .where('day', '>=', raw<string>`${r.firstDay}::date`)
        .where('day', '<', raw<string>`${r.endDay}::date`)
        .unionAll(db.selectFrom(eventRowsOf(rows).as('r')).select(['r.day', 'r.kind', 'r.key', raw<number>`1`.as('n')])),
    )
    .selectNoFrom((eb) => {
      const counted = (kind: string) =>
        eb
          .selectFrom('ev')
          .where('kind', '=', raw.lit(kind))
          .having(raw`sum(n)`, '>', 0);
      const byDay = counted('type')
        .select([raw<string>`to_char(day, 'YYYY-MM-DD')`.as('date'), sum.as('count')])
        .groupBy('day');
      const byType = counted('type')
        .select(['key as eventType', sum.as('count')])
        .groupBy('key');
      const fields = counted('field')
        .select(['key as field', sum.as('count')])
        .groupBy('key')
        .orderBy('count', 'desc')
        .orderBy('field')
        .limit(ANALYTICS_MAX.fields);
      const confidence = sql
        .selectFrom('documents')
        .select([raw<string>`(created_at AT TIME ZONE 'UTC')::date`.as('day'), raw<number>`avg(extraction_confidence)::float8`.as('avg')])
        .where('org_id', '=', orgId)
        .where('created_at', '>=', start.toISOString())
        .where('created_at', '<', end.toISOString())
        .where('extraction_confidence', 'is not', null)
        .$if(fingerprint !== null, (q) => q.where('layout_fingerprint', '=', fingerprint!))
        .groupBy(raw.lit(1));
      const point = raw`json_build_object('date', to_char(x.day, 'YYYY-MM-DD'), 'averageConfidence', x.avg)`;
      type Point = { date: string; averageConfidence: number };
      const trend = sql
        .selectFrom(confidence.as('x'))
        .select(raw<Point[]>`coalesce(json_agg(${point} ORDER BY x.day), '[]')`.as('list'))
        .$asScalar();
      return [
        jsonList(byDay, 'x.date').as('by_day'),
        jsonList(byType, 'x.count DESC, x."eventType"').as('by_type'),
        jsonList(fields, 'x.count DESC, x.field').as('fields'),
        trend.as('trend'),
      ];
    });
}

/** The columns of `layout_profiles` a profile is read with (alias `p`). */
export const PROFILE_COLUMNS = [
  'p.id',
  'p.layout_fingerprint',
  'p.seen_count',
  'p.last_seen_at',
  'p.stats',
  'p.created_at',
  'p.updated_at',
] as const;

export type ProfileRow = Pick<Selectable<LayoutProfilesTable>, Unqualified<(typeof PROFILE_COLUMNS)[number]>>;

/** The layout profiles of `layoutStats`: most recently seen first, at most 1,000. */
export function profilesStatement(orgId: string, fingerprint: string | null) {
  let q = sql.selectFrom('layout_profiles as p').select(PROFILE_COLUMNS).where('p.org_id', '=', orgId);
  if (fingerprint !== null) q = q.where('p.layout_fingerprint', '=', fingerprint);
  return q.orderBy('p.last_seen_at', 'desc').orderBy('p.id', 'desc').limit(ANALYTICS_MAX.layouts);
}

/**
 * exampleCount and corrected documents of some layouts, from the partial index on the corrections
 * (org_id, layout_fingerprint, document_id) alone. Layouts without corrections have no row.
 */
export function layoutCountsStatement(orgId: string, fingerprints: string[]) {
  return sql
    .selectFrom('feedback')
    .select(['layout_fingerprint as fp', raw<number>`count(*)::int`.as('examples')])
    .select(raw<number>`count(DISTINCT document_id)::int`.as('corrected_docs'))
    .where('org_id', '=', orgId)
    .where('feedback_type', '=', raw.lit('CORRECTION'))
    .where('layout_fingerprint', '=', raw<string>`any(${fingerprints}::text[])`)
    .groupBy('layout_fingerprint');
}
