import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { badInput } from '../../core/errors';
import { since } from '../../core/time-range';
import { limit as checkLimit, text } from '../../core/validate';
import { rows, type Row, sql } from '../../db/typed-sql';
import { EPISODE_COLUMNS, episodeFromRow } from '../episodes';
import type { Episode } from '../episodes';
import { type CanvasAction, canvasType } from '../shared';
import { CanvasInsights, CanvasTypeStats } from './canvas.type';
import { aggregateFeedbackScoreOf } from '../shared';

/** Episodes of an agent with at least one matching canvas action in the range, newest first. */
export async function episodesByCanvasType(
  em: EntityManager,
  orgId: string,
  args: { agentId: string; canvasType: string; action?: CanvasAction | null; timeRange: string; limit: number },
): Promise<Episode[]> {
  const n = checkLimit(args.limit, 10);
  const type = canvasType('canvasType', args.canvasType);
  const from = since(args.timeRange).toISOString();
  const action = args.action ?? null;
  const query = sql
    .selectFrom('episodes as e')
    .select(EPISODE_COLUMNS)
    .where('e.org_id', '=', orgId)
    .where('e.agent_id', '=', args.agentId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('canvas_audits as c')
          .select(raw.lit(1).as('one'))
          .whereRef('c.org_id', '=', 'e.org_id')
          .whereRef('c.episode_id', '=', 'e.id')
          .where('c.canvas_type', '=', type)
          .where('c.created_at', '>=', from)
          .$if(action !== null, (c) => c.where('c.action', '=', action!)),
      ),
    )
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc')
    .limit(n);
  return (await rows(em, query)).map(episodeFromRow);
}

/**
 * The window of each action over the later actions of the same canvas (an action without a canvas
 * id is a canvas of its own), in time order.
 */
const LATER = raw`(PARTITION BY coalesce(c.canvas_id, c.id::text) ORDER BY c.created_at, c.id
                   ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)`;

/**
 * Engagement per canvas type and per (type, component) in one statement: engagement is the time
 * from a PRESENT to the next CLOSE or SUBMIT of the same canvas (window over each canvas id).
 * Rows grouped by type alone have `by_type` 1, rows grouped by type and component 0.
 */
function insightsStatement(orgId: string, agentId: string, from: string) {
  return sql
    .with('a', (db) =>
      db
        .selectFrom('canvas_audits as c')
        .select(['c.canvas_type', 'c.component_type', 'c.episode_id', 'c.action', 'c.created_at'])
        .select([
          raw<string | null>`min(CASE WHEN c.action IN ('CLOSE', 'SUBMIT') THEN c.created_at END) OVER ${LATER}`.as('next_end'),
          raw<string | null>`min(CASE WHEN c.action = 'SUBMIT' THEN c.created_at END) OVER ${LATER}`.as('next_submit'),
        ])
        .where('c.org_id', '=', orgId)
        .where('c.agent_id', '=', agentId)
        .where('c.created_at', '>=', from),
    )
    .with('s', (db) =>
      db
        .selectFrom('a')
        .select((eb) => {
          const presented = eb('action', '=', 'PRESENT');
          const ended = eb('next_end', 'is not', null);
          const endedBySubmit = eb.and([eb('next_submit', 'is not', null), eb('next_submit', '=', eb.ref('next_end'))]);
          const engagement = raw<number>`extract(epoch FROM next_end - created_at)`;
          return [
            'canvas_type',
            'component_type',
            raw<number>`grouping(component_type)`.as('by_type'),
            eb.cast<number>(eb.fn.countAll().filterWhere(presented), 'integer').as('presentations'),
            eb.cast<number>(eb.fn.countAll().filterWhere('action', '=', 'CLOSE'), 'integer').as('closes'),
            eb.cast<number>(eb.fn.countAll().filterWhere('action', '=', 'SUBMIT'), 'integer').as('submits'),
            eb.cast<number>(eb.fn.countAll().filterWhere(eb.and([presented, endedBySubmit])), 'integer').as('ended_submit'),
            eb.cast<number | null>(eb.fn.avg(engagement).filterWhere(eb.and([presented, ended])), 'float8').as('avg_engagement'),
          ];
        })
        .groupBy(raw`GROUPING SETS ((canvas_type), (canvas_type, component_type))`),
    )
    .with('f', (db) =>
      db
        .selectFrom((sub) =>
          sub
            .selectFrom('a')
            .distinct()
            .select(['canvas_type', raw<string | null>`NULL::text`.as('component_type')])
            .select((eb) => [eb.cast<number>(eb.val(1), 'integer').as('by_type'), 'episode_id'])
            .where('episode_id', 'is not', null)
            .union((other) =>
              other
                .selectFrom('a')
                .distinct()
                .select((eb) => ['canvas_type', 'component_type', eb.cast<number>(eb.val(0), 'integer').as('by_type'), 'episode_id'])
                .where('episode_id', 'is not', null),
            )
            .as('x'),
        )
        .innerJoin('episodes as e', (j) =>
          j.on('e.org_id', '=', orgId).onRef('e.id', '=', 'x.episode_id').on('e.feedback_score_count', '>', 0),
        )
        .select(['x.canvas_type', 'x.component_type', 'x.by_type'])
        .select((eb) => eb.cast<number | null>(eb.fn.avg(aggregateFeedbackScoreOf('e')), 'float8').as('avg_feedback'))
        .groupBy(['x.canvas_type', 'x.component_type', 'x.by_type']),
    )
    .selectFrom('s')
    .leftJoin('f', (j) =>
      j
        .onRef('f.canvas_type', '=', 's.canvas_type')
        .onRef('f.by_type', '=', 's.by_type')
        .onRef('f.component_type', 'is not distinct from', 's.component_type'),
    )
    .selectAll('s')
    .select('f.avg_feedback')
    .orderBy('s.canvas_type')
    .orderBy('s.component_type', (ob) => ob.asc().nullsFirst());
}

type StatsRow = Row<ReturnType<typeof insightsStatement>>;

export async function canvasInsights(
  em: EntityManager,
  orgId: string,
  agentId: string,
  timeRange: string,
  quickCloseSeconds: number,
): Promise<CanvasInsights> {
  text('agentId', agentId, 200, { required: true });
  if (!Number.isFinite(quickCloseSeconds) || quickCloseSeconds < 0)
    throw badInput('quickCloseSeconds', 'quickCloseSeconds must be a number >= 0');
  const found = await rows(em, insightsStatement(orgId, agentId, since(timeRange).toISOString()));
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
  const typeRows = found.filter((r) => Number(r.by_type) === 1);
  return Object.assign(new CanvasInsights(), {
    byType: typeRows.map((r) => stats(r, true)),
    byComponent: found.filter((r) => Number(r.by_type) === 0).map((r) => stats(r, false)),
    closesQuickly: typeRows
      .filter((r) => r.avg_engagement !== null && Number(r.avg_engagement) < quickCloseSeconds)
      .map((r) => r.canvas_type),
    engages: typeRows.filter((r) => r.avg_engagement !== null && Number(r.avg_engagement) >= quickCloseSeconds).map((r) => r.canvas_type),
    submits: typeRows.filter((r) => r.presentations > 0 && r.ended_submit * 2 >= r.presentations).map((r) => r.canvas_type),
  });
}
