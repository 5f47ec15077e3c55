import DataLoader from 'dataloader';
import { sql as raw } from 'kysely';
import { rows, sql } from '../../db/typed-sql';
import type { KeyedLoaderFactory } from '../../graphql/loaders';
import { groupByEpisode, rankInEpisode } from '../shared';
import type { CanvasAction } from '../shared';
import { canvasFromRow, canvasSelection } from './canvas.rows';
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
    const { canvasType, action } = args;
    const ranked = sql
      .selectFrom('canvas_audits as c')
      .select(canvasSelection(args.metadata))
      .select(rankInEpisode('c.created_at DESC, c.id DESC').as('rn'))
      .where('c.org_id', '=', orgId)
      .where('c.episode_id', '=', raw<string>`any(${[...ids]}::uuid[])`)
      .$if(canvasType !== null, (q) => q.where('c.canvas_type', '=', canvasType!))
      .$if(action !== null, (q) => q.where('c.action', '=', action!));
    const found = await rows(
      em,
      sql
        .selectFrom(ranked.as('x'))
        .selectAll()
        .where('x.rn', '<=', args.limit)
        .orderBy('x.episode_id')
        .orderBy('x.created_at')
        .orderBy('x.id')
        // only audits of the requested episodes are read: every row has its episode id
        .$narrowType<{ episode_id: string }>(),
    );
    return groupByEpisode(ids, found, canvasFromRow);
  });
