/** `liveIn` of as-of.sql.ts for a row read into this process: no successor, and `at` within its validity. */
export function liveAt(
  r: { superseded_by: string | null; valid_from: Date | string | null; valid_to: Date | string | null },
  at: Date,
): boolean {
  const ms = at.getTime();
  const from = r.valid_from === null ? null : new Date(r.valid_from).getTime();
  const to = r.valid_to === null ? null : new Date(r.valid_to).getTime();
  return r.superseded_by === null && (from === null || from <= ms) && (to === null || to > ms);
}
