import {
  AliasNode,
  ColumnNode,
  type Compilable,
  DummyDriver,
  IdentifierNode,
  type OperationNode,
  ReferenceNode,
  type RootOperationNode,
  SelectQueryNode,
  type InferResult,
  type RawBuilder,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray } from '../core/sql';
import { IdsOfRows, readStatement } from './statement-batch';
import type { Tables } from './tables';

/**
 * Builds hand-written statements against the generated table types (`tables.ts`): a statement's
 * row type follows from the columns it selects, every value is a bound parameter, and identifiers
 * come only from code. It only builds SQL; `rows` runs it on a request's EntityManager, so the
 * statement joins that EntityManager's transaction and its statement batch.
 */
export const sql = new Kysely<Tables>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

export type Row<Q extends Compilable<unknown>> = InferResult<Q>[number];

/** The column name of a qualified column reference (`e.created_at` -> `created_at`). */
export type Unqualified<C extends string> = C extends `${string}.${infer N}` ? N : C;

/** The rows of a statement built with `sql`, run on the EntityManager (and its transaction). */
export async function rows<Q extends Compilable<unknown>>(em: EntityManager, query: Q): Promise<InferResult<Q>> {
  const { text, params } = toDriverText(query);
  return em.execute<InferResult<Q>>(text, params);
}

/**
 * The rows of a whole statement written as a template (`sql\`...\`` of kysely, values bound), for the
 * few that the builder cannot express plainly (recursive CTEs over vectors, multi-table writes in one
 * statement). Its row type `R` must be composed from the table types (`Selectable<FactsTable>`...)
 * and typed expressions, never written by hand.
 */
export async function templateRows<R>(em: EntityManager, statement: RawBuilder<R>): Promise<R[]> {
  const { text, params } = toDriverText({ compile: () => statement.compile(sql) });
  return em.execute<R[]>(text, params);
}

/**
 * `templateRows` with the values sent to PostgreSQL as bound parameters instead of quoted into the
 * text, for statements that carry a large document (a JSON array of hundreds of rows): the
 * EntityManager's `execute` escapes every value into the statement's text character by character,
 * which for a megabyte of JSON costs more CPU than the statement. Runs in the EntityManager's
 * transaction, if it is in one, and is logged as `execute` would log it.
 */
export async function boundTemplateRows<R>(em: EntityManager, statement: RawBuilder<R>): Promise<R[]> {
  return boundDriverRows<R>(em, toDriverText({ compile: () => statement.compile(sql) }));
}

/**
 * `rows` with the values bound as `boundTemplateRows` binds them, for a statement built with `sql`
 * that carries a large document (a write of hundreds of rows as one JSON array).
 */
export async function boundRows<Q extends Compilable<unknown>>(em: EntityManager, query: Q): Promise<InferResult<Q>> {
  return boundDriverRows<InferResult<Q>[number]>(em, toDriverText(query)) as Promise<InferResult<Q>>;
}

async function boundDriverRows<R>(em: EntityManager, { text, params }: { text: string; params: unknown[] }): Promise<R[]> {
  const trx: unknown = em.getTransactionContext();
  const logger = em.config.getLogger();
  const started = Date.now();
  try {
    const query = em.getKnex().raw(text, params as never);
    const result = (await (trx ? query.transacting(trx as never) : query)) as { rows: R[] };
    logger.logQuery({ query: text, params, took: Date.now() - started, results: result.rows.length, level: 'info' });
    return result.rows;
  } catch (e) {
    logger.logQuery({ query: text, params, took: Date.now() - started, level: 'error' });
    throw em.getDriver().convertException(e as Error);
  }
}

/**
 * The rows of a read statement built with `sql` whose text depends only on code (every value
 * bound, no list of values written out), as a named prepared statement: see `runNamed`.
 */
export async function readRows<Q extends Compilable<unknown>>(em: EntityManager, query: Q): Promise<InferResult<Q>> {
  const { text, params } = toDriverText(query);
  // the rows of a statement built with `sql` (the compiler does not simplify InferResult<Q>[number][])
  return readStatement(em, text, params) as Promise<InferResult<Q>>;
}

/** The first row of a statement built with `sql`, or undefined. */
export async function firstRow<Q extends Compilable<unknown>>(em: EntityManager, query: Q): Promise<Row<Q> | undefined> {
  const found: Row<Q>[] = await rows(em, query);
  return found[0];
}

/**
 * The compiled statement in the form the EntityManager runs: numbered placeholders (`$1`) become
 * positional `?` in order of appearance (a `?` of the statement's own, a JSON operator, is
 * escaped), and array values travel as one array literal, which the driver would otherwise expand
 * into a list.
 */
export function toDriverText(query: Compilable<unknown>): { text: string; params: unknown[] } {
  const compiled = query.compile();
  const params: unknown[] = [];
  const text = compiled.sql.replace(/\?/g, '\\?').replace(/\$(\d+)/g, (_, n: string) => {
    const value = compiled.parameters[Number(n) - 1];
    params.push(value instanceof Slot ? value : driverValue(value));
    return '?';
  });
  return { text, params };
}

/** The name a selection comes out under: its alias or its column; null for `*` or an expression without an alias. */
function outputName(selection: OperationNode): string | null {
  if (AliasNode.is(selection)) return IdentifierNode.is(selection.alias) ? selection.alias.name : null;
  if (ReferenceNode.is(selection)) return ColumnNode.is(selection.column) ? selection.column.column.name : null;
  if (ColumnNode.is(selection)) return selection.column.name;
  return null;
}

/**
 * The names of the columns a select statement returns, in order, when every selection names its
 * column plainly (lower-case identifiers, each once); null when one is `*` or unnamed.
 */
function outputColumns(node: RootOperationNode): string[] | null {
  if (!SelectQueryNode.is(node) || !node.selections) return null;
  const names = node.selections.map((s) => outputName(s.selection));
  if (names.some((n) => n === null || !/^[a-z_][a-z0-9_]*$/.test(n))) return null;
  return new Set(names).size === names.length ? (names as string[]) : null;
}

/** Stands for a value of a prepared statement while it is built; each run puts the caller's value in its place. */
class Slot {
  constructor(readonly name: string) {}

  /** a stand-in turned into text or a number was used other than as a bound value */
  [Symbol.toPrimitive](): never {
    throw new Error(`the value ${this.name} of a prepared statement was used other than as a bound value`);
  }
}

/** Shapes of one prepared statement kept built; a rarer shape past these is built on every run. */
const PLANS_PER_STATEMENT = 256;

/** Values of a prepared statement; only what the statement's text depends on goes in its shape. */
type Values = Record<string, unknown>;
type Shape = Record<string, boolean | number | string>;

/**
 * A statement built and compiled once for each shape, then only given values. Building and
 * compiling the same statement again on every request costs about 30 µs a statement (an episode
 * page runs four). `build` gets stand-ins for the values, which it may only hand to the builder as
 * values: never test them, compute with them or write them into the text (a stand-in that does not
 * come out as a bound value fails the first build). Whatever the text depends on (a filter that is
 * present, a column that is selected) goes in `shape`, a few flags whose combinations are few.
 */
export function prepared<V extends Values, S extends Shape, Q extends Compilable<unknown>>(build: (values: V, shape: S) => Q) {
  const plans = new Map<string, { text: string; params: unknown[]; columns: string[] | null }>();
  const planOf = (shape: S) => {
    const key = JSON.stringify(shape);
    let plan = plans.get(key);
    if (!plan) {
      const named = new Set<string>();
      const values = new Proxy({} as V, {
        get: (_, name) => {
          if (typeof name !== 'string') return undefined;
          named.add(name);
          return new Slot(name);
        },
      });
      const built = build(values, shape);
      plan = { ...toDriverText(built), columns: outputColumns(built.compile().query) };
      const bound = new Set(plan.params.filter((p): p is Slot => p instanceof Slot).map((p) => p.name));
      const lost = [...named].filter((n) => !bound.has(n));
      // a stand-in turned into text or a number throws at once (Slot); one read but never bound ends here
      if (lost.length > 0) throw new Error(`a prepared statement used the value(s) ${lost.join(', ')} other than as bound values`);
      // a statement with many optional conditions has more shapes than are worth keeping
      if (plans.size < PLANS_PER_STATEMENT) plans.set(key, plan);
    }
    return plan;
  };
  /** The text and values the EntityManager is given for this shape and these values. */
  const text = (shape: S, values: V) => {
    const plan = planOf(shape);
    return { text: plan.text, params: plan.params.map((p) => (p instanceof Slot ? driverValue(values[p.name]) : p)) };
  };
  return {
    text,
    /**
     * The rows of the statement of this shape with these values, run on the EntityManager (and its
     * transaction); `gives` takes the ids of its first rows for reads of the same batch.
     */
    rows: (em: EntityManager, shape: S, values: V, gives?: IdsOfRows): Promise<InferResult<Q>> => {
      const t = text(shape, values);
      // the rows of a statement built with `sql` (the compiler does not simplify InferResult<Q>[number][])
      return readStatement(em, t.text, t.params, gives, planOf(shape).columns) as Promise<InferResult<Q>>;
    },
  };
}

function driverValue(v: unknown): unknown {
  // the ids of another read's rows: the statement batch writes them as that read's subquery
  if (!Array.isArray(v) || v instanceof IdsOfRows) return v;
  return v.every((x) => typeof x === 'string') ? pgArray(v) : `{${v.map((x) => (x === null ? 'NULL' : String(x))).join(',')}}`;
}
