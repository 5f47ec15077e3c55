import { Entity, Index, Property } from '@mikro-orm/core';
import { OrgOwned } from '../../db/base.entity';

/** One action on a UI canvas. `episodeId` is the backlink, null until linked. */
@Entity({ tableName: 'canvas_audits' })
@Index({ properties: ['orgId', 'createdAt', 'id'] })
@Index({ properties: ['orgId', 'episodeId', 'createdAt'] })
@Index({ properties: ['orgId', 'agentId', 'canvasType', 'createdAt'] })
@Index({ properties: ['orgId', 'agentId', 'sessionId', 'createdAt'] })
export class CanvasAudit extends OrgOwned {
  @Property({ type: 'text' })
  agentId!: string;

  @Property({ type: 'text', nullable: true })
  sessionId: string | null = null;

  @Property({ type: 'uuid', nullable: true })
  episodeId: string | null = null;

  @Property({ type: 'text', nullable: true })
  canvasId: string | null = null;

  @Property({ type: 'text' })
  canvasType!: string;

  @Property({ type: 'text', nullable: true })
  componentType: string | null = null;

  /** PRESENT CLOSE SUBMIT UPDATE EXECUTE */
  @Property({ type: 'text' })
  action!: string;

  @Property({ type: 'jsonb', nullable: true })
  metadata: Record<string, unknown> | null = null;
}
