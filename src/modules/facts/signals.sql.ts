import { sqlClamp01, sqlDaysBetween, sqlDecay, sqlSignalDelta } from './usefulness.sql';

/**
 * One UPDATE that applies a batch of signals to `facts` or `fact_query_contexts`, computed in
 * PostgreSQL from the current (locked) rows: per row, the stored score is decayed toward 0.5 for
 * the time since its last signal, then each of its signals in input order adds
 * `weight * confidence * 0.1` and clamps to [0, 1] (a recursive walk, since clamping is not
 * additive). Bindings: the steps as JSON `[{target, ord, signal_type, confidence}]`, orgId, orgId.
 */
export function sqlApplyInOrder(table: 'facts' | 'fact_query_contexts', isFact: boolean): string {
  return `WITH RECURSIVE sig AS (
      SELECT x.target, x.signal_type, ${sqlSignalDelta('x.signal_type', 'x.confidence')} AS delta,
        row_number() OVER (PARTITION BY x.target ORDER BY x.ord) AS n
      FROM jsonb_to_recordset(?::jsonb) AS x(target uuid, ord int, signal_type text, confidence float8)),
    cur AS (
      SELECT t.id, t.usefulness, t.last_signal_at FROM ${table} t
      WHERE t.org_id = ? AND t.id IN (SELECT target FROM sig)),
    steps AS (
      SELECT c.id, 0::bigint AS n, ${sqlDecay('c.usefulness', sqlDaysBetween('c.last_signal_at', 'now()'))} AS score FROM cur c
      UNION ALL
      SELECT s.id, s.n + 1, ${sqlClamp01('s.score + g.delta')}
      FROM steps s JOIN sig g ON g.target = s.id AND g.n = s.n + 1),
    final AS (SELECT DISTINCT ON (id) id, n, score FROM steps ORDER BY id, n DESC)
    UPDATE ${table} t SET usefulness = final.score, signal_count = t.signal_count + final.n::int,
      last_signal_at = greatest(coalesce(t.last_signal_at, now()), now())${
        isFact
          ? `, updated_at = now(),
      last_used_at = CASE WHEN EXISTS (SELECT 1 FROM sig WHERE sig.target = t.id AND sig.signal_type = 'USED') THEN now() ELSE t.last_used_at END`
          : ''
      }
    FROM final WHERE t.org_id = ? AND t.id = final.id`;
}
