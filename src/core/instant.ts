/**
 * A UTC date and time in the one form answers carry it, `2026-11-22T10:00:00.000Z` (what
 * `Date.prototype.toISOString` writes), as a string known to be in that form.
 */
export type IsoTime = string & { readonly __isoTime: unique symbol };

/**
 * A point in time as a read returns it: the ISO text of one when the database handed it over as
 * text (the driver reads every timestamp column as PostgreSQL's text, and rows read inside JSON
 * carry it too), or a `Date` (an entity's, or text in a form not read here). Turning PostgreSQL's
 * text into a `Date` and the `Date` back into text for the answer costs about two microseconds per
 * value, and a 20-episode page carries a few hundred; reads keep the text, and only code that
 * computes with the time asks for a `Date` (`toDate`).
 */
export type Instant = Date | IsoTime;

/**
 * PostgreSQL's text of a `timestamptz` in a UTC session, as JSON writes it
 * (`2026-11-22T10:00:00.123456+00:00`) or as a column's text (`2026-11-22 10:00:00.123456+00`).
 */
const PG_UTC = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d{1,6})?\+00(?::00)?$/;

/**
 * A timestamp read from PostgreSQL, as an `Instant`. Text in UTC becomes the ISO text directly, with
 * the fraction cut to milliseconds as `new Date` reads it; any other text (another session time
 * zone, a year past 9999, `infinity`) becomes a `Date` as before, and a `Date` stays one.
 */
export function instantOf(value: Date | string): Instant {
  if (typeof value !== 'string') return value;
  if (!PG_UTC.test(value)) return new Date(value);
  // the fraction runs from after the seconds' point to the offset: cut or padded to three digits
  const zone = value.lastIndexOf('+');
  const ms = zone === 19 ? '000' : zone >= 23 ? value.slice(20, 23) : value.slice(20, zone).padEnd(3, '0');
  return `${value.slice(0, 10)}T${value.slice(11, 19)}.${ms}Z` as IsoTime;
}

/** `instantOf`, keeping null. */
export const instantOrNull = (value: Date | string | null): Instant | null => (value === null ? null : instantOf(value));

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** The number written by `n` digits of `s` from `at`, or -1 when one of them is not a digit. */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/** Where `YYYY-MM-DDTHH:MM:SS.sssZ` has its separators, and which they are. */
const SEPARATOR_AT = [4, 7, 10, 13, 16, 19, 23];
const SEPARATOR_CODE = [...'--T::.Z'].map((c) => c.charCodeAt(0));

/**
 * Whether a string is already the ISO text of a real instant: the form `toISOString` writes, with a
 * month, a day in that month, an hour, a minute and a second (no leap second) in range and a year
 * from 1. Such a string is its own serialization: reading it as a `Date` and writing it back gives
 * the same text. (Read character by character: the DateTime scalar asks it of every timestamp.)
 */
export function isIsoTime(value: string): value is IsoTime {
  if (value.length !== 24) return false;
  for (let i = 0; i < SEPARATOR_AT.length; i++) if (value.charCodeAt(SEPARATOR_AT[i]) !== SEPARATOR_CODE[i]) return false;
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 2);
  const day = digits(value, 8, 2);
  const hour = digits(value, 11, 2);
  const minute = digits(value, 14, 2);
  const second = digits(value, 17, 2);
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59) return false;
  if (second < 0 || second > 59 || digits(value, 20, 3) < 0) return false;
  return day <= (month === 2 && leap(year) ? 29 : DAYS[month - 1]);
}

/** The instant's ISO text, as an answer carries it. */
export const isoText = (value: Instant): string => (typeof value === 'string' ? value : value.toISOString());

/** The instant as a `Date`, for code that computes with it. */
export const toDate = (value: Instant): Date => (typeof value === 'string' ? new Date(value) : value);
