import { type Expression, type RawBuilder, sql } from 'kysely';

/**
 * The keyset sort value of a timestamp column as text with microseconds, so a cursor round-trips
 * exactly (a JS Date would round PostgreSQL's microseconds away and skip or repeat rows).
 */
export const timeSortKey = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** `timeSortKey` of a column reference, as an expression of a built statement. */
export const timeSortKeyOf = (column: Expression<unknown>): RawBuilder<string> =>
  sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
