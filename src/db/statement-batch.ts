import type { EntityManager } from '@mikro-orm/postgresql';
import { runNamed } from './named-statements';

interface Pending {
  sql: string;
  params: readonly unknown[];
  resolve(rows: unknown[]): void;
  reject(err: unknown): void;
}

/**
 * Coalesces the read statements that one request issues in the same turn of the event loop (the
 * batches of its loaders: an episode page's segments, canvas actions and feedback) into a single
 * statement, one round trip instead of one per loader. Each statement becomes a scalar subquery
 * that returns its rows as a JSON array, in the statement's own order; a statement issued alone is
 * sent as it is.
 *
 * Rows read through JSON differ from rows read directly only in representation: numbers that the
 * driver returns as strings (numeric, bigint) arrive as numbers, and timestamps arrive in ISO 8601
 * form. The row mappers accept both. Statements are sent as named prepared statements: the texts
 * of a batch depend only on which statements of code it combines.
 */
class StatementBatch {
  private pending: Pending[] = [];

  constructor(private readonly em: EntityManager) {}

  /** The rows of one read statement (`?` placeholders), sent together with the others of this turn. */
  read<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return new Promise<T[]>((resolve, reject) => {
      const first = this.pending.push({ sql, params, resolve: resolve as (rows: unknown[]) => void, reject }) === 1;
      // loaders dispatch their batches from process.nextTick callbacks queued in one go: a flush
      // queued by the first of them runs after the last
      if (first) process.nextTick(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      if (batch.length === 1) {
        batch[0].resolve(await runNamed(this.em, batch[0].sql, batch[0].params));
        return;
      }
      const columns = batch.map((p, i) => `(SELECT coalesce(json_agg(q${i}), '[]'::json) FROM (${p.sql}) q${i}) AS r${i}`);
      const [row] = await runNamed<Record<string, unknown[]>>(
        this.em,
        `SELECT ${columns.join(',\n       ')}`,
        batch.flatMap((p) => p.params),
      );
      batch.forEach((p, i) => p.resolve(row[`r${i}`]));
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}

/** The statement batch of an EntityManager made by `batchingReads` (its proxy). */
const batches = new WeakMap<EntityManager, StatementBatch>();

/**
 * The request's EntityManager, with `execute(sql, params)` of plain SQL going through a statement
 * batch; everything else (and `execute` with a query builder or another result mode) is the
 * EntityManager's own.
 */
export function batchingReads(em: EntityManager): EntityManager {
  const batch = new StatementBatch(em);
  const execute = (query: unknown, params?: unknown[], method?: string, ...rest: unknown[]) =>
    typeof query === 'string' && (method === undefined || method === 'all')
      ? batch.read(query, params)
      : (em.execute as (...a: unknown[]) => Promise<unknown>)(query, params, method, ...rest);
  const proxy = new Proxy(em, {
    get: (target, prop): unknown => (prop === 'execute' ? execute : Reflect.get(target, prop, target)),
    set: (target, prop, value) => Reflect.set(target, prop, value, target),
  });
  batches.set(proxy, batch);
  return proxy;
}

/**
 * The rows of a read statement whose text comes only from code: with the batch of a loader's
 * EntityManager, or alone as a named prepared statement.
 */
export function readStatement<T>(em: EntityManager, sql: string, params: readonly unknown[]): Promise<T[]> {
  const batch = batches.get(em);
  return batch ? batch.read<T>(sql, params) : runNamed<T>(em, sql, params);
}
