import { sql as raw } from 'kysely';
import { sqlClamp01, sqlDaysBetween, sqlDecay, sqlSignalDelta } from './usefulness.sql';

/** One step of a batch of signals: the row it moves, its place in the batch, its type and confidence. */
export interface SignalStep {
  target: string;
  ord: number;
  signal_type: string;
  confidence: number;
}

/**
 * One UPDATE that applies a batch of signals to `facts` or `fact_query_contexts`, computed in
 * PostgreSQL from the current (locked) rows: per row, the stored score is decayed toward 0.5 for
 * the time since its last signal, then each of its signals in input order adds
 * `weight * confidence * 0.1` and clamps to [0, 1] (a recursive walk, since clamping is not
 * additive). A whole statement written as a template: a recursive walk feeding an UPDATE of either
 * table; the steps travel as one JSON value, the organization bound, the formulas written in code.
 */
export function applyInOrder(table: 'facts' | 'fact_query_contexts', orgId: string, steps: SignalStep[]) {
  const lastUsed = raw`, updated_at = now(),
      last_used_at = CASE WHEN EXISTS (SELECT 1 FROM sig WHERE sig.target = t.id AND sig.signal_type = 'USED')
        THEN now() ELSE t.last_used_at END`;
  return raw<Record<string, never>>`WITH RECURSIVE sig AS (
      SELECT x.target, x.signal_type, ${raw.raw(sqlSignalDelta('x.signal_type', 'x.confidence'))} AS delta,
        row_number() OVER (PARTITION BY x.target ORDER BY x.ord) AS n
      FROM jsonb_to_recordset(${JSON.stringify(steps)}::jsonb) AS x(target uuid, ord int, signal_type text, confidence float8)),
    cur AS (
      SELECT t.id, t.usefulness, t.last_signal_at FROM ${raw.table(table)} t
      WHERE t.org_id = ${orgId} AND t.id IN (SELECT target FROM sig)),
    steps AS (
      SELECT c.id, 0::bigint AS n, ${raw.raw(sqlDecay('c.usefulness', sqlDaysBetween('c.last_signal_at', 'now()')))} AS score FROM cur c
      UNION ALL
      SELECT s.id, s.n + 1, ${raw.raw(sqlClamp01('s.score + g.delta'))}
      FROM steps s JOIN sig g ON g.target = s.id AND g.n = s.n + 1),
    final AS (SELECT DISTINCT ON (id) id, n, score FROM steps ORDER BY id, n DESC)
    UPDATE ${raw.table(table)} t SET usefulness = final.score, signal_count = t.signal_count + final.n::int,
      last_signal_at = greatest(coalesce(t.last_signal_at, now()), now())${table === 'facts' ? lastUsed : raw``}
    FROM final WHERE t.org_id = ${orgId} AND t.id = final.id`;
}
