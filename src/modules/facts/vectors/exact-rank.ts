import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { type Row, rows as runRows, sql } from '../../../db/typed-sql';
import { liveAt } from '../as-of';
import { FACT_COLUMNS_BUT_EMBEDDING, type FactRow, factFromRow } from '../fact.rows';
import { dimensionOf } from '../embedding-dimension';
import { changeRead } from './change-read';
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

/** What the statement reads of each candidate (alias `f`), with the days as the ranking statement computes them. */
const candidateRows = (orgId: string, candidates: string[]) =>
  sql
    .selectFrom('facts as f')
    .select([
      ...FACT_COLUMNS_BUT_EMBEDDING,
      // the embedding in PostgreSQL's binary array format
      raw<Buffer | null>`array_send(f.embedding)`.as('embedding'),
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

/**
 * Ranks the candidates of the vector index with recall's formula, in this process: one statement
 * reads them (with their query contexts, and the days since each last signal as the ranking
 * statement computes them with PostgreSQL's clock), then each gets the ranking statement's semantic
 * score, best matching query context (similarity >= 0.85, most similar first, then the latest
 * signal) or global usefulness, `minUsefulness` filter and final score, in the same floating-point
 * operations. Used for banks whose facts all have embeddings (text similarity needs PostgreSQL).
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
): Promise<RecalledFact[] | null> {
  let rows: Row<ReturnType<typeof candidateRows>>[];
  if (held) {
    const state = sql
      .selectFrom(changeRead(orgId, 'facts', held.cursor))
      .selectAll('l')
      .select(dimensionOf(orgId).as('dimension'));
    const read = await runRows(
      em,
      sql
        .selectFrom(state.as('l'))
        .leftJoinLateral(candidateRows(orgId, candidates).as('x'), (j) => j.onTrue())
        .select(['l.xmin', 'l.changes', 'l.dimension'])
        .selectAll('x'),
    );
    if (held.cursor.hasUnseen(read[0]) || Number(read[0].dimension) !== held.dimension || !held.unchanged()) return null;
    rows = read.filter((r): r is (typeof read)[number] & (typeof rows)[number] => r.id !== null);
  } else {
    if (candidates.length === 0) return [];
    rows = await runRows(em, candidateRows(orgId, candidates));
  }
  const qNormSq = sumOfSquares(qe);
  const qnorm = normalizeQuery(p.query);
  const scored = rows
    .filter(
      (r) =>
        r.bank_id === p.bankId &&
        r.text !== '' &&
        r.embedding !== null &&
        (!p.kinds || p.kinds.includes(r.kind as string)) &&
        (!p.statuses || p.statuses.includes(r.status)) &&
        liveAt(r, new Date(r.now)),
    )
    .map((stored) => {
      const r: FactRow = { ...stored, embedding: Array.from(decodeFloat8Array(stored.embedding!)) };
      const now = new Date(stored.now);
      const semantic = semanticFromCosine(cosineWithStored(r.embedding!, Number(stored.norm_sq), qe, qNormSq));
      let best: { sim: number; u: number; d: number; t: number | null } | null = null;
      for (const c of stored.contexts ?? []) {
        const sim = c.e !== null ? cosineWithStored(fromBase64(c.e)!, Number(c.q), qe, qNormSq) : c.n === qnorm ? 1 : null;
        if (sim === null || sim < CONTEXT_MATCH_COSINE) continue;
        const later = best !== null && sim === best.sim && c.t !== null && (best.t === null || c.t > best.t);
        if (best === null || sim > best.sim || later) best = { sim, u: Number(c.u), d: Number(c.d), t: c.t };
      }
      const use = best ? decayTowardNeutral(best.u, best.d) : decayTowardNeutral(Number(r.usefulness), Number(stored.days));
      return { r, now, semantic, use, fromContext: best !== null, final: finalScore(semantic, use, p.weight, p.boost) };
    })
    .filter((x) => x.use >= p.minUsefulness)
    .sort((a, b) => b.final - a.final || (a.r.id < b.r.id ? -1 : 1))
    .slice(0, p.limit);
  return scored.map((x) => ({
    fact: factFromRow(x.r, x.now),
    semanticScore: x.semantic,
    usefulnessScore: x.use,
    usefulnessSource: x.fromContext ? UsefulnessSource.QUERY_CONTEXT : UsefulnessSource.GLOBAL,
    finalScore: x.final,
  }));
}
