import { badInput } from './errors';

const UNIT_MS = { h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** `"<n>h"`, `"<n>d"` or `"<n>w"` -> the instant that far back from `now`. */
export function since(timeRange: string, field = 'timeRange', now: Date = new Date()): Date {
  const m = /^(\d{1,5})([hdw])$/.exec(timeRange.trim());
  if (!m || Number(m[1]) < 1) throw badInput(field, `${field} must look like "24h", "7d" or "4w"`);
  return new Date(now.getTime() - Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS]);
}

/** `occurredAt` lets importers write history; it may not be more than 5 minutes in the future. */
export function occurredAt(value: Date | null | undefined, field = 'occurredAt', now: Date = new Date()): Date {
  if (value === null || value === undefined) return now;
  if (Number.isNaN(value.getTime())) throw badInput(field, `${field} is not a valid time`);
  if (value.getTime() > now.getTime() + 5 * 60_000) throw badInput(field, `${field} may not be more than 5 minutes in the future`);
  return value;
}
