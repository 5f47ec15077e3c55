import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors';
import { since } from '../../core/time-range';
import { limit as checkLimit, text } from '../../core/validate';
import { EPISODE_COLUMNS, episodeFromRow, type EpisodeRow } from '../episodes/episode.rows';
import type { Episode } from '../episodes/episode.type';
import { type CanvasAction, canvasType } from '../shared/canvas-vocabulary';
import { CanvasInsights, CanvasTypeStats } from './canvas.type';
import { aggregateFeedbackScoreSql } from '../shared/episode-feedback-counters';

/** Episodes of an agent with at least one matching canvas action in the range, newest first. */
export async function episodesByCanvasType(
  em: EntityManager,
  orgId: string,
  args: { agentId: string; canvasType: string; action?: CanvasAction | null; timeRange: string; limit: number },
): Promise<Episode[]> {
  const n = checkLimit(args.limit, 10);
  const params: unknown[] = [orgId, args.agentId, canvasType('canvasType', args.canvasType), since(args.timeRange).toISOString()];
  if (args.action) params.push(args.action);
  const rows = await em.execute<EpisodeRow[]>(
    `SELECT ${EPISODE_COLUMNS} FROM episodes e
      WHERE e.org_id = ? AND e.agent_id = ? AND EXISTS (
        SELECT 1 FROM canvas_audits c WHERE c.org_id = e.org_id AND c.episode_id = e.id AND c.canvas_type = ? AND c.created_at >= ?
        ${args.action ? 'AND c.action = ?' : ''})
      ORDER BY e.created_at DESC, e.id DESC LIMIT ?`,
    [...params, n],
  );
  return rows.map(episodeFromRow);
}

interface StatsRow {
  canvas_type: string;
  component_type: string | null;
  by_type: number;
  presentations: number;
  closes: number;
  submits: number;
  ended_submit: number;
  avg_engagement: number | null;
  avg_feedback: number | null;
}

/**
 * Engagement per canvas type and per (type, component) in one statement: engagement is the time
 * from a PRESENT to the next CLOSE or SUBMIT of the same canvas (window over each canvas id).
 */
export async function canvasInsights(em: EntityManager, orgId: string, agentId: string, timeRange: string, quickCloseSeconds: number): Promise<CanvasInsights> {
  text('agentId', agentId, 200, { required: true });
  if (!Number.isFinite(quickCloseSeconds) || quickCloseSeconds < 0) throw badInput('quickCloseSeconds', 'quickCloseSeconds must be a number >= 0');
  const rows = await em.execute<StatsRow[]>(
    `WITH a AS (
       SELECT c.canvas_type, c.component_type, c.episode_id, c.action, c.created_at,
              min(CASE WHEN c.action IN ('CLOSE', 'SUBMIT') THEN c.created_at END) OVER w AS next_end,
              min(CASE WHEN c.action = 'SUBMIT' THEN c.created_at END) OVER w AS next_submit
         FROM canvas_audits c
        WHERE c.org_id = ? AND c.agent_id = ? AND c.created_at >= ?
       WINDOW w AS (PARTITION BY coalesce(c.canvas_id, c.id::text) ORDER BY c.created_at, c.id ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)
     ), s AS (
       SELECT canvas_type, component_type, grouping(component_type) AS by_type,
              count(*) FILTER (WHERE action = 'PRESENT')::int AS presentations,
              count(*) FILTER (WHERE action = 'CLOSE')::int AS closes,
              count(*) FILTER (WHERE action = 'SUBMIT')::int AS submits,
              count(*) FILTER (WHERE action = 'PRESENT' AND next_submit IS NOT NULL AND next_submit = next_end)::int AS ended_submit,
              avg(extract(epoch FROM next_end - created_at)) FILTER (WHERE action = 'PRESENT' AND next_end IS NOT NULL)::float8 AS avg_engagement
         FROM a GROUP BY GROUPING SETS ((canvas_type), (canvas_type, component_type))
     ), f AS (
       SELECT x.canvas_type, x.component_type, x.by_type, avg(${aggregateFeedbackScoreSql('e')})::float8 AS avg_feedback
         FROM (SELECT DISTINCT canvas_type, NULL::text AS component_type, 1 AS by_type, episode_id FROM a WHERE episode_id IS NOT NULL
               UNION
               SELECT DISTINCT canvas_type, component_type, 0, episode_id FROM a WHERE episode_id IS NOT NULL) x
         JOIN episodes e ON e.org_id = ? AND e.id = x.episode_id AND e.feedback_score_count > 0
        GROUP BY 1, 2, 3
     )
     SELECT s.*, f.avg_feedback FROM s
       LEFT JOIN f ON f.canvas_type = s.canvas_type AND f.by_type = s.by_type AND f.component_type IS NOT DISTINCT FROM s.component_type
      ORDER BY s.canvas_type, s.component_type NULLS FIRST`,
    [orgId, agentId, since(timeRange).toISOString(), orgId],
  );
  const stats = (r: StatsRow, byType: boolean) =>
    Object.assign(new CanvasTypeStats(), {
      canvasType: r.canvas_type,
      componentType: byType ? null : r.component_type,
      presentations: r.presentations,
      closes: r.closes,
      submits: r.submits,
      avgEngagementSeconds: r.avg_engagement === null ? null : Number(r.avg_engagement),
      avgFeedbackScore: r.avg_feedback === null ? null : Number(r.avg_feedback),
    });
  const typeRows = rows.filter((r) => Number(r.by_type) === 1);
  return Object.assign(new CanvasInsights(), {
    byType: typeRows.map((r) => stats(r, true)),
    byComponent: rows.filter((r) => Number(r.by_type) === 0).map((r) => stats(r, false)),
    closesQuickly: typeRows.filter((r) => r.avg_engagement !== null && Number(r.avg_engagement) < quickCloseSeconds).map((r) => r.canvas_type),
    engages: typeRows.filter((r) => r.avg_engagement !== null && Number(r.avg_engagement) >= quickCloseSeconds).map((r) => r.canvas_type),
    submits: typeRows.filter((r) => r.presentations > 0 && r.ended_submit * 2 >= r.presentations).map((r) => r.canvas_type),
  });
}
