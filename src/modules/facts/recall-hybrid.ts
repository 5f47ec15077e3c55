import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw, type RawBuilder } from 'kysely';
import { boundTemplateRows, templateRows } from '../../db/typed-sql';
import type { FactRow } from './fact.rows';
import { factFromRow } from './fact.rows';
import { bankStats, type CommonStems, commonStems } from './bank-stats';
import { RecallStrategy } from './facts.inputs';
import { type RecalledFact, UsefulnessSource } from './facts.type';
import { COMMON_POSTINGS, factFilters, lexicalCtes, lexicalScoreOf } from './lexical.sql';
import type { RecallParams as Params } from './recall-params';
import { normalizeQuery } from './usefulness';
import { factSource, joinFact, liveIn, orderedFacts, withoutJit } from './as-of.sql';
import { CONTEXT_MATCH_SQL, cosineWith, sumOfSquares, usefulnessNowOf } from './usefulness.sql';
import type { BankVectors } from './vectors/bank-vectors';
import { changeRead } from './vectors/change-read';
import type { Held } from './vectors/fact-index';
import { dimensionOf } from './embedding-dimension';

/** The lexical score's share in the fused score F (the embedding's is the rest). */
const LEXICAL_SHARE = 0.65;
/** Each list (lexical, semantic) brings at least this many candidates to the fusion, and at least `limit`. */
const FUSION_CANDIDATES = 50;
/** What the best neighbour at distance 1 and at distance 2 adds to a fact's score: HYBRID, and LEXICAL. */
const NEIGHBOURS = { hybrid: [0.6, 0.3], lexical: [0.7, 0.25] } as const;

export const fusionDepth = (limit: number) => Math.max(limit, FUSION_CANDIDATES);

/**
 * `cosineWith` with the query vector bound once as an array, the products summed in array order as
 * there. PostgreSQL plans an expression of one term per dimension in about 7 ms at 512 dimensions
 * (this statement is planned on every recall) but runs it twice as fast per row: the facts' cosines
 * keep it, the few query contexts of the pool take this one.
 */
function boundCosine(col: string, normSqCol: string, qe: number[]): RawBuilder<number> {
  const qNormSq = sumOfSquares(qe);
  if (qNormSq === 0) return raw<number>`0.0::float8`;
  const [c, n] = [raw.ref(col), raw.ref(normSqCol)];
  return raw<number>`(CASE WHEN ${n} = 0 THEN 0.0::float8 ELSE
    (SELECT sum(u.x * u.y) FROM unnest(${c}, ${qe}::float8[]) AS u(x, y)) / sqrt(${n} * ${qNormSq}::float8) END)`;
}

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
 * Recall ranked by `LEXICAL` (qe null) or `HYBRID` (with a query embedding `qe`), in one statement:
 *
 * - U: the best `fusionDepth(limit)` facts by lexical score, and (HYBRID) as many by cosine (among
 *   `semanticIds` when the vector index named them, else over the bank's facts with an embedding);
 * - W: U and the 4 facts before and after each in the bank's order of writing (`seq`);
 * - F of every fact of W: HYBRID `LEXICAL_SHARE * lexN + (1 - LEXICAL_SHARE) * semN`, the lexical
 *   score and the cosine min-max normalised over U (clipped to 0..1; a list whose min equals its
 *   max gives 1 to its best), LEXICAL the lexical score over U's best;
 * - S of a fact within 2 of a fact of U: `F + n1 * max(F(d-1), F(d+1)) + n2 * max(F(d-2), F(d+2))`
 *   (the turns around a fact often carry the answer's other half), relevance `S / (1 + n1 + n2)`;
 * - then usefulness, the `minUsefulness` filter, the final score, ties to the earlier fact.
 *
 * W's facts in `seq` order are consecutive in the bank within 2 of U's (each fact of U brings the 4
 * on each side), so the window functions read true neighbours; a fact at a bank's end has none.
 * The neighbour lookups carry ids and `seq` only (through the `(org_id, bank_id, seq)` index): the
 * rest of a fact, its vector above all, is read once per fact of W after duplicates are gone.
 */
function hybridStatement(
  p: Params,
  orgId: string,
  stats: { n: number; avgLen: number; common: CommonStems },
  qe: number[] | null,
  semanticIds: string[] | null,
  model: string | null,
): RawBuilder<Ranked> {
  const depth = fusionDepth(p.limit);
  const source = factSource(orgId, p);
  const scope = { orgId, bankId: p.bankId, query: p.query, kinds: p.kinds, statuses: p.statuses, ...stats, view: p, source };
  const filters = factFilters(scope);
  const cosOf = (alias: string) => (qe ? cosineWith(`${alias}.embedding`, `${alias}.embedding_norm_sq`, qe) : raw<number>`NULL::float8`);
  // a vector the server made is compared with the vectors of the same model only
  const hasVector = (alias: string) =>
    model === null
      ? raw`${raw.ref(`${alias}.embedding`)} IS NOT NULL`
      : raw`(${raw.ref(`${alias}.embedding`)} IS NOT NULL AND ${raw.ref(`${alias}.embedding_model`)} = ${model}::text)`;
  const sem = qe
    ? raw`, sem AS MATERIALIZED (
        SELECT f.id FROM ${source} f
         WHERE ${filters} AND ${hasVector('f')} ${semanticIds ? raw`AND f.id = any(${semanticIds}::uuid[])` : raw``}
         ORDER BY ${cosOf('f')} DESC, f.id LIMIT ${depth})`
    : raw``;
  return raw<Ranked>`WITH ${lexicalCtes(scope, depth, p.limit)}${sem},
    ${windowCtes(orgId, p, raw`SELECT id FROM lex ${qe ? raw`UNION SELECT id FROM sem` : raw``}`)},
    w AS MATERIALIZED (
      SELECT a.id, a.seq, f.kind, f.status, a.id IN (SELECT id FROM u) AS in_u,
             ${lexicalScoreOf('f', stats)} AS lexical, ${qe ? raw`CASE WHEN ${hasVector('f')} THEN ${cosOf('f')} END` : raw`NULL::float8`} AS cosine
        FROM around a ${joinFact(orgId, p, 'a.id')}),
    ${fusion(p, orgId, qe)}`;
}

/**
 * `u` (the facts of U, from the statement `ids` that names them) and `around` (W: each fact of U
 * and the 4 facts before and after it in the bank's order of writing, ids and `seq` only, through
 * the `(org_id, bank_id, seq)` index).
 */
function windowCtes(orgId: string, p: Params, ids: RawBuilder<unknown>): RawBuilder<unknown> {
  const side = (cmp: '<' | '>=', order: 'DESC' | 'ASC', n: number) =>
    raw`(${orderedFacts(
      orgId,
      p,
      'id, seq',
      raw`f.org_id = ${orgId}::uuid AND f.bank_id = ${p.bankId}::text AND f.text <> '' AND ${liveIn('f', p)} AND f.seq ${raw.raw(cmp)} u.seq`,
      `seq ${order}`,
      n,
    )})`;
  return raw`u AS MATERIALIZED (
      SELECT f.id, f.seq FROM (${ids}) x ${joinFact(orgId, p, 'x.id')}),
    around AS MATERIALIZED (
      SELECT DISTINCT ON (n.id) n.id, n.seq FROM u CROSS JOIN LATERAL (${side('<', 'DESC', 4)} UNION ALL ${side('>=', 'ASC', 5)}) n)`;
}

/**
 * From `w` (the facts of W: id, seq, kind, status, in_u, lexical score, cosine or null) on: the
 * normalisation over U, F, the neighbours' S and relevance, the filters, usefulness, the final
 * score and the rows of the best `limit` facts, in order.
 */
function fusion(p: Params, orgId: string, qe: number[] | null): RawBuilder<Ranked> {
  const qnorm = normalizeQuery(p.query);
  const [n1, n2] = qe ? NEIGHBOURS.hybrid : NEIGHBOURS.lexical;
  const contextSim = qe
    ? raw`CASE WHEN c.query_embedding IS NOT NULL THEN ${boundCosine('c.query_embedding', 'c.query_embedding_norm_sq', qe)}
               WHEN c.normalized_query = ${qnorm}::text THEN 1.0::float8 END`
    : raw`CASE WHEN c.normalized_query = ${qnorm}::text THEN 1.0::float8 END`;
  const norm = (x: string, lo: string, hi: string) =>
    raw.raw(`CASE WHEN ${x} IS NULL THEN 0.0 WHEN b.${hi} > b.${lo} THEN least(1.0, greatest(0.0, (${x} - b.${lo}) / (b.${hi} - b.${lo})))
                  WHEN ${x} >= b.${hi} THEN 1.0 ELSE 0.0 END`);
  const fused = qe
    ? raw`${LEXICAL_SHARE}::float8 * ${norm('w.lexical', 'lmin', 'lmax')} + ${1 - LEXICAL_SHARE}::float8 * ${norm('w.cosine', 'cmin', 'cmax')}`
    : raw`CASE WHEN b.lmax > 0 THEN least(1.0, w.lexical / b.lmax) ELSE 0.0 END`;
  const final = p.boost ? raw`(1.0::float8 - ${p.weight}::float8) * r.relevance + ${p.weight}::float8 * r.use` : raw`r.relevance`;
  return raw<Ranked>`b AS (
      SELECT min(lexical) FILTER (WHERE in_u) AS lmin, max(lexical) FILTER (WHERE in_u) AS lmax,
             min(cosine) FILTER (WHERE in_u) AS cmin, max(cosine) FILTER (WHERE in_u) AS cmax FROM w),
    fw AS (SELECT w.*, ${fused} AS f FROM w CROSS JOIN b),
    sw AS (
      SELECT fw.*,
             (fw.f + ${n1}::float8 * greatest(coalesce(lag(fw.f, 1) OVER o, 0.0), coalesce(lead(fw.f, 1) OVER o, 0.0))
                   + ${n2}::float8 * greatest(coalesce(lag(fw.f, 2) OVER o, 0.0), coalesce(lead(fw.f, 2) OVER o, 0.0)))
               / ${1 + n1 + n2}::float8 AS relevance,
             bool_or(fw.in_u) OVER (o ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS near
        FROM fw WINDOW o AS (ORDER BY fw.seq)),
    pool AS MATERIALIZED (
      SELECT sw.* FROM sw
       WHERE sw.near AND (${p.kinds}::text[] IS NULL OR sw.kind = any(${p.kinds}::text[]))
         AND (${p.statuses}::text[] IS NULL OR sw.status = any(${p.statuses}::text[]))),
    ctx AS (
      SELECT DISTINCT ON (m.fact_id) m.fact_id, m.usefulness, m.last_signal_at FROM (
        SELECT c.fact_id, c.usefulness, c.last_signal_at, ${contextSim} AS sim
          FROM fact_query_contexts c JOIN pool ON pool.id = c.fact_id WHERE c.org_id = ${orgId}::uuid) m
       WHERE m.sim >= ${raw.raw(CONTEXT_MATCH_SQL)}
       ORDER BY m.fact_id, m.sim DESC, m.last_signal_at DESC NULLS LAST),
    scored AS (
      SELECT pool.id, pool.seq, pool.lexical, pool.cosine, pool.relevance, ctx.fact_id IS NOT NULL AS from_context,
             CASE WHEN ctx.fact_id IS NOT NULL THEN ${usefulnessNowOf('ctx')} ELSE ${usefulnessNowOf('f')} END AS use
        FROM pool ${joinFact(orgId, p, 'pool.id')}
        LEFT JOIN ctx ON ctx.fact_id = pool.id),
    top AS (
      SELECT r.*, ${final} AS final FROM scored r
       WHERE r.use >= ${p.minUsefulness}::float8
       ORDER BY final DESC, r.seq LIMIT ${p.limit})
    SELECT f.id, f.org_id, f.created_at, f.bank_id, f.text, f.kind, f.external_id, f.scope, f.key, f.value, f.status, f.confidence,
           f.support_count, f.usefulness, f.signal_count, f.last_signal_at, f.last_used_at, f.updated_at, f.superseded_by, f.valid_from, f.valid_to,
           NULL::float8[] AS embedding, top.lexical, CASE WHEN top.cosine IS NOT NULL THEN greatest(0.0::float8, top.cosine) END AS semantic, top.relevance, top.use, top.from_context, top.final
      FROM top ${joinFact(orgId, p, 'top.id')}
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
  const statement = hybridStatement(p, orgId, stats, qe, semanticIds, model);
  const rows = p.asOf ? await withoutJit(em, (tx) => templateRows(tx, statement)) : await templateRows(em, statement);
  return rankedFacts(rows, qe ? RecallStrategy.HYBRID : RecallStrategy.LEXICAL);
}

function rankedFacts(rows: Ranked[], strategyUsed: RecallStrategy): RecalledFact[] {
  const now = new Date();
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

/** What the lexical statement found: its candidates, best first, and the query's stems with their idf, in its order. */
export interface LexicalFound {
  ids: string[];
  tqs: string[];
  idfs: number[];
  stats: { n: number; avgLen: number; common: CommonStems };
}

/**
 * The lexical side of HYBRID on its own (`lexicalCtes`): needing no query vector, it runs while the
 * query is embedded. Its stems and idf travel back so that the next statement scores the facts of
 * W with the same numbers, summed in the same order.
 */
export async function lexicalCandidates(em: EntityManager, orgId: string, p: Params): Promise<LexicalFound> {
  const stats = { ...(await bankStats(em, orgId, p.bankId)), common: await commonStems(em, COMMON_POSTINGS) };
  const scope = {
    orgId,
    bankId: p.bankId,
    query: p.query,
    kinds: p.kinds,
    statuses: p.statuses,
    ...stats,
    view: p,
    source: factSource(orgId, p),
  };
  const [row] = await templateRows(
    em,
    raw<{ ids: string[]; tqs: string[]; idfs: number[] }>`WITH ${lexicalCtes(scope, fusionDepth(p.limit), p.limit)}
      SELECT (SELECT coalesce(array_agg(l.id::text ORDER BY l.score DESC, l.id), '{}') FROM lex l) AS ids,
             (SELECT coalesce(array_agg(i.tq::text), '{}') FROM idf i) AS tqs,
             (SELECT coalesce(array_agg(i.idf), '{}') FROM idf i) AS idfs`,
  );
  return { ids: row.ids, tqs: row.tqs, idfs: row.idfs.map(Number), stats };
}

/**
 * The best `fusionDepth(limit)` of the index's candidates by exact cosine (ties to the smaller id,
 * as PostgreSQL orders uuids), from the vectors the bank holds; null when it does not hold one of them.
 */
function semanticTop(bank: BankVectors, ids: string[], qe: number[], qNormSq: number, depth: number): string[] | null {
  const scored: { id: string; c: number }[] = [];
  for (const id of ids) {
    const c = bank.exactCosine(id, qe, qNormSq);
    if (c === null) return null;
    scored.push({ id, c });
  }
  scored.sort((a, b) => b.c - a.c || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return scored.slice(0, depth).map((x) => x.id);
}

/**
 * HYBRID as `hybridStatement` ranks it, with every cosine computed in this process from the exact
 * vectors the index holds (`bank`), so no statement carries the query vector's terms (PostgreSQL
 * planned the 512 terms of each cosine on every recall) or reads a vector: U is the lexical
 * candidates (`lexical`, found while the query was embedded) and the best of the index's
 * `semanticIds` by exact cosine; one statement finds W and its lexical scores, another ranks W
 * with the cosines bound as an array. The arithmetic is the same as the single statement's, so the
 * answer is too. Null when the bank cannot give every cosine (the caller ranks with the single statement).
 *
 * With `held` (the bank as held, without a catch-up first), the statement that finds W also reads
 * the change log; null when it shows a change the index has not seen (or the index moved
 * meanwhile): the caller catches up and ranks again.
 */
export async function recallHybridHeld(
  em: EntityManager,
  orgId: string,
  p: Params,
  lexical: LexicalFound,
  qe: number[],
  bank: BankVectors,
  semanticIds: string[],
  held: Held | null = null,
): Promise<RecalledFact[] | null> {
  const qNormSq = sumOfSquares(qe);
  const sem = semanticTop(bank, semanticIds, qe, qNormSq, fusionDepth(p.limit));
  if (sem === null) return null;
  const inU = new Set(lexical.ids);
  for (const id of sem) inU.add(id);
  const windowRows = raw<{ id: string; seq: string; in_u: boolean; lexical: number }>`WITH idf AS MATERIALIZED (
        SELECT i.tq::tsquery AS tq, i.idf FROM unnest(${lexical.tqs}::text[], ${lexical.idfs}::float8[]) AS i(tq, idf)),
      ${windowCtes(orgId, p, raw`SELECT unnest(${[...inU]}::uuid[]) AS id`)}
      SELECT a.id, a.seq::text AS seq, a.id IN (SELECT id FROM u) AS in_u, ${lexicalScoreOf('f', lexical.stats)} AS lexical
        FROM around a ${joinFact(orgId, p, 'a.id')}`;
  let window: { id: string; seq: string; in_u: boolean; lexical: number }[];
  if (held) {
    const read = await boundTemplateRows(
      em,
      raw<{ xmin: string; changes: string; dimension: number | null; id: string | null; seq: string; in_u: boolean; lexical: number }>`
      SELECT l.xmin, l.changes, (${dimensionOf(orgId)}) AS dimension, x.*
        FROM ${changeRead(orgId, 'facts', held.cursor)} LEFT JOIN LATERAL (${windowRows}) x ON true`,
    );
    if (held.cursor.hasUnseen(read[0]) || Number(read[0].dimension) !== held.dimension || !held.unchanged()) return null;
    window = read.filter((r): r is typeof r & { id: string } => r.id !== null);
  } else window = await boundTemplateRows(em, windowRows);
  if (window.length === 0) return [];
  const cosines = window.map((w) => bank.exactCosine(w.id, qe, qNormSq));
  const rows = await boundTemplateRows(
    em,
    raw<Ranked>`WITH w AS MATERIALIZED (
        SELECT x.id, x.seq, f.kind, f.status, x.in_u, x.lexical, x.cosine
          FROM unnest(${window.map((w) => w.id)}::uuid[], ${window.map((w) => w.seq)}::bigint[], ${window.map((w) => w.in_u)}::bool[],
                      ${window.map((w) => Number(w.lexical))}::float8[], ${cosines}::float8[]) AS x(id, seq, in_u, lexical, cosine)
          ${joinFact(orgId, p, 'x.id')}),
      ${fusion(p, orgId, qe)}`,
  );
  return rankedFacts(rows, RecallStrategy.HYBRID);
}
