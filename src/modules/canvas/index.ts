import { CanvasAudit } from './canvas-audit.entity';

export const canvasEntities = [CanvasAudit];
export const canvasResolvers: Function[] = [];
