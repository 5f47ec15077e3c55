/**
 * A UTC date and time in the one form answers carry it, `2026-11-22T10:00:00.000Z` (what
 * `Date.prototype.toISOString` writes), as a string known to be in that form.
 */
export type IsoTime = string & { readonly __isoTime: unique symbol };

/**
 * A point in time as a read returns it: a `Date`, or the ISO text of one when the database handed
 * it over as text (rows read inside JSON). Turning PostgreSQL's text into a `Date` and the `Date`
 * back into text for the answer costs about two microseconds per value; a 20-episode page carries a
 * few hundred of them, so reads keep the text and only code that computes with the time asks for a
 * `Date` (`toDate`).
 */
export type Instant = Date | IsoTime;

/** PostgreSQL's text of a `timestamptz` in a UTC session (`2026-11-22T10:00:00.123456+00:00`, `to_json`'s form). */
const PG_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.(\d{1,6}))?\+00:00$/;

/**
 * A timestamp read from PostgreSQL, as an `Instant`. Text in UTC becomes the ISO text directly, with
 * the fraction cut to milliseconds as `new Date` reads it; any other text (another session time
 * zone, a year past 9999, `infinity`) becomes a `Date` as before, and a `Date` stays one.
 */
export function instantOf(value: Date | string): Instant {
  if (typeof value !== 'string') return value;
  const utc = PG_UTC.exec(value);
  if (!utc) return new Date(value);
  const fraction = utc[1] ?? '';
  return `${value.slice(0, 19)}.${fraction.length >= 3 ? fraction.slice(0, 3) : fraction.padEnd(3, '0')}Z` as IsoTime;
}

/** `instantOf`, keeping null. */
export const instantOrNull = (value: Date | string | null): Instant | null => (value === null ? null : instantOf(value));

const ISO = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.\d{3}Z$/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/**
 * Whether a string is already the ISO text of a real instant: the form `toISOString` writes, with a
 * month, a day in that month, an hour, a minute and a second (no leap second) in range and a year
 * from 1. Such a string is its own serialization: reading it as a `Date` and writing it back gives
 * the same text.
 */
export function isIsoTime(value: string): value is IsoTime {
  const m = ISO.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = [+m[1], +m[2], +m[3], +m[4], +m[5], +m[6]];
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  return day <= (month === 2 && leap(year) ? 29 : DAYS[month - 1]);
}

/** The instant as a `Date`, for code that computes with it. */
export const toDate = (value: Instant): Date => (typeof value === 'string' ? new Date(value) : value);
