import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { rows, sql } from '../db/typed-sql';
import { badInput, conflict } from './errors';
import { hashJson } from './tokens';

const IDEMPOTENCY_TTL_HOURS = 24;
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

async function runOnce<T>(
  em: EntityManager,
  call: IdempotentCall,
  key: string | null,
  write: (tx: EntityManager) => Promise<T>,
): Promise<T> {
  if (key === null) return call.singleStatement ? write(em) : em.transactional(write);
  if (key.length === 0 || key.length > MAX_KEY) throw badInput('idempotencyKey', `idempotencyKey must be 1..${MAX_KEY} characters`);
  const requestHash = hashJson({ operation: call.operation, input: call.input });

  return em.transactional(async (tx) => {
    // a key claims its row, or takes over one that has expired
    const claim = sql
      .insertInto('idempotency_keys')
      .values({
        org_id: call.orgId,
        key,
        operation: call.operation,
        request_hash: requestHash,
        created_at: raw`now()`,
        expires_at: raw`now() + make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
      })
      .onConflict((oc) =>
        oc
          .columns(['org_id', 'key'])
          .doUpdateSet((eb) => ({
            operation: eb.ref('excluded.operation'),
            request_hash: eb.ref('excluded.request_hash'),
            result: null,
            created_at: eb.ref('excluded.created_at'),
            expires_at: eb.ref('excluded.expires_at'),
          }))
          .where('idempotency_keys.expires_at', '<=', raw<string>`now()`),
      )
      .returning('key');
    const claimed = await rows(tx, claim);
    if (claimed.length === 0) {
      const stored = sql
        .selectFrom('idempotency_keys')
        .select(['request_hash', 'result'])
        .where('org_id', '=', call.orgId)
        .where('key', '=', key);
      const [prior] = await rows(tx, stored);
      if (prior.request_hash !== requestHash) {
        throw conflict('idempotencyKey was already used with a different input', 'idempotencyKey');
      }
      // the stored result is the JSON of what the first call's write returned
      return prior.result as T;
    }
    const result = await write(tx);
    await tx.flush();
    const json = raw<string>`${JSON.stringify(result ?? null)}::jsonb`;
    await rows(tx, sql.updateTable('idempotency_keys').set({ result: json }).where('org_id', '=', call.orgId).where('key', '=', key));
    return result;
  });
}

/** Deletes expired keys in batches; returns how many were removed. */
export async function purgeExpiredIdempotencyKeys(em: EntityManager, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = sql
      .selectFrom('idempotency_keys')
      .select(raw<string>`ctid`.as('ctid'))
      .where('expires_at', '<=', raw<string>`now()`)
      .limit(batch);
    const purge = sql
      .with('gone', (db) =>
        db
          .deleteFrom('idempotency_keys')
          .where(raw`ctid`, 'in', expired)
          .returning(raw<number>`1`.as('one')),
      )
      .selectFrom('gone')
      .select(raw<number>`count(*)::int`.as('n'));
    const [{ n }] = await rows(em, purge);
    total += n;
    if (n < batch) return total;
  }
}
