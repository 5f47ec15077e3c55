/**
 * A PostgreSQL array literal for a text/uuid array binding (`?::uuid[]`, `?::text[]`).
 * The query builder would expand a JS array binding into a list, so arrays travel as one string.
 */
export function pgArray(values: readonly string[]): string {
  return '{' + values.map((v) => '"' + v.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"').join(',') + '}';
}
