import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { rows, sql, templateRows } from '../../db/typed-sql';
import { sqlClamp01, sqlDaysBetween, sqlDecay } from './usefulness.sql';

/**
 * The scores of `targets` (rows of `facts`, or of `fact_query_contexts`) computed again from their
 * remaining signals, as if the removed ones had never been given: from 0.5, each signal in the order
 * it was applied (time, then its place in its batch) decays the score for the time since the
 * previous one and adds its recorded delta, clamped; the formulas of `applyInOrder`, so the result is
 * what the incremental updates would have stored. A row left without signals is back at 0.5.
 */
function recompute(table: 'facts' | 'fact_query_contexts', orgId: string, targets: string[]) {
  const key = raw.ref(table === 'facts' ? 's.fact_id' : 's.context_id');
  const lastUsed = raw`, updated_at = now(), last_used_at = (SELECT max(g.created_at) FROM sig g WHERE g.target = t.id AND g.signal_type = 'USED')`;
  return raw<Record<string, never>>`WITH RECURSIVE sig AS (
      SELECT ${key} AS target, s.signal_type, s.delta, s.created_at,
        row_number() OVER (PARTITION BY ${key} ORDER BY s.created_at, s.ord, s.id) AS n
      FROM fact_signals s WHERE s.org_id = ${orgId} AND ${key} = any(${targets}::uuid[])),
    walk AS (
      SELECT x.id, 0::bigint AS n, 0.5::float8 AS score, NULL::timestamptz AS at FROM unnest(${targets}::uuid[]) AS x(id)
      UNION ALL
      SELECT w.id, w.n + 1, ${raw.raw(sqlClamp01(`${sqlDecay('w.score', sqlDaysBetween('w.at', 'g.created_at'))} + g.delta`))}, g.created_at
      FROM walk w JOIN sig g ON g.target = w.id AND g.n = w.n + 1),
    final AS (SELECT DISTINCT ON (id) id, n, score, at FROM walk ORDER BY id, n DESC)
    UPDATE ${raw.table(table)} t SET usefulness = final.score, signal_count = final.n::int, last_signal_at = final.at${table === 'facts' ? lastUsed : raw``}
    FROM final WHERE t.org_id = ${orgId} AND t.id = final.id`;
}

/**
 * Removes the credit that feedback or episodes earned (signals the server derived from them) and
 * computes the usefulness of every fact and query context they had moved again from the signals
 * that remain (a query context left without any is deleted), exactly as the formulas would have without them. Call it in the transaction that
 * deletes the feedback or the episodes. The facts are locked in id order first, as every signal
 * write does. Returns how many signals were removed.
 */
export async function removeCredit(
  tx: EntityManager,
  orgId: string,
  which: { feedbackIds?: readonly string[]; episodeIds?: readonly string[] },
): Promise<number> {
  const feedbackIds = [...(which.feedbackIds ?? [])];
  const episodeIds = [...(which.episodeIds ?? [])];
  if (feedbackIds.length === 0 && episodeIds.length === 0) return 0;
  const earned = raw<boolean>`(s.feedback_id = any(${feedbackIds}::uuid[]) OR s.episode_id = any(${episodeIds}::uuid[]))`;
  const lock = sql
    .selectFrom('facts as f')
    .select('f.id')
    .where('f.org_id', '=', orgId)
    .where('f.id', 'in', sql.selectFrom('fact_signals as s').select('s.fact_id').where('s.org_id', '=', orgId).where(earned))
    .orderBy('f.id')
    .forUpdate();
  if ((await rows(tx, lock)).length === 0) return 0;
  const removed = await rows(
    tx,
    sql.deleteFrom('fact_signals as s').where('s.org_id', '=', orgId).where(earned).returning(['s.fact_id', 's.context_id']),
  );
  if (removed.length === 0) return 0;
  await templateRows(tx, recompute('facts', orgId, [...new Set(removed.map((r) => r.fact_id))]));
  // a query context left without signals goes (its query was only ever known from them); the rest are computed again
  const contexts = [...new Set(removed.map((r) => r.context_id))];
  await templateRows(
    tx,
    raw`DELETE FROM fact_query_contexts c WHERE c.org_id = ${orgId} AND c.id = any(${contexts}::uuid[])
          AND NOT EXISTS (SELECT 1 FROM fact_signals s WHERE s.org_id = c.org_id AND s.context_id = c.id)`,
  );
  await templateRows(tx, recompute('fact_query_contexts', orgId, contexts));
  return removed.length;
}
