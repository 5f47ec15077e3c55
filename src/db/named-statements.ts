import { createHash } from 'node:crypto';
import type { Configuration } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/** The ORMs (by configuration) whose reads run unnamed: `DB_PREPARED_STATEMENTS=false`, for a pooler. */
const turnedOff = new WeakSet<Configuration>();

/** Whether the ORM of this configuration runs reads as named prepared statements (`DB_PREPARED_STATEMENTS`). */
export function usePreparedStatements(config: Configuration, on: boolean): void {
  if (on) turnedOff.delete(config);
  else turnedOff.add(config);
}

/**
 * Statement names by text: a name is the digest of the text (and of the generation), so one text
 * has one name on every connection. Texts come from code, so they are few; past NAMES_KEPT (a
 * statement whose text would vary with its values), further texts run unnamed, and no connection
 * keeps more.
 */
const names = new Map<string, Named>();
const NAMES_KEPT = 2_000;
/** Moves on when a change of the schema left prepared statements unusable: every text gets a new name. */
let generation = 0;

/** A statement's name and its text as the driver takes it (numbered placeholders). */
interface Named {
  name: string;
  numbered: string;
}

function nameOf(text: string): Named | null {
  let named = names.get(text);
  if (named === undefined) {
    if (names.size >= NAMES_KEPT) return null;
    let n = 0;
    // `?` becomes `$1`, `$2`...; an escaped `\?` is a question mark of the statement's own
    const numbered = text.replace(/(\\*)\?/g, (_, escapes: string) => (escapes.length % 2 ? '?' : `$${++n}`));
    named = { name: `ml${generation}_${createHash('sha1').update(text).digest('hex')}`, numbered };
    names.set(text, named);
  }
  return named;
}

/** PostgreSQL's refusal to run a statement prepared before its result's columns changed type (a migration). */
const isStalePlan = (e: unknown) =>
  (e as { code?: unknown }).code === '0A000' && /cached plan must not change result type/.test(String((e as Error).message));

/**
 * The rows of a read statement (`?` placeholders, `\?` for a question mark of its own), run as a
 * named prepared statement of the connection it runs on: PostgreSQL parses and plans it once per
 * connection, then only binds values and executes it (an episode page's context lists cost the
 * database about 1.4 ms instead of 2.6). Statement texts come only from code (every value is
 * bound), so the statements a connection keeps are few.
 *
 * It runs where the EntityManager's own `execute` would (its transaction, if it is in one), is
 * logged and counted as that would be, and fails with the same errors. A statement prepared before
 * a migration changed the type of a column it returns (another instance migrating during a rolling
 * deploy) is refused by PostgreSQL on that connection: outside a transaction it is run again under
 * a new name, prepared anew.
 */
export async function runNamed<T>(em: EntityManager, text: string, params: readonly unknown[]): Promise<T[]> {
  const seen = generation;
  try {
    return await run<T>(em, text, params);
  } catch (e) {
    if (!isStalePlan(e) || em.getContext(false).getTransactionContext() !== undefined) throw e;
    // prepared before a migration changed a column it returns: prepare it anew, under new names
    if (generation === seen) {
      generation += 1;
      names.clear();
    }
    return run<T>(em, text, params);
  }
}

/** A pooled connection of the driver, as the query builder's pool hands it out. */
interface PooledConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}
interface ConnectionPool {
  acquireConnection(): Promise<PooledConnection>;
  releaseConnection(connection: PooledConnection): Promise<unknown>;
}

async function run<T>(em: EntityManager, text: string, params: readonly unknown[]): Promise<T[]> {
  const named = turnedOff.has(em.config) ? null : nameOf(text);
  if (named === null) return em.execute<T[]>(text, [...params]);
  const trx: unknown = em.getContext(false).getTransactionContext();
  const started = Date.now();
  const logger = em.config.getLogger();
  try {
    let rows: T[];
    if (trx) {
      // on the transaction's connection, through the query builder
      const query = em
        .getKnex()
        .raw(text, params as never)
        .options({ name: named.name })
        .transacting(trx as never);
      rows = ((await query) as { rows: T[] }).rows;
    } else {
      // straight on a connection of the pool: the query builder would only parse the text again
      const pool = em.getKnex().client as ConnectionPool;
      const connection = await pool.acquireConnection();
      try {
        rows = (await connection.query({ name: named.name, text: named.numbered, values: [...params] })).rows as T[];
      } finally {
        await pool.releaseConnection(connection);
      }
    }
    logger.logQuery({ query: text, params: [...params], took: Date.now() - started, results: rows.length, level: 'info' });
    return rows;
  } catch (e) {
    logger.logQuery({ query: text, params: [...params], took: Date.now() - started, level: 'error' });
    throw em.getDriver().convertException(e as Error);
  }
}
