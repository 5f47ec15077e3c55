import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw, type RawBuilder } from 'kysely';
import { templateRows } from '../../db/typed-sql';
import type { FactRow } from './fact.rows';
import { factFromRow } from './fact.rows';
import { bankStats, type CommonStems, commonStems } from './bank-stats';
import { RecallStrategy } from './facts.inputs';
import { type RecalledFact, UsefulnessSource } from './facts.type';
import { COMMON_POSTINGS, factFilters, lexicalCtes, lexicalScoreOf } from './lexical.sql';
import type { RecallParams as Params } from './recall-params';
import { normalizeQuery } from './usefulness';
import { CONTEXT_MATCH_SQL, cosineWith, sumOfSquares, usefulnessNowOf } from './usefulness.sql';
import { cosineOf, fuse, type Pooled, type WindowRow } from './recall-fusion';

/** Each list (lexical, semantic) brings at least this many candidates to the fusion, and at least `limit`. */
const FUSION_CANDIDATES = 50;

export const fusionDepth = (limit: number) => Math.max(limit, FUSION_CANDIDATES);

type Stats = { n: number; avgLen: number; common: CommonStems };

/**
 * The window of a recall, in one statement: the lexical candidates (`lexicalCtes`), the semantic
 * ones (`semanticIds`, named by the vector index; without them (HYBRID) the best `depth` by cosine
 * ranked here), and every fact within 4 places of one of them in the bank's order of writing
 * (`seq`: 4 before, and 5 from each, through the `(org_id, bank_id, seq)` index), each with what the
 * fusion needs and nothing more: its lexical score, and (HYBRID) its vector in binary form when it
 * may be compared with the query's (cosines are computed by `fuse`, which is far cheaper than SQL
 * arithmetic over the arrays).
 */
function windowStatement(
  p: Params,
  orgId: string,
  stats: Stats,
  qe: number[] | null,
  semanticIds: string[] | null,
  model: string | null,
): RawBuilder<WindowRow> {
  const depth = fusionDepth(p.limit);
  const scope = { orgId, bankId: p.bankId, query: p.query, kinds: p.kinds, statuses: p.statuses, ...stats };
  // a vector the server made is compared with the vectors of the same model only
  const hasVector = hasVectorOf(model);
  const ranked = qe !== null && semanticIds === null;
  const sem = ranked
    ? raw`, sem AS MATERIALIZED (
        SELECT f.id FROM facts f WHERE ${factFilters(scope)} AND ${hasVector}
         ORDER BY ${cosineWith('f.embedding', 'f.embedding_norm_sq', qe)} DESC, f.id LIMIT ${depth})`
    : raw``;
  const inBank = raw`f.org_id = ${orgId}::uuid AND f.bank_id = ${p.bankId}::text AND f.text <> ''`;
  return raw<WindowRow>`WITH ${lexicalCtes(scope, depth, p.limit)}${sem},
    seeds AS MATERIALIZED (
      SELECT f.seq FROM facts f
       WHERE ${inBank} AND f.id = any(ARRAY(SELECT id FROM lex) || ${qe ? semanticIds : null}::uuid[]
                                      ${ranked ? raw`|| ARRAY(SELECT id FROM sem)` : raw``})),
    around AS MATERIALIZED (
      SELECT DISTINCT n.id FROM seeds u CROSS JOIN LATERAL (
        (SELECT f.id FROM facts f WHERE ${inBank} AND f.seq < u.seq ORDER BY f.seq DESC LIMIT 4)
        UNION ALL
        (SELECT f.id FROM facts f WHERE ${inBank} AND f.seq >= u.seq ORDER BY f.seq LIMIT 5)) n)
    SELECT f.id, f.seq, f.kind, f.status, ${lexicalScoreOf('f', stats)} AS lexical, f.id IN (SELECT id FROM lex) AS in_lex,
           ${ranked ? raw`f.id IN (SELECT id FROM sem)` : raw`f.id = any(${qe ? semanticIds : null}::uuid[])`} AS in_sem,
           ${qe ? raw`CASE WHEN ${hasVector} THEN array_send(f.embedding) END` : raw`NULL::bytea`} AS emb, f.embedding_norm_sq AS norm_sq
      FROM around a JOIN facts f ON f.org_id = ${orgId}::uuid AND f.id = a.id`;
}

const hasVectorOf = (model: string | null) =>
  model === null ? raw`f.embedding IS NOT NULL` : raw`(f.embedding IS NOT NULL AND f.embedding_model = ${model}::text)`;

/**
 * The best `depth` by cosine (then id) of the facts the vector index named that pass the filters and
 * have a vector to compare, their vectors read in binary form and compared here.
 */
async function bestByCosine(
  em: EntityManager,
  orgId: string,
  p: Params,
  qe: number[],
  qNormSq: number,
  ids: string[],
  model: string | null,
  depth: number,
): Promise<string[]> {
  const rows = await templateRows<{ id: string; emb: Buffer; norm_sq: number }>(
    em,
    raw`SELECT f.id, array_send(f.embedding) AS emb, f.embedding_norm_sq AS norm_sq FROM facts f
         WHERE f.org_id = ${orgId}::uuid AND f.id = any(${ids}::uuid[]) AND ${factFilters({ orgId, ...p })} AND ${hasVectorOf(model)}`,
  );
  return rows
    .map((r) => ({ id: r.id, cosine: cosineOf(r.emb, r.norm_sq, qe, qNormSq) }))
    .sort((a, b) => b.cosine - a.cosine || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, depth)
    .map((r) => r.id);
}

/**
 * `cosineWith` of a query context's embedding, the products summed in array order as there, with
 * the query vector bound once as an array: an expression of one term per dimension costs
 * PostgreSQL tens of milliseconds to plan at 512 dimensions.
 */
function contextCosine(qe: number[]): RawBuilder<number> {
  const qNormSq = sumOfSquares(qe);
  if (qNormSq === 0) return raw<number>`0.0::float8`;
  return raw<number>`(CASE WHEN c.query_embedding_norm_sq = 0 THEN 0.0::float8 ELSE
    (SELECT sum(u.x * u.y) FROM unnest(c.query_embedding, ${qe}::float8[]) AS u(x, y)) / sqrt(c.query_embedding_norm_sq * ${qNormSq}::float8) END)`;
}

/** What the ranking statement returns per fact. */
type Ranked = FactRow & { lexical: number; semantic: number | null; relevance: number; use: number; from_context: boolean; final: number };

/**
 * The facts of the pool with their usefulness (the best matching query context, else the fact's
 * own), the `minUsefulness` filter and the final score, the best `limit` with their rows.
 */
function rankingStatement(p: Params, orgId: string, pool: Pooled[], qe: number[] | null): RawBuilder<Ranked> {
  const qnorm = normalizeQuery(p.query);
  const contextSim = qe
    ? raw`CASE WHEN c.query_embedding IS NOT NULL THEN ${contextCosine(qe)}
               WHEN c.normalized_query = ${qnorm}::text THEN 1.0::float8 END`
    : raw`CASE WHEN c.normalized_query = ${qnorm}::text THEN 1.0::float8 END`;
  const final = p.boost ? raw`(1.0::float8 - ${p.weight}::float8) * r.relevance + ${p.weight}::float8 * r.use` : raw`r.relevance`;
  const col = <T>(f: (x: Pooled) => T) => pool.map(f);
  return raw<Ranked>`WITH pool AS MATERIALIZED (
      SELECT * FROM unnest(${col((x) => x.id)}::uuid[], ${col((x) => x.seq)}::bigint[], ${col((x) => x.lexical)}::float8[],
                           ${col((x) => x.cosine)}::float8[], ${col((x) => x.relevance)}::float8[]) AS t(id, seq, lexical, cosine, relevance)),
    ctx AS (
      SELECT DISTINCT ON (m.fact_id) m.fact_id, m.usefulness, m.last_signal_at FROM (
        SELECT c.fact_id, c.usefulness, c.last_signal_at, ${contextSim} AS sim
          FROM fact_query_contexts c JOIN pool ON pool.id = c.fact_id WHERE c.org_id = ${orgId}::uuid) m
       WHERE m.sim >= ${raw.raw(CONTEXT_MATCH_SQL)}
       ORDER BY m.fact_id, m.sim DESC, m.last_signal_at DESC NULLS LAST),
    scored AS (
      SELECT pool.id, pool.seq, pool.lexical, pool.cosine, pool.relevance, ctx.fact_id IS NOT NULL AS from_context,
             CASE WHEN ctx.fact_id IS NOT NULL THEN ${usefulnessNowOf('ctx')} ELSE ${usefulnessNowOf('f')} END AS use
        FROM pool JOIN facts f ON f.org_id = ${orgId}::uuid AND f.id = pool.id
        LEFT JOIN ctx ON ctx.fact_id = pool.id),
    top AS (
      SELECT r.*, ${final} AS final FROM scored r
       WHERE r.use >= ${p.minUsefulness}::float8
       ORDER BY final DESC, r.seq LIMIT ${p.limit})
    SELECT f.id, f.org_id, f.created_at, f.bank_id, f.text, f.kind, f.external_id, f.scope, f.key, f.value, f.status, f.confidence,
           f.support_count, f.usefulness, f.signal_count, f.last_signal_at, f.last_used_at, f.updated_at, f.embedding,
           top.lexical, CASE WHEN top.cosine IS NOT NULL THEN greatest(0.0::float8, top.cosine) END AS semantic, top.relevance, top.use, top.from_context, top.final
      FROM top JOIN facts f ON f.org_id = ${orgId}::uuid AND f.id = top.id
     ORDER BY top.final DESC, top.seq`;
}

/** Recall ranked by LEXICAL (qe null) or HYBRID (qe given); see `hybridStatement`. */
export async function recallHybrid(
  em: EntityManager,
  orgId: string,
  p: Params,
  qe: number[] | null,
  semanticIds: string[] | null,
  model: string | null = null,
): Promise<RecalledFact[]> {
  const stats = { ...(await bankStats(em, orgId, p.bankId)), common: await commonStems(em, COMMON_POSTINGS) };
  const qNormSq = qe ? sumOfSquares(qe) : 0;
  const depth = fusionDepth(p.limit);
  const semantic =
    qe && semanticIds && semanticIds.length > depth
      ? await bestByCosine(em, orgId, p, qe, qNormSq, semanticIds, model, depth)
      : semanticIds;
  const window = await templateRows(em, windowStatement(p, orgId, stats, qe, semantic, model));
  let pool = fuse(window, {
    qe,
    qNormSq,
    depth,
    kinds: p.kinds,
    statuses: p.statuses,
  });
  if (pool.length === 0) return [];
  // without boosting or a minimum the final score is the relevance: only the best `limit` need their usefulness
  if (!p.boost && p.minUsefulness === 0) pool = pool.sort((a, b) => b.relevance - a.relevance || a.seq - b.seq).slice(0, p.limit);
  const rows = await templateRows(em, rankingStatement(p, orgId, pool, qe));
  const now = new Date();
  const strategyUsed = qe ? RecallStrategy.HYBRID : RecallStrategy.LEXICAL;
  return rows.map((r) => ({
    fact: factFromRow(r, now),
    semanticScore: r.semantic === null ? null : Number(r.semantic),
    lexicalScore: Number(r.lexical),
    relevance: Number(r.relevance),
    strategyUsed,
    usefulnessScore: Number(r.use),
    usefulnessSource: r.from_context ? UsefulnessSource.QUERY_CONTEXT : UsefulnessSource.GLOBAL,
    finalScore: Number(r.final),
  }));
}
