import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray } from '../core/sql';
import { runNamed } from './named-statements';

interface Pending {
  sql: string;
  params: readonly unknown[];
  /** the ids this statement's rows give to the reads that depend on them (`IdsOfRows`) */
  gives?: IdsOfRows;
  /** the names of the columns it returns, when known: its rows then travel as JSON arrays of values */
  columns?: readonly string[] | null;
  resolve(rows: unknown[]): void;
  reject(err: unknown): void;
}

/**
 * The ids (column `id`) of the first `limit` rows of a read not yet run, as a value a later read
 * of the same batch binds where it would bind an array of ids (`any(?::uuid[])`). Read in the same
 * statement, it becomes a subquery of that read's rows, so the two reach PostgreSQL as one
 * statement: an episode page and the context lists of its episodes. The ids are filled in when
 * the rows arrive, before any read of the batch is answered. A read that binds it in a later
 * statement waits for them and binds them as values.
 */
export class IdsOfRows extends Array<string> {
  // map, filter and slice of the ids make plain arrays
  static override get [Symbol.species]() {
    return Array;
  }

  private done!: () => void;
  /** resolved once the ids are filled in (or the read failed: then there are none) */
  readonly filled: Promise<void>;

  constructor(readonly limit: number) {
    super();
    this.filled = new Promise<void>((resolve) => (this.done = resolve));
  }

  receive(rows: readonly unknown[]): void {
    for (const r of rows.slice(0, this.limit)) this.push((r as { id: string }).id);
    this.done();
  }
}

/** The positions of a statement's own placeholders (`?`, not an escaped `\?`), in order. */
function placeholders(sql: string): number[] {
  const at: number[] = [];
  for (const m of sql.matchAll(/(\\*)\?/g)) if (m[1].length % 2 === 0) at.push(m.index + m[1].length);
  return at;
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
  read<T>(sql: string, params: readonly unknown[] = [], gives?: IdsOfRows, columns?: readonly string[] | null): Promise<T[]> {
    return new Promise<T[]>((resolve, reject) => {
      const first = this.pending.push({ sql, params, gives, columns, resolve: resolve as (rows: unknown[]) => void, reject }) === 1;
      // loaders dispatch their batches from process.nextTick callbacks queued in one go: a flush
      // queued by the first of them runs after the last
      if (first) process.nextTick(() => this.flushSoon());
    });
  }

  /**
   * Flushes now, or, when a read gives ids to reads that depend on it, once the loaders asked for
   * those reads have dispatched them (they do so from promise callbacks, after this turn's ticks).
   */
  private flushSoon(): void {
    if (this.pending.some((p) => p.gives)) setImmediate(() => void this.flush());
    else void this.flush();
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      // the ids given by reads of another statement are bound as values, once known
      const sources = new Map(batch.flatMap((p, i) => (p.gives ? [[p.gives, i] as const] : [])));
      for (const p of batch) {
        for (const v of p.params) if (v instanceof IdsOfRows && !sources.has(v)) await v.filled;
      }
      if (batch.length === 1 && !sources.size) {
        batch[0].resolve(await runNamed(this.em, batch[0].sql, batch[0].params.map(bound)));
        return;
      }
      const params: unknown[] = [];
      const parts = batch.map((p, i) => {
        const sql = withIdsOf(p, sources, params);
        return p.gives
          ? `(SELECT coalesce(${jsonRows(p, `q${i}`)}, '[]'::json) FROM q${i}) AS r${i}`
          : `(SELECT coalesce(${jsonRows(p, `q${i}`)}, '[]'::json) FROM (${sql}) q${i}) AS r${i}`;
      });
      // the reads that give ids are common table expressions, run once, that the others read
      const ctes = batch.flatMap((p, i) => (p.gives ? [`q${i} AS MATERIALIZED (${p.sql})`] : []));
      const cteParams = batch.flatMap((p) => (p.gives ? p.params : []));
      const [row] = await runNamed<Record<string, unknown[]>>(
        this.em,
        `${ctes.length ? `WITH ${ctes.join(',\n     ')}\n` : ''}SELECT ${parts.join(',\n       ')}`,
        [...cteParams, ...params].map(bound),
      );
      const found = batch.map((p, i) => (p.columns ? objectsOf(p.columns, row[`r${i}`] as unknown[][]) : row[`r${i}`]));
      batch.forEach((p, i) => p.gives?.receive(found[i]));
      batch.forEach((p, i) => p.resolve(found[i]));
    } catch (err) {
      for (const p of batch) {
        p.gives?.receive([]);
        p.reject(err);
      }
    }
  }
}

/**
 * The JSON array of a read's rows (alias `from`): each row an array of its values when the read's
 * columns are known, else an object keyed by column. PostgreSQL writes an array of the values for
 * about two thirds of the CPU of an object built from the whole row, and the text is shorter.
 */
const jsonRows = (p: Pending, from: string): string =>
  p.columns ? `json_agg(json_build_array(${p.columns.map((c) => `${from}."${c}"`).join(', ')}))` : `json_agg(${from})`;

/** Rows read as arrays of values, as the objects the driver would have made of them. */
function objectsOf(columns: readonly string[], rows: unknown[][]): Record<string, unknown>[] {
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let k = 0; k < columns.length; k++) row[columns[k]] = values[k];
    return row;
  });
}

/** A value as the driver takes it: the ids of rows read before, as an array. */
const bound = (v: unknown): unknown => (v instanceof IdsOfRows ? pgArray([...v]) : v);

/**
 * The text of a read of a batch, with the ids that a read of the same statement gives (`sources`:
 * its index) written as a subquery of that read's common table expression; its other values are
 * appended to `params`. A read that gives ids is not rewritten (it reads none).
 */
function withIdsOf(p: Pending, sources: ReadonlyMap<IdsOfRows, number>, params: unknown[]): string {
  if (p.gives) return p.sql;
  if (!p.params.some((v) => v instanceof IdsOfRows && sources.has(v))) {
    params.push(...p.params);
    return p.sql;
  }
  const at = placeholders(p.sql);
  let text = '';
  let from = 0;
  p.params.forEach((v, k) => {
    const source = v instanceof IdsOfRows ? sources.get(v) : undefined;
    if (source === undefined) {
      params.push(v);
      return;
    }
    text += `${p.sql.slice(from, at[k])}ARRAY(SELECT id FROM q${source} LIMIT ?)`;
    params.push((v as IdsOfRows).limit);
    from = at[k] + 1;
  });
  return text + p.sql.slice(from);
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
export function readStatement<T>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
  gives?: IdsOfRows,
  columns?: readonly string[] | null,
): Promise<T[]> {
  const batch = batches.get(em);
  if (batch) return batch.read<T>(sql, params, gives, columns);
  return runNamed<T>(em, sql, params.map(bound)).then((rows) => {
    gives?.receive(rows);
    return rows;
  });
}
