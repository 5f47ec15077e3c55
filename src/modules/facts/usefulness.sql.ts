// The formulas of usefulness.ts as SQL expressions, for updates and ranking inside PostgreSQL.
// Arguments are SQL expressions (column names or casted placeholders), never user input.
import { CONTEXT_MATCH_COSINE, NEUTRAL, SIGNAL_WEIGHTS, STEP, WEEKLY_RETENTION } from './usefulness';

export const sqlClamp01 = (x: string) => `least(1.0::float8, greatest(0.0::float8, ${x}))`;

export const sqlDecay = (score: string, days: string) =>
  `(${NEUTRAL}::float8 + (${score} - ${NEUTRAL}::float8) * power(${WEEKLY_RETENTION}::float8, greatest(0.0::float8, ${days}) / 7.0::float8))`;

/** Fractional days from `from` (nullable: 0) to `to`. */
export const sqlDaysBetween = (from: string, to: string) => `coalesce(extract(epoch from (${to} - ${from}))::float8 / 86400.0::float8, 0.0::float8)`;

export const sqlUsefulnessAt = (score: string, lastSignalAt: string, now: string) => sqlDecay(score, sqlDaysBetween(lastSignalAt, now));

export const sqlApplySignal = (score: string, days: string, delta: string) => sqlClamp01(`${sqlDecay(score, days)} + ${delta}`);

export const sqlSignalWeight = (type: string) =>
  `(CASE ${type} ${Object.entries(SIGNAL_WEIGHTS)
    .map(([k, w]) => `WHEN '${k}' THEN ${w}::float8`)
    .join(' ')} END)`;

export const sqlSignalDelta = (type: string, confidence: string) => `(${sqlSignalWeight(type)} * ${confidence} * ${STEP}::float8)`;

/**
 * Cosine of two float8[] of the same length; 0 when either is all zeros. The arrays are unnested
 * in the select list (a ProjectSet, about twice as fast as `FROM unnest(a, b)`, which materialises).
 */
export const sqlCosine = (a: string, b: string) =>
  `(SELECT CASE WHEN sum(x * x) = 0 OR sum(y * y) = 0 THEN 0.0::float8 ELSE sum(x * y) / sqrt(sum(x * x) * sum(y * y)) END FROM (SELECT unnest(${a}) AS x, unnest(${b}) AS y) AS u)`;

export const sqlSemanticFromCosine = (c: string) => `greatest(0.0::float8, ${c})`;

export const sqlFinalScore = (semantic: string, usefulness: string, weight: string, boost: string) =>
  `(CASE WHEN ${boost} THEN (1.0::float8 - ${weight}) * ${semantic} + ${weight} * ${usefulness} ELSE ${semantic} END)`;

export const CONTEXT_MATCH_SQL = `${CONTEXT_MATCH_COSINE}::float8`;
