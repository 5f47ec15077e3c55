import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors';
import { pgArray } from '../../core/sql';
import { limit, numberIn, text } from '../../core/validate';
import { factEmbedding, orgDimension } from './embedding-dimension';
import { FACT_COLUMNS, type FactRow, factFromRow } from './fact.rows';
import type { RecallInput } from './facts.inputs';
import { type RecalledFact, UsefulnessSource } from './facts.type';
import { normalizeQuery } from './usefulness';
import { CONTEXT_MATCH_SQL, sqlCosineWith, sqlFinalScore, sqlFloat8, sqlSemanticFromCosine, sqlUsefulnessAt, sumOfSquares } from './usefulness.sql';
import { candidateIds } from './vectors/candidates';
import { rankCandidates } from './vectors/exact-rank';
import type { FactIndex } from './vectors/fact-index';

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
    queryEmbedding: factEmbedding('input.queryEmbedding', input.queryEmbedding),
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
 * The recall ranking as one statement and its bindings: every fact of the bank that passes the
 * filters is scored in PostgreSQL (read through the `(org_id, bank_id)` index; stubs with empty
 * text are left out), joined to its best matching query context, and the top `limit` by final
 * score come back. The query embedding is part of the statement (`sqlCosineWith`: one arithmetic
 * expression per row over the stored sums of squares), and what is known before the statement is
 * built (boosting, a zero `minUsefulness`) shapes it, so no row pays for the rest: usefulness is
 * decayed for every row only when it ranks or filters. Without a common table expression for the
 * inputs, PostgreSQL may scan a large bank with parallel workers.
 *
 * With `candidates` (the facts the vector index found able to reach the top `limit`), only they
 * and the facts without an embedding (ranked by text, found through a partial index) are scored,
 * with the same expressions.
 */
export function rankingQuery(orgId: string, p: Params, qe: number[] | null, candidates: string[] | null = null): [string, unknown[]] {
  const b: unknown[] = [];
  const bind = (value: unknown, type: string) => (b.push(value), `?::${type}`);
  const among = (alias: string) =>
    candidates ? ` AND (${alias}.id = ANY(${bind(pgArray(candidates), 'uuid[]')}) OR (${alias}.embedding IS NULL AND ${alias}.text <> ''))` : '';
  const qnorm = normalizeQuery(p.query);
  const contextSim = qe
    ? `CASE WHEN c.query_embedding IS NOT NULL THEN ${sqlCosineWith('c.query_embedding', 'c.query_embedding_norm_sq', qe)}
               WHEN c.normalized_query = ${bind(qnorm, 'text')} THEN 1.0::float8 END`
    : '1.0::float8';
  const contexts = `SELECT c.fact_id, c.usefulness, c.last_signal_at, ${contextSim} AS sim
        FROM fact_query_contexts c JOIN facts cf ON cf.org_id = c.org_id AND cf.id = c.fact_id
        WHERE c.org_id = ${bind(orgId, 'uuid')} AND cf.bank_id = ${bind(p.bankId, 'text')}${among('cf')}${
          // without a query embedding only the same normalised text matches: read it through (org_id, normalized_query)
          qe ? '' : ` AND c.normalized_query = ${bind(qnorm, 'text')}`
        }`;
  const semanticOf = (text: string) =>
    qe
      ? `CASE WHEN f.embedding IS NOT NULL THEN ${sqlSemanticFromCosine(sqlCosineWith('f.embedding', 'f.embedding_norm_sq', qe))}
             ELSE word_similarity(${text}, f.text)::float8 END`
      : `word_similarity(${text}, f.text)::float8`;
  const semantic = semanticOf(bind(p.query, 'text'));
  const filters = `f.org_id = ${bind(orgId, 'uuid')} AND f.bank_id = ${bind(p.bankId, 'text')} AND f.text <> ''${
    p.kinds ? ` AND f.kind = ANY(${bind(pgArray(p.kinds), 'text[]')})` : ''
  }${p.statuses ? ` AND f.status = ANY(${bind(pgArray(p.statuses), 'text[]')})` : ''}${among('f')}`;
  const final = sqlFinalScore('scored.semantic', 'scored.use', sqlFloat8(p.weight), p.boost);
  // usefulness is within [0, 1], so a zero minimum leaves nothing out
  const minimum = p.minUsefulness > 0 ? `WHERE scored.use >= ${sqlFloat8(p.minUsefulness)}` : '';
  // the top rows carry no embedding through the sort: their semantic score is computed again for
  // them alone (without boosting it is the final score)
  const sql = `WITH ctx AS (
      SELECT DISTINCT ON (m.fact_id) m.fact_id, m.usefulness, m.last_signal_at FROM (${contexts}) m
      WHERE m.sim >= ${CONTEXT_MATCH_SQL} ORDER BY m.fact_id, m.sim DESC, m.last_signal_at DESC NULLS LAST),
    scored AS (
      SELECT f.id, ${semantic} AS semantic, ctx.fact_id IS NOT NULL AS from_context,
        CASE WHEN ctx.fact_id IS NOT NULL THEN ${sqlUsefulnessAt('ctx.usefulness', 'ctx.last_signal_at', 'now()')}
             ELSE ${sqlUsefulnessAt('f.usefulness', 'f.last_signal_at', 'now()')} END AS use
      FROM facts f LEFT JOIN ctx ON ctx.fact_id = f.id
      WHERE ${filters}),
    top AS (
      SELECT scored.id, scored.from_context, scored.use, ${final} AS final FROM scored ${minimum}
      ORDER BY final DESC, scored.id LIMIT ${p.limit})
    SELECT ${FACT_COLUMNS}, ${p.boost ? semanticOf(bind(p.query, 'text')) : 'top.final'} AS semantic, top.use, top.from_context, top.final
    FROM top JOIN facts f ON f.org_id = ${bind(orgId, 'uuid')} AND f.id = top.id
    ORDER BY top.final DESC, top.id`;
  return [sql, b];
}

/**
 * Recall: with a query embedding and the vector index, the index (brought up to date first) names
 * the candidates, ranked here when the bank has no facts without an embedding, else by PostgreSQL
 * with the facts it ranks by text; without the index PostgreSQL ranks the whole bank.
 */
export async function recall(em: EntityManager, orgId: string, input: RecallInput, index: FactIndex | null = null): Promise<RecalledFact[]> {
  const p = validateRecall(input);
  let qe = p.queryEmbedding;
  let candidates: string[] | null = null;
  const candidateQuery = (embedding: number[]) => ({ ...p, embedding, normSq: sumOfSquares(embedding), normalizedQuery: normalizeQuery(p.query), nowMs: Date.now() });
  // a bank held while nothing is catching up: rank and read the change log in one statement
  const held = qe && index ? index.held(orgId, p.bankId) : null;
  if (qe && held && held.dimension === qe.length && held.bank.textOnly.size === 0) {
    const quick = candidateIds(held.bank, candidateQuery(qe));
    const answer = quick && (await rankCandidates(em, orgId, p, qe, quick, held));
    if (answer) return answer;
  }
  if (qe) {
    const { dimension: dim, bank } = index ? await index.prepare(em, orgId, p.bankId) : { dimension: await orgDimension(em, orgId), bank: null };
    if (dim !== null && dim !== qe.length) throw badInput('input.queryEmbedding', `input.queryEmbedding must have ${dim} numbers, the embedding dimension of this organization`);
    if (dim === null) qe = null; // no fact or query context has an embedding yet
    else if (bank) {
      candidates = candidateIds(bank, candidateQuery(qe));
      // a bank whose facts all have embeddings needs no text similarity: its candidates are ranked here
      if (candidates && bank.textOnly.size === 0) return (await rankCandidates(em, orgId, p, qe, candidates))!;
    }
  }
  const [sql, params] = rankingQuery(orgId, p, qe, candidates);
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
