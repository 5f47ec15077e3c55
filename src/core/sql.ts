import { type RawBuilder, sql } from 'kysely';

/**
 * A PostgreSQL array literal for a text/uuid array binding (`?::uuid[]`, `?::text[]`).
 * The query builder would expand a JS array binding into a list, so arrays travel as one string.
 */
export function pgArray(values: readonly string[]): string {
  return '{' + values.map((v) => '"' + v.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"').join(',') + '}';
}

/**
 * SQL text written in code with `?` placeholders, and its values, as one expression of a built
 * statement: the values stay bound parameters, in order. For text that other code still writes
 * with placeholders (the change log columns); the text must hold exactly one `?` per value.
 */
export function boundText<T = unknown>(text: string, values: readonly unknown[]): RawBuilder<T> {
  const parts = text.split('?');
  if (parts.length !== values.length + 1) throw new Error(`boundText: ${parts.length - 1} placeholders for ${values.length} values`);
  return sql<T>(Object.assign(parts, { raw: parts }), ...values);
}
