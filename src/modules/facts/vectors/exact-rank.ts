import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { type Row, rows as runRows, sql } from '../../../db/typed-sql';
import { liveAt } from '../as-of';
import { FACT_COLUMNS_BUT_EMBEDDING, type FactRow, factFromRow } from '../fact.rows';
import { dimensionOf } from '../embedding-dimension';
import { changeRead } from './change-read';
import type { BankVectors } from './bank-vectors';
import type { Held } from './fact-index';
import { BINARY_CONTEXT_EMBEDDING, decodeFloat8Array, fromBase64 } from './float8-binary';
import { type RecalledFact, UsefulnessSource } from '../facts.type';
import type { RecallParams as Params } from '../recall-params';
import { CONTEXT_MATCH_COSINE, decayTowardNeutral, finalScore, normalizeQuery, semanticFromCosine } from '../usefulness';
import { sqlDaysBetween, sumOfSquares } from '../usefulness.sql';

/**
 * Cosine as the ranking statement computes it: the dot product added up left to right, divided by
 * sqrt(stored sum of squares * sum of squares of the query); 0 when either is zero.
 */
function cosineWithStored(v: ArrayLike<number>, normSq: number, q: readonly number[], qNormSq: number): number {
  if (qNormSq === 0 || normSq === 0) return 0;
  let dot = 0;
  for (let i = 0; i < q.length; i++) dot += v[i] * q[i];
  return dot / Math.sqrt(normSq * qNormSq);
}

/**
 * What the statement reads of each candidate (alias `f`), with the days as the ranking statement
 * computes them; `withVector`: its embedding too (in PostgreSQL's binary array format), else only
 * whether it has one (the cosine then comes from the index's exact vector).
 */
const candidateRows = (orgId: string, candidates: string[], withVector: boolean) =>
  sql
    .selectFrom('facts as f')
    .select([
      ...FACT_COLUMNS_BUT_EMBEDDING,
      withVector ? raw<Buffer | null>`array_send(f.embedding)`.as('embedding') : raw<Buffer | null>`NULL::bytea`.as('embedding'),
      raw<boolean>`f.embedding IS NOT NULL`.as('has_embedding'),
      'f.embedding_norm_sq as norm_sq',
      raw<string>`now()`.as('now'),
      // days since the last signal, as the ranking statement computes them (0 without a signal)
      raw<number>`${raw.raw(sqlDaysBetween('f.last_signal_at', 'now()'))}`.as('days'),
      // query contexts: normalised query, embedding, its sum of squares, usefulness, days since and time (epoch s) of the last signal
      raw<
        { n: string; e: string | null; q: number | null; u: number; d: number; t: number | null }[] | null
      >`(SELECT json_agg(json_build_object(
          'n', c.normalized_query, 'e', ${raw.raw(BINARY_CONTEXT_EMBEDDING)}, 'q', c.query_embedding_norm_sq, 'u', c.usefulness,
          'd', ${raw.raw(sqlDaysBetween('c.last_signal_at', 'now()'))}, 't', date_part('epoch', c.last_signal_at)))
        FROM fact_query_contexts c WHERE c.org_id = f.org_id AND c.fact_id = f.id)`.as('contexts'),
    ])
    .where('f.org_id', '=', orgId)
    .where('f.id', '=', raw<string>`any(${candidates}::uuid[])`);

type CandidateRow = Row<ReturnType<typeof candidateRows>>;

/** The ranking order: final score, best first, ties to the smaller id (as PostgreSQL orders uuids). */
const byFinal = (a: { final: number; id: string }, b: { final: number; id: string }) => b.final - a.final || (a.id < b.id ? -1 : 1);

/**
 * Ranks the candidates of the vector index with recall's formula, in this process: each gets the
 * ranking statement's semantic score, best matching query context (similarity >= 0.85, most
 * similar first, then the latest signal) or global usefulness, `minUsefulness` filter and final
 * score, in the same floating-point operations. Used for banks whose facts all have embeddings
 * (text similarity needs PostgreSQL).
 *
 * The candidates' rows are read in one statement, with their query contexts and the days since
 * each last signal as the ranking statement computes them with PostgreSQL's clock. When `vectors`
 * (the bank the candidates come from) holds the exact vectors, the cosines are computed from them
 * before that statement (the products and sums of the stored vectors, so the same numbers) and no
 * vector is read; without boosting the final score is the semantic score, so the candidates are
 * ordered first and only the best `limit` rows are read (the next ones only when filters leave
 * some of those out). Otherwise every candidate is read with its vector.
 *
 * With `held` (the bank was ranked without a catch-up first), the same statement reads the change
 * log; null when it shows a change the cache has not seen (or the cache moved meanwhile): the
 * caller catches up and ranks again.
 */
export async function rankCandidates(
  em: EntityManager,
  orgId: string,
  p: Params,
  qe: number[],
  candidates: string[],
  held: Held | null = null,
  vectors: BankVectors | null = held?.bank ?? null,
): Promise<RecalledFact[] | null> {
  const qNormSq = sumOfSquares(qe);
  // without boosting (and with no usefulness floor) the order is the cosines': the best rows come
  // first, and only the cosines that can be among them are computed
  const top = vectors && !p.boost && p.minUsefulness === 0 ? bestByCosine(vectors, candidates, qe, qNormSq, p.limit) : null;
  const cosines = top === null && vectors ? heldCosines(vectors, candidates, qe, qNormSq) : null;
  let next = top ? top.first.length : candidates.length;
  const first = top ? top.first : candidates;
  const withVector = top === null && cosines === null;
  let rows: CandidateRow[];
  if (held) {
    const state = sql
      .selectFrom(changeRead(orgId, 'facts', held.cursor))
      .selectAll('l')
      .select(dimensionOf(orgId).as('dimension'));
    const read = await runRows(
      em,
      sql
        .selectFrom(state.as('l'))
        .leftJoinLateral(candidateRows(orgId, first, withVector).as('x'), (j) => j.onTrue())
        .select(['l.xmin', 'l.changes', 'l.dimension'])
        .selectAll('x'),
    );
    if (held.cursor.hasUnseen(read[0]) || Number(read[0].dimension) !== held.dimension || !held.unchanged()) return null;
    rows = read.filter((r): r is (typeof read)[number] & CandidateRow => r.id !== null);
  } else {
    if (candidates.length === 0) return [];
    rows = await runRows(em, candidateRows(orgId, first, withVector));
  }
  let cosineOf = top ? top.cosineOf : cosines ? new Map(candidates.map((id, k) => [id, cosines[k]])) : null;
  const ranked = score(rows, p, qe, qNormSq, cosineOf);
  // filters left some of the best out (a validity that ended since the index looked): the next
  // ones, in the order of every candidate's cosine (the first `next` of that order are the ones read)
  let ordered: string[] | null = null;
  if (top && ranked.length < p.limit && next < candidates.length) {
    const all = heldCosines(vectors!, candidates, qe, qNormSq)!;
    cosineOf = new Map(candidates.map((id, k) => [id, all[k]]));
    ordered = candidates
      .map((id, k) => ({ id, final: semanticFromCosine(all[k]) }))
      .sort(byFinal)
      .map((x) => x.id);
  }
  while (ordered && ranked.length < p.limit && next < ordered.length) {
    const more = ordered.slice(next, (next = Math.min(ordered.length, next + Math.max(p.limit, 2 * (p.limit - ranked.length)))));
    ranked.push(...score(await runRows(em, candidateRows(orgId, more, false)), p, qe, qNormSq, cosineOf));
  }
  return ranked
    .sort(byFinal)
    .slice(0, p.limit)
    .map((x) => ({
      fact: factFromRow(x.r, x.now),
      semanticScore: x.semantic,
      usefulnessScore: x.use,
      usefulnessSource: x.fromContext ? UsefulnessSource.QUERY_CONTEXT : UsefulnessSource.GLOBAL,
      finalScore: x.final,
    }));
}

/**
 * The best `limit` candidates by exact cosine (ranking order: semantic score, ties to the smaller
 * id), computing as few exact cosines as their bounds allow: the candidates are taken by the upper
 * bound of their cosine from the 8-bit codes, best first, until the `limit`-th best exact score
 * beats the bound of every candidate left. Exact cosines may be read from a file
 * (`ExactVectors`), one read each. Null when the bank does not hold one of them exactly.
 */
function bestByCosine(bank: BankVectors, candidates: string[], qe: number[], qNormSq: number, limit: number) {
  if (!bank.holdsExact) return null;
  const query = bank.queryCodes(qe, qNormSq);
  const his: number[] = [];
  for (const id of candidates) {
    const hi = bank.cosineUpper(id, query);
    if (hi === null) return null;
    his.push(Math.max(0, hi));
  }
  const order = Array.from(candidates.keys()).sort((a, b) => his[b] - his[a]);
  const best: { id: string; final: number }[] = [];
  const cosineOf = new Map<string, number>();
  for (const k of order) {
    // every candidate left scores at most its bound: none can reach the `limit`-th best
    if (best.length >= limit && best[limit - 1].final > his[k]) break;
    const cosine = bank.exactCosine(candidates[k], qe, qNormSq);
    if (cosine === null) return null;
    cosineOf.set(candidates[k], cosine);
    const x = { id: candidates[k], final: semanticFromCosine(cosine) };
    let at = best.length;
    while (at > 0 && byFinal(x, best[at - 1]) < 0) at--;
    best.splice(at, 0, x);
  }
  return { first: best.slice(0, limit).map((x) => x.id), cosineOf };
}

/** The cosines of the candidates from the exact vectors `bank` holds, in their order; null when it does not hold one of them. */
function heldCosines(bank: BankVectors, candidates: string[], qe: number[], qNormSq: number): Float64Array | null {
  if (!bank.holdsExact) return null;
  const out = new Float64Array(candidates.length);
  for (let k = 0; k < candidates.length; k++) {
    const c = bank.exactCosine(candidates[k], qe, qNormSq);
    if (c === null) return null;
    out[k] = c;
  }
  return out;
}

/** The rows that pass recall's filters, scored (`cosineOf`: the cosines already computed, else from the rows' vectors). */
function score(rows: CandidateRow[], p: Params, qe: number[], qNormSq: number, cosineOf: Map<string, number> | null) {
  const qnorm = normalizeQuery(p.query);
  return rows
    .filter(
      (r) =>
        r.bank_id === p.bankId &&
        r.text !== '' &&
        r.has_embedding &&
        (!p.kinds || p.kinds.includes(r.kind as string)) &&
        (!p.statuses || p.statuses.includes(r.status)) &&
        liveAt(r, new Date(r.now)),
    )
    .map((stored) => {
      const embedding = stored.embedding === null ? null : Array.from(decodeFloat8Array(stored.embedding));
      const r: FactRow = { ...stored, embedding };
      const now = new Date(stored.now);
      const cosine = cosineOf?.get(r.id) ?? cosineWithStored(embedding!, Number(stored.norm_sq), qe, qNormSq);
      const semantic = semanticFromCosine(cosine);
      let best: { sim: number; u: number; d: number; t: number | null } | null = null;
      for (const c of stored.contexts ?? []) {
        const sim = c.e !== null ? cosineWithStored(fromBase64(c.e)!, Number(c.q), qe, qNormSq) : c.n === qnorm ? 1 : null;
        if (sim === null || sim < CONTEXT_MATCH_COSINE) continue;
        const later = best !== null && sim === best.sim && c.t !== null && (best.t === null || c.t > best.t);
        if (best === null || sim > best.sim || later) best = { sim, u: Number(c.u), d: Number(c.d), t: c.t };
      }
      const use = best ? decayTowardNeutral(best.u, best.d) : decayTowardNeutral(Number(r.usefulness), Number(stored.days));
      return { id: r.id, r, now, semantic, use, fromContext: best !== null, final: finalScore(semantic, use, p.weight, p.boost) };
    })
    .filter((x) => x.use >= p.minUsefulness);
}
