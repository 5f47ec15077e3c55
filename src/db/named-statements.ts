import { createHash } from 'node:crypto';
import type { Configuration } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/** Organizations' databases whose reads run as named prepared statements (all, unless turned off for a pooler). */
const turnedOff = new WeakSet<Configuration>();

/** Whether the ORM of this configuration runs reads as named prepared statements (`DB_PREPARED_STATEMENTS`). */
export function usePreparedStatements(config: Configuration, on: boolean): void {
  if (on) turnedOff.delete(config);
  else turnedOff.add(config);
}

/**
 * Statement names by text: a name is the digest of the text, so one text has one name on every
 * connection. Texts come from code, so they are few; past NAMES_KEPT (a statement whose text
 * would vary with its values), further texts run unnamed, and no connection keeps more.
 */
const names = new Map<string, string>();
const NAMES_KEPT = 2_000;
function nameOf(text: string): string | null {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= NAMES_KEPT) return null;
    name = `ml_${createHash('sha1').update(text).digest('hex')}`;
    names.set(text, name);
  }
  return name;
}

/**
 * The rows of a read statement (`?` placeholders, `\?` for a question mark of its own), run as a
 * named prepared statement of the connection it runs on: PostgreSQL parses and plans it once per
 * connection, then only binds values and executes it (an episode page's context lists cost the
 * database about 1.4 ms instead of 2.6). Statement texts come only from code (every value is
 * bound), so the statements a connection keeps are few.
 *
 * It runs where the EntityManager's own `execute` would (its transaction, if it is in one), is
 * logged and counted as that would be, and fails with the same errors.
 */
export async function runNamed<T>(em: EntityManager, text: string, params: readonly unknown[]): Promise<T[]> {
  const name = turnedOff.has(em.config) ? null : nameOf(text);
  if (name === null) return em.execute<T[]>(text, [...params]);
  const trx: unknown = em.getContext(false).getTransactionContext();
  // the driver binds the values itself; knex's types know only its own value types
  const query = em
    .getKnex()
    .raw(text, params as never)
    .options({ name });
  if (trx) query.transacting(trx as never);
  const started = Date.now();
  const logger = em.config.getLogger();
  try {
    const res = (await query) as { rows: T[] };
    logger.logQuery({ query: text, params: [...params], took: Date.now() - started, results: res.rows.length, level: 'info' });
    return res.rows;
  } catch (e) {
    logger.logQuery({ query: text, params: [...params], took: Date.now() - started, level: 'error' });
    throw em.getDriver().convertException(e as Error);
  }
}
