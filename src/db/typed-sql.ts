import {
  type Compilable,
  DummyDriver,
  type InferResult,
  type RawBuilder,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray } from '../core/sql';
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
    params.push(driverValue(compiled.parameters[Number(n) - 1]));
    return '?';
  });
  return { text, params };
}

function driverValue(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  return v.every((x) => typeof x === 'string') ? pgArray(v) : `{${v.map((x) => (x === null ? 'NULL' : String(x))).join(',')}}`;
}
