import type { Selectable } from 'kysely';
import type { CanvasAuditsTable } from '../../db/tables';
import type { Unqualified } from '../../db/typed-sql';
import { camelCaseFields, type CanvasAction } from '../shared';
import { CanvasAudit } from './canvas.type';
import { instantOf } from '../../core/instant';

/** The columns of `canvas_audits` every read returns (alias `c`); as text they read `c.id,c.agent_id,...`. */
export const CANVAS_COLUMNS = [
  'c.id',
  'c.agent_id',
  'c.session_id',
  'c.episode_id',
  'c.canvas_id',
  'c.canvas_type',
  'c.component_type',
  'c.action',
  'c.metadata',
  'c.created_at',
] as const;

/** The column each field of `CanvasAudit` is read from: every field is its column in camel case. */
export const CANVAS_FIELD_COLUMNS = camelCaseFields(CANVAS_COLUMNS.map((c) => c.slice('c.'.length)));

/** What every read of an episode's canvas list needs whatever is selected: the id, the episode, the order. */
export const CANVAS_LIST_ALWAYS = ['id', 'episode_id', 'created_at'] as const;

/** The columns of a key made by `columnsOf` from CANVAS_FIELD_COLUMNS, qualified by the alias `c`. */
export const canvasColumns = (key: string) => key.split(',').map((c) => `c.${c}`) as unknown as (typeof CANVAS_COLUMNS)[number][];

export type CanvasRow = Pick<Selectable<CanvasAuditsTable>, Unqualified<(typeof CANVAS_COLUMNS)[number]>>;

/** A row read whole, or in part (a field whose column was not read is left without its value, and nothing reads it). */
export function canvasFromRow(r: CanvasRow): CanvasAudit {
  // one object per row, its fields stored one by one (a copy from an object literal costs about ten times more)
  const c = new CanvasAudit();
  c.id = r.id;
  c.agentId = r.agent_id;
  c.sessionId = r.session_id;
  c.episodeId = r.episode_id;
  c.canvasId = r.canvas_id;
  c.canvasType = r.canvas_type;
  c.componentType = r.component_type;
  c.action = r.action as CanvasAction;
  c.metadata = r.metadata as Record<string, unknown> | null;
  c.createdAt = instantOf(r.created_at);
  return c;
}
