// The formulas of usefulness.ts as SQL expressions, for updates and ranking inside PostgreSQL.
// Arguments are SQL expressions (column names or casted placeholders), never user input.
import { type Expression, type RawBuilder, sql as raw } from 'kysely';
import { CONTEXT_MATCH_COSINE, NEUTRAL, SIGNAL_WEIGHTS, STEP, WEEKLY_RETENTION } from './usefulness';

export const sqlClamp01 = (x: string) => `least(1.0::float8, greatest(0.0::float8, ${x}))`;

export const sqlDecay = (score: string, days: string) =>
  `(${NEUTRAL}::float8 + (${score} - ${NEUTRAL}::float8) * power(${WEEKLY_RETENTION}::float8, greatest(0.0::float8, ${days}) / 7.0::float8))`;

/** Fractional days from `from` (nullable: 0) to `to` (`date_part` is float8 already; `extract` would go through numeric). */
export const sqlDaysBetween = (from: string, to: string) => `coalesce(date_part('epoch', ${to} - ${from}) / 86400.0::float8, 0.0::float8)`;

export const sqlUsefulnessAt = (score: string, lastSignalAt: string, now: string) => sqlDecay(score, sqlDaysBetween(lastSignalAt, now));

export const sqlApplySignal = (score: string, days: string, delta: string) => sqlClamp01(`${sqlDecay(score, days)} + ${delta}`);

const sqlSignalWeight = (type: string) =>
  `(CASE ${type} ${Object.entries(SIGNAL_WEIGHTS)
    .map(([k, w]) => `WHEN '${k}' THEN ${w}::float8`)
    .join(' ')} END)`;

export const sqlSignalDelta = (type: string, confidence: string) => `(${sqlSignalWeight(type)} * ${confidence} * ${STEP}::float8)`;

/** A float8 literal that reads back as exactly `x` (JavaScript prints the shortest decimal that round-trips). */
const sqlFloat8 = (x: number) => `'${x}'::float8`;

/** Sum of squares in array order: what the `*_norm_sq` columns store (PostgreSQL's float8 `sum` adds in the same order). */
export function sumOfSquares(v: readonly number[]): number {
  let s = 0;
  for (const x of v) s += x * x;
  return s;
}

/**
 * Up to this dimension the dot product is one expression over subscripts. Each subscript reads the
 * array where it is stored: in the row, which the facts tables keep for arrays up to about 8 KB
 * (STORAGE MAIN, toast_tuple_target). A larger array lives out of line, where every subscript
 * would fetch it again, so above this an aggregate over `unnest` reads it once per row.
 */
export const INLINE_DIMENSIONS = 768;

/**
 * Cosine of an array column with a constant vector `q`, 0 when either is all zeros, with the same
 * floating-point result as `cosine` (usefulness.ts): the dot product added up left to right (as one
 * arithmetic expression over subscripts and `q` as literals, several times cheaper per row than a
 * subquery over `unnest`), divided by `sqrt(stored sum of squares * sum of squares of q)`.
 */
export function sqlCosineWith(col: string, normSqCol: string, q: readonly number[]): string {
  const qNormSq = sumOfSquares(q);
  if (qNormSq === 0) return '0.0::float8';
  const dot =
    q.length <= INLINE_DIMENSIONS
      ? q.map((x, i) => `${col}[${i + 1}] * ${sqlFloat8(x)}`).join(' + ')
      : `(SELECT sum(x * y) FROM (SELECT unnest(${col}) AS x, unnest('{${q.join(',')}}'::float8[]) AS y) AS u)`;
  return `(CASE WHEN ${normSqCol} = 0 THEN 0.0::float8 ELSE (${dot}) / sqrt(${normSqCol} * ${sqlFloat8(qNormSq)}) END)`;
}

export const sqlSemanticFromCosine = (c: string) => `greatest(0.0::float8, ${c})`;

/** `(1 - w) * semantic + w * usefulness` when boosting, else the semantic score (boosting is known when the statement is built). */
export const sqlFinalScore = (semantic: string, usefulness: string, weight: string, boost: boolean) =>
  boost ? `((1.0::float8 - ${weight}) * ${semantic} + ${weight} * ${usefulness})` : semantic;

export const CONTEXT_MATCH_SQL = `${CONTEXT_MATCH_COSINE}::float8`;

/**
 * `sqlCosineWith` as an expression of a built statement, the same arithmetic with every number of
 * `q` (and its sum of squares) a bound float8 parameter: PostgreSQL folds them into constants when
 * it plans the statement, so a row pays what it pays for literals. The columns are written in code.
 */
export function cosineWith(col: string, normSqCol: string, q: readonly number[]): RawBuilder<number> {
  const qNormSq = sumOfSquares(q);
  if (qNormSq === 0) return raw<number>`0.0::float8`;
  const c = raw.ref(col);
  const dot =
    q.length <= INLINE_DIMENSIONS
      ? raw.join(
          q.map((x, i) => raw`${c}[${raw.raw(String(i + 1))}] * ${x}::float8`),
          raw` + `,
        )
      : raw`(SELECT sum(x * y) FROM (SELECT unnest(${c}) AS x, unnest(${[...q]}::float8[]) AS y) AS u)`;
  const n = raw.ref(normSqCol);
  return raw<number>`(CASE WHEN ${n} = 0 THEN 0.0::float8 ELSE (${dot}) / sqrt(${n} * ${qNormSq}::float8) END)`;
}

/** `sqlSemanticFromCosine` of a built expression. */
export const semanticFromCosineOf = (c: Expression<number>): RawBuilder<number> => raw<number>`greatest(0.0::float8, ${c})`;

/** `sqlFinalScore` of built expressions, the weight bound. */
export const finalScoreOf = (
  semantic: Expression<number>,
  usefulness: Expression<number>,
  weight: number,
  boost: boolean,
): RawBuilder<number> =>
  boost ? raw<number>`((1.0::float8 - ${weight}::float8) * ${semantic} + ${weight}::float8 * ${usefulness})` : raw<number>`${semantic}`;

/** `sqlUsefulnessAt` of the `usefulness` and `last_signal_at` columns of the row `alias`, decayed to now. */
export const usefulnessNowOf = (alias: string): RawBuilder<number> =>
  raw<number>`${raw.raw(sqlUsefulnessAt(`${alias}.usefulness`, `${alias}.last_signal_at`, 'now()'))}`;
