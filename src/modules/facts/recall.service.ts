import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors';
import { pgArray } from '../../core/sql';
import { embedding, limit, numberIn, text } from '../../core/validate';
import { orgDimension } from './embedding-dimension';
import { FACT_COLUMNS, type FactRow, factFromRow } from './fact.rows';
import type { RecallInput } from './facts.inputs';
import { type RecalledFact, UsefulnessSource } from './facts.type';
import { normalizeQuery } from './usefulness';
import { CONTEXT_MATCH_SQL, sqlCosine, sqlFinalScore, sqlSemanticFromCosine, sqlUsefulnessAt } from './usefulness.sql';

const MAX_QUERY = 2000;

export interface Params {
  bankId: string;
  query: string;
  queryEmbedding: number[] | null;
  limit: number;
  boost: boolean;
  weight: number;
  minUsefulness: number;
  kinds: string[] | null;
  statuses: string[] | null;
}

export function validateRecall(input: RecallInput): Params {
  text('input.bankId', input.bankId, 200, { required: true });
  text('input.query', input.query, MAX_QUERY, { required: true });
  if (input.kinds && input.kinds.length > 100) throw badInput('input.kinds', 'input.kinds must have at most 100 entries');
  return {
    bankId: input.bankId,
    query: input.query,
    queryEmbedding: embedding('input.queryEmbedding', input.queryEmbedding),
    limit: limit(input.limit, 10, 100, 'input.limit'),
    boost: input.boostByUsefulness ?? false,
    weight: numberIn('input.usefulnessWeight', input.usefulnessWeight, 0, 1) ?? 0.3,
    minUsefulness: numberIn('input.minUsefulness', input.minUsefulness, 0, 1) ?? 0,
    // an empty list filters nothing, like an absent one
    kinds: input.kinds?.length ? input.kinds : null,
    statuses: input.statuses?.length ? input.statuses : null,
  };
}

/**
 * The recall ranking as one statement: every fact of the bank that passes the filters is scored
 * in PostgreSQL (read through the `(org_id, bank_id)` index; stubs with empty text are left out),
 * joined to its best matching query context, and the top `limit` by final score come back. Bindings in order of the placeholders.
 */
export function rankingSql(p: Params): string {
  const bothEmbedded = (col: string) => `q.qe IS NOT NULL AND ${col} IS NOT NULL`;
  return `WITH q AS (SELECT ?::float8[] AS qe, ?::text AS qtext, ?::text AS qnorm, ?::float8 AS w, ?::boolean AS boost, ?::float8 AS min_use, now() AS t),
    ctx AS (
      SELECT DISTINCT ON (m.fact_id) m.fact_id, m.usefulness, m.last_signal_at FROM (
        SELECT c.fact_id, c.usefulness, c.last_signal_at,
          CASE WHEN ${bothEmbedded('c.query_embedding')} THEN ${sqlCosine('c.query_embedding', 'q.qe')}
               WHEN c.normalized_query = q.qnorm THEN 1.0::float8 END AS sim
        FROM fact_query_contexts c JOIN facts cf ON cf.org_id = c.org_id AND cf.id = c.fact_id, q
        WHERE c.org_id = ? AND cf.bank_id = ?${
          // without a query embedding only the same normalised text matches: read it through (org_id, normalized_query)
          p.queryEmbedding ? '' : ' AND c.normalized_query = q.qnorm'
        }) m
      WHERE m.sim >= ${CONTEXT_MATCH_SQL} ORDER BY m.fact_id, m.sim DESC, m.last_signal_at DESC NULLS LAST),
    scored AS (
      SELECT f.id,
        CASE WHEN ${bothEmbedded('f.embedding')} THEN ${sqlSemanticFromCosine(sqlCosine('f.embedding', 'q.qe'))}
             ELSE word_similarity(q.qtext, f.text)::float8 END AS semantic,
        ctx.fact_id IS NOT NULL AS from_context,
        coalesce(${sqlUsefulnessAt('ctx.usefulness', 'ctx.last_signal_at', 'q.t')}, ${sqlUsefulnessAt('f.usefulness', 'f.last_signal_at', 'q.t')}) AS use
      FROM facts f CROSS JOIN q LEFT JOIN ctx ON ctx.fact_id = f.id
      WHERE f.org_id = ? AND f.bank_id = ? AND f.text <> ''${p.kinds ? ' AND f.kind = ANY(?::text[])' : ''}${p.statuses ? ' AND f.status = ANY(?::text[])' : ''}),
    top AS (
      SELECT scored.*, ${sqlFinalScore('scored.semantic', 'scored.use', 'q.w', 'q.boost')} AS final
      FROM scored, q WHERE scored.use >= q.min_use
      ORDER BY final DESC, scored.id LIMIT ${p.limit})
    SELECT ${FACT_COLUMNS}, top.semantic, top.use, top.from_context, top.final
    FROM top JOIN facts f ON f.org_id = ? AND f.id = top.id
    ORDER BY top.final DESC, top.id`;
}

/** The ranking statement and its bindings (exported for the EXPLAIN check in tests). */
export function rankingQuery(orgId: string, p: Params, qe: number[] | null): [string, unknown[]] {
  const params: unknown[] = [qe ? `{${qe.join(',')}}` : null, p.query, normalizeQuery(p.query), p.weight, p.boost, p.minUsefulness, orgId, p.bankId, orgId, p.bankId];
  if (p.kinds) params.push(pgArray(p.kinds));
  if (p.statuses) params.push(pgArray(p.statuses));
  params.push(orgId);
  return [rankingSql({ ...p, queryEmbedding: qe }), params];
}

export async function recall(em: EntityManager, orgId: string, input: RecallInput): Promise<RecalledFact[]> {
  const p = validateRecall(input);
  let qe = p.queryEmbedding;
  if (qe) {
    const dim = await orgDimension(em, orgId);
    if (dim !== null && dim !== qe.length) throw badInput('input.queryEmbedding', `input.queryEmbedding must have ${dim} numbers, the embedding dimension of this organization`);
    if (dim === null) qe = null; // no fact or query context has an embedding yet
  }
  const [sql, params] = rankingQuery(orgId, p, qe);
  const rows = await em.execute<(FactRow & { semantic: number; use: number; from_context: boolean; final: number })[]>(sql, params);
  const now = new Date();
  return rows.map((r) => ({
    fact: factFromRow(r, now),
    semanticScore: Number(r.semantic),
    usefulnessScore: Number(r.use),
    usefulnessSource: r.from_context ? UsefulnessSource.QUERY_CONTEXT : UsefulnessSource.GLOBAL,
    finalScore: Number(r.final),
  }));
}
