import { jsonBytes, KB10 } from '../../core/validate';

type Json = Record<string, unknown>;

const cut = (v: unknown): unknown => (typeof v === 'string' && v.length > 500 ? v.slice(0, 500) : v);

/**
 * Correction payloads are bounded: before/after over 10 KB are reduced to the top-level keys whose
 * values differ, strings cut to 500 characters, and `meta.reduced = true`. Returns null when they
 * still do not fit.
 */
export function reduceCorrection(before: Json, after: Json, meta: Json | null): { before: Json; after: Json; meta: Json | null } | null {
  if (jsonBytes(before) <= KB10 && jsonBytes(after) <= KB10) return { before, after, meta };
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
  );
  const pick = (o: Json) => Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, cut(o[k])]));
  const reduced = { before: pick(before), after: pick(after), meta: { ...(meta ?? {}), reduced: true } };
  return jsonBytes(reduced.before) <= KB10 && jsonBytes(reduced.after) <= KB10 ? reduced : null;
}
