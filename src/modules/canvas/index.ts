import { CanvasAudit } from './canvas-audit.entity';
import { CanvasEpisodeResolver } from './canvas.episode.resolver';
import { CanvasResolver } from './canvas.resolver';

export const canvasEntities = [CanvasAudit];
export const canvasResolvers: Function[] = [CanvasResolver, CanvasEpisodeResolver];
