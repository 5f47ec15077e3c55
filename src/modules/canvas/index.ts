import { CanvasAudit as CanvasAuditEntity } from './canvas-audit.entity';
import { CanvasEpisodeResolver } from './canvas.episode.resolver';
import { CanvasResolver } from './canvas.resolver';

export const canvasEntities = [CanvasAuditEntity];
export const canvasResolvers = [CanvasResolver, CanvasEpisodeResolver];

export { CANVAS_FIELD_COLUMNS, CANVAS_LIST_ALWAYS, canvasColumns } from './canvas.rows';
