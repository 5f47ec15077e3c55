import DataLoader from 'dataloader';
import { pgArray } from '../../core/sql';
import type { KeyedLoaderFactory } from '../../graphql/loaders';
import { groupByEpisode, newestPerEpisode } from '../shared/sub-list';
import type { CanvasAction } from '../shared/canvas-vocabulary';
import { CANVAS_BRIEF_COLUMNS, CANVAS_COLUMNS, canvasFromRow, type CanvasRow } from './canvas.rows';
import type { CanvasAudit } from './canvas.type';

export interface CanvasContextArgs {
  canvasType: string | null;
  action: CanvasAction | null;
  limit: number;
  /** read the metadata JSON too (it is selected) */
  metadata: boolean;
}

/** The newest `limit` canvas audits per episode, oldest first, optionally filtered; one statement per request. */
export const canvasByEpisode: KeyedLoaderFactory<CanvasContextArgs, DataLoader<string, CanvasAudit[]>> = (em, orgId, args) =>
  new DataLoader(async (ids) => {
    const params: unknown[] = [orgId, pgArray([...ids])];
    let extra = '';
    if (args.canvasType !== null) {
      extra += ' AND c.canvas_type = ?';
      params.push(args.canvasType);
    }
    if (args.action !== null) {
      extra += ' AND c.action = ?';
      params.push(args.action);
    }
    const w = newestPerEpisode('c.created_at DESC, c.id DESC', args.limit);
    const rows = await em.execute<(CanvasRow & { episode_id: string })[]>(
      `SELECT * FROM (SELECT ${args.metadata ? CANVAS_COLUMNS : CANVAS_BRIEF_COLUMNS}${w.select} FROM canvas_audits c
                       WHERE c.org_id = ? AND c.episode_id = ANY(?::uuid[])${extra}) x
       ${w.where} ORDER BY episode_id, created_at, id`,
      params,
    );
    return groupByEpisode(ids, rows, canvasFromRow);
  });
