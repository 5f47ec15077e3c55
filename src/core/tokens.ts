import { createHash, hash, randomBytes } from 'node:crypto';

const PREFIX = 'ml_';

/** A new API token: 32 random bytes, URL-safe. */
export const newToken = (): string => PREFIX + randomBytes(32).toString('base64url');

/** Only this is stored; a token is compared by its hash (one-shot: no hash object per request). */
export const hashToken = (token: string): string => hash('sha256', token, 'hex');

/** The start of a token that identifies it to people without revealing it. */
export const tokenPrefix = (token: string): string => token.slice(0, PREFIX.length + 6);

/** Stable SHA-256 of a JSON value with sorted object keys (idempotency input hashes). */
export function hashJson(value: unknown): string {
  return createHash('sha256').update(stableStringify(value)).digest('hex');
}

function stableStringify(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return '[' + value.map(stableStringify).join(',') + ']';
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return '{' + entries.map(([k, v]) => JSON.stringify(k) + ':' + stableStringify(v)).join(',') + '}';
}
