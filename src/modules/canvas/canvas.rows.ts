import type { Selectable } from 'kysely';
import type { CanvasAuditsTable } from '../../db/tables';
import { briefColumn } from '../../db/brief-column';
import { sql, type Unqualified } from '../../db/typed-sql';
import type { CanvasAction } from '../shared';
import { CanvasAudit } from './canvas.type';

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

/** CANVAS_COLUMNS with the metadata JSON read as NULL (read only when `metadata` is selected), in the same order. */
const CANVAS_BRIEF_SELECTION = [
  'c.id',
  'c.agent_id',
  'c.session_id',
  'c.episode_id',
  'c.canvas_id',
  'c.canvas_type',
  'c.component_type',
  'c.action',
  briefColumn('metadata', 'jsonb'),
  'c.created_at',
] as const;

/** CANVAS_BRIEF_SELECTION as SQL text (the select list of the compiled statement), for statements still written as text. */
export const CANVAS_BRIEF_COLUMNS = ((s: string) => s.slice('select '.length, s.lastIndexOf(' from ')))(
  sql.selectFrom('canvas_audits as c').select(CANVAS_BRIEF_SELECTION).compile().sql,
);

type CanvasSelection = (typeof CANVAS_COLUMNS)[number] | (typeof CANVAS_BRIEF_SELECTION)[number];
/** The full selection (with `metadata`) or the brief one, as one type: metadata is JSON or NULL. */
export const canvasSelection = (metadata: boolean): readonly CanvasSelection[] => (metadata ? CANVAS_COLUMNS : CANVAS_BRIEF_SELECTION);

export type CanvasRow = Pick<Selectable<CanvasAuditsTable>, Unqualified<(typeof CANVAS_COLUMNS)[number]>>;

export const canvasFromRow = (r: CanvasRow): CanvasAudit =>
  Object.assign(new CanvasAudit(), {
    id: r.id,
    agentId: r.agent_id,
    sessionId: r.session_id,
    episodeId: r.episode_id,
    canvasId: r.canvas_id,
    canvasType: r.canvas_type,
    componentType: r.component_type,
    action: r.action as CanvasAction,
    metadata: r.metadata as Record<string, unknown> | null,
    createdAt: new Date(r.created_at),
  });
