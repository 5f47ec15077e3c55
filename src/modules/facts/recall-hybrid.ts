import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw, type RawBuilder } from 'kysely';
import { boundTemplateRows, templateRows } from '../../db/typed-sql';
import { FACT_COLUMNS_BUT_EMBEDDING, type FactRow, factFromRow } from './fact.rows';
import { bankStats, type CommonStems, commonStems } from './bank-stats';
import { RecallStrategy } from './facts.inputs';
import { type RecalledFact, UsefulnessSource } from './facts.type';
import { COMMON_POSTINGS, factFilters, lexicalCtes, lexicalScoreOf } from './lexical.sql';
import type { RecallParams as Params } from './recall-params';
import { CONTEXT_MATCH_COSINE, decayTowardNeutral, normalizeQuery } from './usefulness';
import { factSource, joinFact, liveIn, orderedFacts, withoutJit } from './as-of.sql';
import { CONTEXT_MATCH_SQL, cosineWith, sqlDaysBetween, sumOfSquares, usefulnessNowOf } from './usefulness.sql';
import { BINARY_CONTEXT_EMBEDDING, fromBase64 } from './vectors/float8-binary';
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

/** What the statement of `recallHybridHeld` returns per fact of W; the rest of a fact only for those within 2 of U (`near`). */
type WindowRow = Omit<FactRow, 'embedding'> & {
  seq: string;
  in_u: boolean;
  near: boolean;
  lexical: number;
  days: number | null;
  contexts: { n: string; e: string | null; q: number | null; u: number; d: number; t: number | null }[] | null;
};

/**
 * The statement of `recallHybridHeld`: W (each fact of U and the 4 facts before and after it in
 * the bank's order of writing) with each fact's lexical score, and for the facts within 2 of U
 * (the only ones that can be answered) their columns, query contexts and days since the last
 * signal as the ranking statement computes them with PostgreSQL's clock.
 */
function windowStatement(orgId: string, p: Params, lexical: LexicalFound, ids: string[]): RawBuilder<WindowRow> {
  // the fact's columns but its id (W's) and embedding, read with its lexical score, returned for the facts near U
  const names = FACT_COLUMNS_BUT_EMBEDDING.filter((c) => c !== 'f.id').map((c) => c.slice(2));
  const fact = raw.raw(names.map((c) => `f.${c}`).join(', '));
  const near = raw.raw(names.map((c) => `CASE WHEN wn.near THEN wn.${c} END AS ${c}`).join(', '));
  return raw<WindowRow>`WITH idf AS MATERIALIZED (
        SELECT i.tq::tsquery AS tq, i.idf FROM unnest(${lexical.tqs}::text[], ${lexical.idfs}::float8[]) AS i(tq, idf)),
      ${windowCtes(orgId, p, raw`SELECT unnest(${ids}::uuid[]) AS id`)},
      w AS (
        SELECT a.id, a.seq, a.id IN (SELECT id FROM u) AS in_u, ${lexicalScoreOf('f', lexical.stats)} AS lexical, ${fact}
          FROM around a ${joinFact(orgId, p, 'a.id')}),
      wn AS (SELECT w.*, bool_or(w.in_u) OVER (ORDER BY w.seq ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS near FROM w)
    SELECT wn.id, wn.seq::text AS seq, wn.in_u, wn.near, wn.lexical, ${near},
           CASE WHEN wn.near THEN ${raw.raw(sqlDaysBetween('wn.last_signal_at', 'now()'))} END AS days,
           CASE WHEN wn.near THEN (SELECT json_agg(json_build_object(
               'n', c.normalized_query, 'e', ${raw.raw(BINARY_CONTEXT_EMBEDDING)}, 'q', c.query_embedding_norm_sq, 'u', c.usefulness,
               'd', ${raw.raw(sqlDaysBetween('c.last_signal_at', 'now()'))}, 't', date_part('epoch', c.last_signal_at)))
             FROM fact_query_contexts c WHERE c.org_id = ${orgId}::uuid AND c.fact_id = wn.id) END AS contexts
      FROM wn`;
}

/**
 * HYBRID as `hybridStatement` ranks it, with every cosine computed in this process from the exact
 * vectors the index holds (`bank`) and the fusion computed here too, so no statement carries the
 * query vector or reads a vector: U is the lexical candidates (`lexical`, found while the query was
 * embedded) and the best of the index's `semanticIds` by exact cosine; one statement finds W, its
 * lexical scores and the rows, query contexts and usefulness of the facts that can be answered
 * (`windowStatement`), and `fuseWindow` ranks them with the single statement's arithmetic, in the
 * same order of floating-point operations, so the answer is the same. Null when the bank cannot
 * give every cosine (the caller ranks with the single statement).
 *
 * With `held` (the bank as held, without a catch-up first), that statement also reads the change
 * log; null when it shows a change the index has not seen (or the index moved meanwhile): the
 * caller catches up and ranks again.
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
  const statement = windowStatement(orgId, p, lexical, [...inU]);
  let window: WindowRow[];
  if (held) {
    const read = await boundTemplateRows(
      em,
      raw<{ xmin: string; changes: string; dimension: number | null } & WindowRow>`
      SELECT l.xmin, l.changes, (${dimensionOf(orgId)}) AS dimension, x.*
        FROM ${changeRead(orgId, 'facts', held.cursor)} LEFT JOIN LATERAL (${statement}) x ON true`,
    );
    if (held.cursor.hasUnseen(read[0]) || Number(read[0].dimension) !== held.dimension || !held.unchanged()) return null;
    window = read.filter((r) => r.id !== null);
  } else window = await boundTemplateRows(em, statement);
  return fuseWindow(p, window, qe, (id) => bank.exactCosine(id, qe, qNormSq));
}

/**
 * `fusion` of the single statement, computed here over W (`window`, with each fact's cosine from
 * `cosineOf`, null for a fact without a vector): the normalisation over U, F, the neighbours' S and
 * relevance, the filters, the best matching query context or global usefulness, the final score
 * and the best `limit`, ties to the earlier fact. Each number is computed with the same operations
 * in the same order as there (PostgreSQL's float8 is IEEE double arithmetic, as here); usefulness
 * decays with `Math.pow` where PostgreSQL uses `power`, which may differ in the last bit.
 */
function fuseWindow(p: Params, window: WindowRow[], qe: number[], cosineOf: (id: string) => number | null): RecalledFact[] {
  const rows = window
    .map((r) => ({ r, seq: Number(r.seq), lexical: Number(r.lexical), cosine: cosineOf(r.id) }))
    .sort((a, b) => a.seq - b.seq);
  let [lmin, lmax, cmin, cmax] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const x of rows) {
    if (!x.r.in_u) continue;
    lmin = Math.min(lmin, x.lexical);
    lmax = Math.max(lmax, x.lexical);
    if (x.cosine !== null) [cmin, cmax] = [Math.min(cmin, x.cosine), Math.max(cmax, x.cosine)];
  }
  // min and max of no value are NULL there: every comparison with them fails
  const norm = (x: number | null, lo: number, hi: number) =>
    x === null || hi === -Infinity ? 0 : hi > lo ? Math.min(1, Math.max(0, (x - lo) / (hi - lo))) : x >= hi ? 1 : 0;
  const f = rows.map((x) => LEXICAL_SHARE * norm(x.lexical, lmin, lmax) + (1 - LEXICAL_SHARE) * norm(x.cosine, cmin, cmax));
  const [n1, n2] = NEIGHBOURS.hybrid;
  const at = (i: number) => (i >= 0 && i < f.length ? f[i] : 0);
  const qnorm = normalizeQuery(p.query);
  const qNormSq = sumOfSquares(qe);
  const scored: { x: (typeof rows)[number]; relevance: number; use: number; fromContext: boolean; final: number }[] = [];
  rows.forEach((x, i) => {
    const r = x.r;
    if (!r.near || (p.kinds !== null && !p.kinds.includes(r.kind as string)) || (p.statuses !== null && !p.statuses.includes(r.status)))
      return;
    const relevance = (f[i] + n1 * Math.max(at(i - 1), at(i + 1)) + n2 * Math.max(at(i - 2), at(i + 2))) / (1 + n1 + n2);
    const best = bestContext(r.contexts, qe, qNormSq, qnorm);
    const use = best ? decayTowardNeutral(best.u, best.d) : decayTowardNeutral(Number(r.usefulness), Number(r.days));
    if (!(use >= p.minUsefulness)) return;
    const final = p.boost ? (1 - p.weight) * relevance + p.weight * use : relevance;
    scored.push({ x, relevance, use, fromContext: best !== null, final });
  });
  scored.sort((a, b) => b.final - a.final || a.x.seq - b.x.seq);
  const now = new Date();
  return scored.slice(0, p.limit).map(({ x, relevance, use, fromContext, final }) => ({
    fact: factFromRow({ ...x.r, embedding: null }, now),
    semanticScore: x.cosine === null ? null : Math.max(0, x.cosine),
    lexicalScore: x.lexical,
    relevance,
    strategyUsed: RecallStrategy.HYBRID,
    usefulnessScore: use,
    usefulnessSource: fromContext ? UsefulnessSource.QUERY_CONTEXT : UsefulnessSource.GLOBAL,
    finalScore: final,
  }));
}

/**
 * The query context of a fact that matches the query (similarity at least the match threshold: the
 * cosine of the query embeddings as `boundCosine` computes it, else the same normalised text), the
 * most similar first, then the latest signal; null when none does.
 */
function bestContext(contexts: WindowRow['contexts'], qe: number[], qNormSq: number, qnorm: string): { u: number; d: number } | null {
  let best: { sim: number; u: number; d: number; t: number | null } | null = null;
  for (const c of contexts ?? []) {
    const sim = c.e !== null ? boundCosineOf(fromBase64(c.e)!, Number(c.q), qe, qNormSq) : c.n === qnorm ? 1 : null;
    if (sim === null || !(sim >= CONTEXT_MATCH_COSINE)) continue;
    const later = best !== null && sim === best.sim && c.t !== null && (best.t === null || c.t > best.t);
    if (best === null || sim > best.sim || later) best = { sim, u: Number(c.u), d: Number(c.d), t: c.t };
  }
  return best;
}

/** `boundCosine`: the products summed in array order (pairs past the shorter array count nothing; none at all: null). */
function boundCosineOf(v: ArrayLike<number>, normSq: number, q: readonly number[], qNormSq: number): number | null {
  if (qNormSq === 0) return 0;
  if (normSq === 0) return 0;
  const n = Math.min(v.length, q.length);
  if (n === 0) return null;
  let dot = 0;
  for (let j = 0; j < n; j++) dot += v[j] * q[j];
  return dot / Math.sqrt(normSq * qNormSq);
}
