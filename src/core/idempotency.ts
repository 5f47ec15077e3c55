import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput, conflict } from './errors';
import { hashJson } from './tokens';

export const IDEMPOTENCY_TTL_HOURS = 24;
const MAX_KEY = 128;

export interface IdempotentCall {
  orgId: string;
  /** the caller's key; without one the write simply runs */
  key?: string | null;
  /** the mutation name: a key reused for another mutation is a conflict */
  operation: string;
  /** the input as given; its hash decides whether a repeat is the same call */
  input: unknown;
  /** without a key, a write of one SQL statement runs without BEGIN / COMMIT around it (atomic on its own) */
  singleStatement?: boolean;
}

/**
 * Runs `write` in a transaction at most once per (org, key) within 24 hours.
 *
 * The key row is inserted in the same transaction as the write, so a concurrent repeat blocks on
 * the unique key until the first commits (then replays its result) or rolls back (then runs
 * itself). `write` returns a small JSON value (usually ids) that is stored and replayed; the
 * resolver loads the entities from it, so a replay returns the same objects as the first call.
 */
export async function idempotent<T>(
  em: EntityManager,
  call: IdempotentCall,
  write: (tx: EntityManager) => Promise<T>,
  /** runs after the commit of a call that wrote (never for a replay or a rollback): publish events here */
  afterCommit?: (result: T) => void | Promise<void>,
): Promise<T> {
  const key = call.key ?? null;
  let wrote = false;
  const run = async (tx: EntityManager) => {
    const result = await write(tx);
    wrote = true;
    return result;
  };
  const result = await runOnce(em, call, key, run);
  if (wrote && afterCommit) await afterCommit(result);
  return result;
}

async function runOnce<T>(em: EntityManager, call: IdempotentCall, key: string | null, write: (tx: EntityManager) => Promise<T>): Promise<T> {
  if (key === null) return call.singleStatement ? write(em) : em.transactional(write);
  if (key.length === 0 || key.length > MAX_KEY) throw badInput('idempotencyKey', `idempotencyKey must be 1..${MAX_KEY} characters`);
  const requestHash = hashJson({ operation: call.operation, input: call.input });

  return em.transactional(async (tx) => {
    const claimed = await tx.execute<{ key: string }[]>(
      `INSERT INTO idempotency_keys (org_id, key, operation, request_hash, created_at, expires_at)
       VALUES (?, ?, ?, ?, now(), now() + interval '${IDEMPOTENCY_TTL_HOURS} hours')
       ON CONFLICT (org_id, key) DO UPDATE
         SET operation = EXCLUDED.operation, request_hash = EXCLUDED.request_hash, result = NULL,
             created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
         WHERE idempotency_keys.expires_at <= now()
       RETURNING key`,
      [call.orgId, key, call.operation, requestHash],
    );
    if (claimed.length === 0) {
      const [prior] = await tx.execute<{ request_hash: string; result: T }[]>(
        'SELECT request_hash, result FROM idempotency_keys WHERE org_id = ? AND key = ?',
        [call.orgId, key],
      );
      if (prior.request_hash !== requestHash) {
        throw conflict('idempotencyKey was already used with a different input', 'idempotencyKey');
      }
      return prior.result;
    }
    const result = await write(tx);
    await tx.flush();
    await tx.execute('UPDATE idempotency_keys SET result = ?::jsonb WHERE org_id = ? AND key = ?', [
      JSON.stringify(result ?? null),
      call.orgId,
      key,
    ]);
    return result;
  });
}

/** Deletes expired keys in batches; returns how many were removed. */
export async function purgeExpiredIdempotencyKeys(em: EntityManager, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await em.execute<{ n: number }[]>(
      `WITH gone AS (
         DELETE FROM idempotency_keys WHERE ctid IN (
           SELECT ctid FROM idempotency_keys WHERE expires_at <= now() LIMIT ${batch})
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
    );
    total += rows[0].n;
    if (rows[0].n < batch) return total;
  }
}
