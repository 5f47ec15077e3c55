import { type AliasedRawBuilder, type Expression, type RawBuilder, sql as raw } from 'kysely';

/**
 * The objects of a JSON array as a table of a built statement: `jsonb_to_recordset(?::jsonb) AS
 * alias(column type, ...)`, the array one bound value, the alias and the column definitions written
 * in code. `R` is the row it yields, composed from the table types.
 */
export function jsonRecords<R, A extends string>(values: readonly object[], alias: A, definition: string): AliasedRawBuilder<R, A> {
  return raw<R>`jsonb_to_recordset(${JSON.stringify(values)}::jsonb)`.as<A>(raw`${raw.raw(alias)}(${raw.raw(definition)})`);
}

/** A float8 array from a JSON array of numbers in order (`jsonb`), null when it is not an array. */
export const float8ArrayOfJson = (json: Expression<unknown>): RawBuilder<number[] | null> =>
  raw<number[] | null>`CASE WHEN jsonb_typeof(${json}) = 'array'
    THEN ARRAY(SELECT e::float8 FROM jsonb_array_elements_text(${json}) WITH ORDINALITY AS a(e, n) ORDER BY n) END`;
