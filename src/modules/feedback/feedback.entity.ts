import { Entity, Index, Property } from '@mikro-orm/core';
import { OrgOwned } from '../../db/base.entity';

/** Any response to agent output: a rating, a correction, a confirmation, a judgement (SPEC 4.3). */
@Entity({ tableName: 'feedback' })
@Index({ properties: ['orgId', 'createdAt', 'id'] })
@Index({ properties: ['orgId', 'episodeId', 'createdAt'] })
@Index({ properties: ['orgId', 'agentId', 'createdAt'] })
@Index({ properties: ['orgId', 'agentId', 'sessionId', 'createdAt'] })
@Index({ properties: ['orgId', 'feedbackType', 'createdAt'] })
@Index({ properties: ['orgId', 'eventType', 'createdAt'] })
@Index({ properties: ['orgId', 'layoutFingerprint', 'createdAt'] })
export class Feedback extends OrgOwned {
  @Property({ type: 'uuid', nullable: true })
  episodeId: string | null = null;

  @Property({ type: 'text', nullable: true })
  agentId: string | null = null;

  @Property({ type: 'text', nullable: true })
  sessionId: string | null = null;

  @Property({ type: 'text', nullable: true })
  executionId: string | null = null;

  /** the API key that wrote it */
  @Property({ type: 'uuid' })
  actorId!: string;

  /** the caller's own user id, when given */
  @Property({ type: 'text', nullable: true })
  actorUserId: string | null = null;

  /** THUMBS_UP THUMBS_DOWN RATING CORRECTION CONFIRMATION REJECTION JUDGEMENT */
  @Property({ type: 'text' })
  feedbackType!: string;

  @Property({ type: 'smallint', nullable: true })
  rating: number | null = null;

  /** -1..1, null for unscored feedback */
  @Property({ type: 'double', nullable: true })
  score: number | null = null;

  @Property({ type: 'text', nullable: true })
  corrections: string | null = null;

  @Property({ type: 'text', nullable: true })
  eventType: string | null = null;

  @Property({ type: 'text', nullable: true })
  entityType: string | null = null;

  @Property({ type: 'text', nullable: true })
  entityId: string | null = null;

  @Property({ type: 'text', nullable: true })
  documentId: string | null = null;

  @Property({ type: 'text', nullable: true })
  layoutFingerprint: string | null = null;

  @Property({ type: 'jsonb', nullable: true })
  before: Record<string, unknown> | null = null;

  @Property({ type: 'jsonb', nullable: true })
  after: Record<string, unknown> | null = null;

  @Property({ type: 'jsonb', nullable: true })
  meta: Record<string, unknown> | null = null;

  /** judgements: the verdict */
  @Property({ type: 'boolean', nullable: true })
  accepted: boolean | null = null;

  @Property({ type: 'text', nullable: true })
  reason: string | null = null;
}
