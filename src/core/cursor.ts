import { badInput } from './errors';
import { isUuid } from './ids';

/**
 * A keyset position: the sort time (UTC, microseconds) and the id that breaks ties; an order by a
 * score adds the score, the time then being the moment the scores were read at.
 */
export interface CursorPosition {
  sortValue: string;
  id: string;
  score?: number;
}

/** Opaque cursor for keyset pagination (never an offset). */
export function encodeCursor(p: CursorPosition): string {
  const v = p.score === undefined ? [p.sortValue, p.id] : [p.sortValue, p.id, p.score];
  return Buffer.from(JSON.stringify(v), 'utf8').toString('base64url');
}

// the sort key exactly as the keyset statement writes it (`timeSortKey`), years 1..9999
const SORT_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{6}Z$/;

/** A sort time PostgreSQL will take: the keyset format, and a real day and time of day. */
function isSortTime(v: unknown): v is string {
  const m = typeof v === 'string' ? SORT_TIME.exec(v) : null;
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // unlike Date.UTC, keeps years 1..99 as they are
  return year >= 1 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day && hour < 24 && minute < 60 && second < 60;
}

/** Decodes `after`; anything but a cursor this API wrote is BAD_USER_INPUT on `field`, before any SQL. */
export function decodeCursor(cursor: string, field = 'after'): CursorPosition {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    v = null;
  }
  if (Array.isArray(v) && v.length === 2 && isSortTime(v[0]) && typeof v[1] === 'string' && isUuid(v[1]))
    return { sortValue: v[0], id: v[1] };
  if (Array.isArray(v) && v.length === 3 && isSortTime(v[0]) && typeof v[1] === 'string' && isUuid(v[1]) && Number.isFinite(v[2]))
    return { sortValue: v[0], id: v[1], score: v[2] as number };
  throw badInput(field, `${field} is not a cursor returned by this API`);
}

/** Checks a page size (`first`): 1..100. */
export function pageSize(first: number | null | undefined, field = 'first', def = 20, max = 100): number {
  const n = first ?? def;
  if (!Number.isInteger(n) || n < 1 || n > max) throw badInput(field, `${field} must be 1..${max}`);
  return n;
}
