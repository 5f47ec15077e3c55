// network failures of the driver, and SQLSTATEs of a server that is down, starting, shutting down or full
const CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout expired|Timeout acquiring a connection|the database system is (starting up|shutting down|in recovery mode)/i;

/**
 * True when an error means the database cannot be reached right now (connection refused or
 * dropped, server restarting, pool unable to connect), as opposed to a statement that failed:
 * the operation may succeed if retried once the pool reconnects. Follows wrapped errors.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let e = err;
  for (let depth = 0; depth < 5 && e !== null && typeof e === 'object'; depth++) {
    const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === 'string' && (CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (name === 'KnexTimeoutError' || name === 'ConnectionException') return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
    const next = e as { originalError?: unknown; cause?: unknown; errors?: unknown[] };
    e = next.originalError ?? next.cause ?? next.errors?.[0];
  }
  return false;
}
