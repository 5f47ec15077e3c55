import type { CanvasAction } from '../shared/canvas-vocabulary';
import { CanvasAudit } from './canvas.type';

export const CANVAS_COLUMNS = 'c.id, c.agent_id, c.session_id, c.episode_id, c.canvas_id, c.canvas_type, c.component_type, c.action, c.metadata, c.created_at';

/** CANVAS_COLUMNS with the metadata JSON read as NULL (read only when `metadata` is selected). */
export const CANVAS_BRIEF_COLUMNS = CANVAS_COLUMNS.replace('c.metadata', 'NULL::jsonb AS metadata');

export interface CanvasRow {
  id: string;
  agent_id: string;
  session_id: string | null;
  episode_id: string | null;
  canvas_id: string | null;
  canvas_type: string;
  component_type: string | null;
  action: string;
  metadata: Record<string, unknown> | null;
  created_at: Date | string;
}

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
    metadata: r.metadata,
    createdAt: r.created_at instanceof Date ? r.created_at : new Date(r.created_at),
  });
