import { prepared, sql, type Unqualified } from '../../db/typed-sql';
import type { KeyedLoaderFactory } from '../../graphql/loaders';
import { episodeBatch, episodeRows, groupByEpisode, lateralColumns, ListLoader } from '../shared';
import type { CanvasAction } from '../shared';
import { CANVAS_COLUMNS, canvasColumns, canvasFromRow } from './canvas.rows';
import type { CanvasAudit } from './canvas.type';

export interface CanvasContextArgs {
  canvasType: string | null;
  action: CanvasAction | null;
  limit: number;
  /** the columns to read (`columnsOf` the selected fields) */
  columns: string;
}

const canvasStatement = prepared(
  (
    v: { orgId: string; episodes: string | readonly string[]; limit: number; canvasType: string | null; action: CanvasAction | null },
    shape: { columns: string; byType: boolean; byAction: boolean; one: boolean },
  ) => {
    // each episode's newest `limit`, read through its index
    return (
      sql
        .selectFrom(episodeRows(v.episodes, shape.one))
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom('canvas_audits as c')
              .select(canvasColumns(shape.columns))
              .where('c.org_id', '=', v.orgId)
              .whereRef('c.episode_id', '=', 'p.id')
              .$if(shape.byType, (q) => q.where('c.canvas_type', '=', v.canvasType!))
              .$if(shape.byAction, (q) => q.where('c.action', '=', v.action!))
              .orderBy('c.created_at', 'desc')
              .orderBy('c.id', 'desc')
              .limit(v.limit)
              .as('x'),
          (join) => join.onTrue(),
        )
        .select(lateralColumns<Unqualified<(typeof CANVAS_COLUMNS)[number]>>(shape.columns))
        .orderBy('x.episode_id')
        .orderBy('x.created_at')
        .orderBy('x.id')
        // only audits of the requested episodes are read: every row has its episode id
        .$narrowType<{ episode_id: string }>()
    );
  },
);

/** The newest `limit` canvas audits per episode, oldest first, optionally filtered; one statement per request. */
export const canvasByEpisode: KeyedLoaderFactory<CanvasContextArgs, ListLoader<CanvasAudit>> = (em, orgId, args) =>
  new ListLoader(async (ids) => {
    const { canvasType, action, limit, columns } = args;
    const { one, episodes } = episodeBatch(ids);
    const shape = { columns, byType: canvasType !== null, byAction: action !== null, one };
    const found = await canvasStatement.rows(em, shape, { orgId, episodes, limit, canvasType, action });
    return groupByEpisode(ids, found, canvasFromRow);
  });
