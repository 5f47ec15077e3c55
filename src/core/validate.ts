import { badInput } from './errors';

/** Size of a JSON value as stored: bytes of its UTF-8 JSON text. */
export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value ?? null), 'utf8');

export const KB10 = 10 * 1024;

/** A JSON object (not an array or scalar) of at most `maxBytes`. */
export function jsonObject(field: string, value: unknown, maxBytes = KB10): Record<string, unknown> | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw badInput(field, `${field} must be a JSON object`);
  if (jsonBytes(value) > maxBytes) throw badInput(field, `${field} must be at most ${maxBytes} bytes of JSON`);
  return value as Record<string, unknown>;
}

/** A string of at most `max` characters; optionally non-empty after trimming. */
export function text(field: string, value: string | null | undefined, max: number, opts: { required?: boolean } = {}): string | null {
  if (value === null || value === undefined) {
    if (opts.required) throw badInput(field, `${field} is required`);
    return null;
  }
  if (opts.required && value.trim() === '') throw badInput(field, `${field} must not be empty`);
  if (value.length > max) throw badInput(field, `${field} must be at most ${max} characters`);
  return value;
}

/** A finite number in [min, max]. */
export function numberIn(field: string, value: number | null | undefined, min: number, max: number): number | null {
  if (value === null || value === undefined) return null;
  if (!Number.isFinite(value) || value < min || value > max) throw badInput(field, `${field} must be a number in ${min}..${max}`);
  return value;
}

/** A list limit: 1..max. */
export function limit(value: number | null | undefined, def: number, max = 100, field = 'limit'): number {
  const n = value ?? def;
  if (!Number.isInteger(n) || n < 1 || n > max) throw badInput(field, `${field} must be 1..${max}`);
  return n;
}

/** An embedding: finite numbers, at least one. */
export function embedding(field: string, value: number[] | null | undefined): number[] | null {
  if (value === null || value === undefined) return null;
  if (value.length === 0 || value.length > 8192) throw badInput(field, `${field} must have 1..8192 numbers`);
  if (!value.every(Number.isFinite)) throw badInput(field, `${field} must contain only finite numbers`);
  return value;
}
