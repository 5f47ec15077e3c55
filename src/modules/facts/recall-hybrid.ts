import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw, type RawBuilder } from 'kysely';
import { sql, templateRows, toDriverText } from '../../db/typed-sql';
import type { FactRow } from './fact.rows';
import { factFromRow } from './fact.rows';
import { bankStats, type CommonStems, commonStems } from './bank-stats';
import { RecallStrategy } from './facts.inputs';
import { type RecalledFact, UsefulnessSource } from './facts.type';
import { COMMON_POSTINGS, factFilters, lexicalCtes, lexicalScoreOf } from './lexical.sql';
import type { RecallParams as Params } from './recall-params';
import { normalizeQuery } from './usefulness';
import { CONTEXT_MATCH_SQL, cosineWith, usefulnessNowOf } from './usefulness.sql';

/** Reciprocal rank fusion's constant: a list's r-th fact adds 1 / (RRF_K + r). */
export const RRF_K = 60;
/** Each list (lexical, semantic) brings at least this many candidates to the fusion, and at least `limit`. */
export const FUSION_CANDIDATES = 50;

export const fusionDepth = (limit: number) => Math.max(limit, FUSION_CANDIDATES);

/** What the statement returns per fact. */
type Ranked = FactRow & {
  lexical: number;
  semantic: number | null;
  relevance: number;
  use: number;
  from_context: boolean;
  final: number;
};

/**
 * Recall ranked by `LEXICAL` (the lexical score is the relevance) or `HYBRID` (with a query
 * embedding `qe`): one statement takes the best `fusionDepth(limit)` facts by lexical score and the
 * best as many by cosine (among `semanticIds` when the vector index named them, else over the
 * bank's facts with an embedding), computes both scores exactly for each of their union, fuses
 * the ranks (reciprocal rank fusion, normalised to 0..1: relevance 1 is first in both lists),
 * then usefulness, the `minUsefulness` filter and the final score as for every strategy.
 */
function hybridStatement(
  p: Params,
  orgId: string,
  stats: { n: number; avgLen: number; common: CommonStems },
  qe: number[] | null,
  semanticIds: string[] | null,
): RawBuilder<Ranked> {
  const depth = fusionDepth(p.limit);
  const scope = { orgId, bankId: p.bankId, query: p.query, kinds: p.kinds, statuses: p.statuses, ...stats };
  const filters = factFilters(scope);
  const qnorm = normalizeQuery(p.query);
  const cos = qe ? cosineWith('f.embedding', 'f.embedding_norm_sq', qe) : raw<number>`NULL::float8`;
  const sem = qe
    ? raw`, sem AS MATERIALIZED (
        SELECT f.id FROM facts f
         WHERE ${filters} AND f.embedding IS NOT NULL ${semanticIds ? raw`AND f.id = any(${semanticIds}::uuid[])` : raw``}
         ORDER BY ${cos} DESC, f.id LIMIT ${depth})`
    : raw``;
  const contextSim = qe
    ? raw`CASE WHEN c.query_embedding IS NOT NULL THEN ${cosineWith('c.query_embedding', 'c.query_embedding_norm_sq', qe)}
               WHEN c.normalized_query = ${qnorm}::text THEN 1.0::float8 END`
    : raw`CASE WHEN c.normalized_query = ${qnorm}::text THEN 1.0::float8 END`;
  const relevance =
    qe === null
      ? raw`coalesce(s.lexical, 0.0::float8)`
      : raw`(CASE WHEN s.lexical > 0 THEN 1.0 / (${RRF_K} + rank() OVER (PARTITION BY s.lexical > 0 ORDER BY s.lexical DESC)) ELSE 0.0 END
           + CASE WHEN s.cosine IS NOT NULL THEN 1.0 / (${RRF_K} + rank() OVER (PARTITION BY s.cosine IS NOT NULL ORDER BY s.cosine DESC)) ELSE 0.0 END)
           * ${(RRF_K + 1) / 2}::float8`;
  const final = p.boost ? raw`(1.0::float8 - ${p.weight}::float8) * r.relevance + ${p.weight}::float8 * r.use` : raw`r.relevance`;
  return raw<Ranked>`WITH ${lexicalCtes(scope, depth, p.limit)}${sem},
    pool AS (SELECT id FROM lex ${qe ? raw`UNION SELECT id FROM sem` : raw``}),
    ctx AS (
      SELECT DISTINCT ON (m.fact_id) m.fact_id, m.usefulness, m.last_signal_at FROM (
        SELECT c.fact_id, c.usefulness, c.last_signal_at, ${contextSim} AS sim
          FROM fact_query_contexts c JOIN pool ON pool.id = c.fact_id WHERE c.org_id = ${orgId}::uuid) m
       WHERE m.sim >= ${raw.raw(CONTEXT_MATCH_SQL)}
       ORDER BY m.fact_id, m.sim DESC, m.last_signal_at DESC NULLS LAST),
    scored AS (
      SELECT f.id, ${lexicalScoreOf('f', stats)} AS lexical, ${qe ? raw`CASE WHEN f.embedding IS NOT NULL THEN ${cos} END` : raw`NULL::float8`} AS cosine,
             ctx.fact_id IS NOT NULL AS from_context,
             CASE WHEN ctx.fact_id IS NOT NULL THEN ${usefulnessNowOf('ctx')} ELSE ${usefulnessNowOf('f')} END AS use
        FROM pool JOIN facts f ON ${filters} AND f.id = pool.id
        LEFT JOIN ctx ON ctx.fact_id = f.id),
    fused AS (SELECT s.*, ${relevance} AS relevance FROM scored s),
    top AS (
      SELECT r.*, ${final} AS final FROM fused r
       WHERE r.use >= ${p.minUsefulness}::float8
       ORDER BY final DESC, r.id LIMIT ${p.limit})
    SELECT f.id, f.org_id, f.created_at, f.bank_id, f.text, f.kind, f.external_id, f.scope, f.key, f.value, f.status, f.confidence,
           f.support_count, f.usefulness, f.signal_count, f.last_signal_at, f.last_used_at, f.updated_at, f.embedding,
           top.lexical, greatest(0.0::float8, top.cosine) AS semantic, top.relevance, top.use, top.from_context, top.final
      FROM top JOIN facts f ON f.org_id = ${orgId}::uuid AND f.id = top.id
     ORDER BY top.final DESC, top.id`;
}

/** Recall ranked by LEXICAL (qe null) or HYBRID (qe given); see `hybridStatement`. */
export async function recallHybrid(
  em: EntityManager,
  orgId: string,
  p: Params,
  qe: number[] | null,
  semanticIds: string[] | null,
): Promise<RecalledFact[]> {
  const stats = { ...(await bankStats(em, orgId, p.bankId)), common: await commonStems(em, COMMON_POSTINGS) };
  const rows = await templateRows(em, hybridStatement(p, orgId, stats, qe, semanticIds));
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

/** `hybridStatement` as text with `?` placeholders and its bindings (for measurements). */
export function hybridQuery(
  orgId: string,
  p: Params,
  stats: { n: number; avgLen: number; common: CommonStems },
  qe: number[] | null,
  semanticIds: string[] | null,
): [string, unknown[]] {
  const { text, params } = toDriverText({ compile: () => hybridStatement(p, orgId, stats, qe, semanticIds).compile(sql) });
  return [text, params];
}
