import { badInput } from './errors';

/** A keyset position: the sort value (ISO time or number) and the id that breaks ties. */
export interface CursorPosition {
  sortValue: string | number;
  id: string;
}

/** Opaque cursor for keyset pagination (never an offset). */
export function encodeCursor(p: CursorPosition): string {
  return Buffer.from(JSON.stringify([p.sortValue, p.id]), 'utf8').toString('base64url');
}

/** Decodes `after`; a malformed cursor is BAD_USER_INPUT on `field`. */
export function decodeCursor(cursor: string, field = 'after'): CursorPosition {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && (typeof v[0] === 'string' || typeof v[0] === 'number') && typeof v[1] === 'string' && /^[0-9a-f-]{36}$/i.test(v[1])) {
      if (typeof v[0] === 'string' && Number.isNaN(Date.parse(v[0]))) throw new Error('bad time');
      return { sortValue: v[0], id: v[1] };
    }
  } catch {
    // fall through
  }
  throw badInput(field, `${field} is not a cursor returned by this API`);
}

/** Checks a page size (`first`): 1..100. */
export function pageSize(first: number | null | undefined, field = 'first', def = 20, max = 100): number {
  const n = first ?? def;
  if (!Number.isInteger(n) || n < 1 || n > max) throw badInput(field, `${field} must be 1..${max}`);
  return n;
}
