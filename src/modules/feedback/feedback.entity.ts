import { ArrayType, Entity, Index, Property } from '@mikro-orm/core';
import { OrgOwned } from '../../db/base.entity';

/** Any response to agent output: a rating, a correction, a confirmation, a judgement. */
@Entity({ tableName: 'feedback' })
@Index({ properties: ['orgId', 'createdAt', 'id'] })
@Index({ properties: ['orgId', 'episodeId', 'createdAt'] })
@Index({ properties: ['orgId', 'agentId', 'createdAt'] })
@Index({ properties: ['orgId', 'agentId', 'sessionId', 'createdAt'] })
@Index({ properties: ['orgId', 'feedbackType', 'createdAt'] })
@Index({ properties: ['orgId', 'eventType', 'createdAt'] })
@Index({ properties: ['orgId', 'layoutFingerprint', 'createdAt'] })
// per-layout correction counts (exampleCount, correctionRate) from the index alone
@Index({
  name: 'feedback_layout_corrections_index',
  expression: `create index "feedback_layout_corrections_index" on "feedback" ("org_id", "layout_fingerprint", "document_id") where "feedback_type" = 'CORRECTION'`,
})
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

  /**
   * corrections: the fields they changed (the `after.field` of a field correction, else each
   * top-level key whose value differs between `before` and `after`); computed by PostgreSQL when
   * the row is written (function `feedback_changed_fields`, defined by the migration)
   */
  @Property({
    type: ArrayType,
    columnType: 'text[]',
    nullable: true,
    generated: '(feedback_changed_fields(feedback_type, event_type, before, after)) stored',
  })
  changedFields: string[] | null = null;

  @Property({ type: 'jsonb', nullable: true })
  meta: Record<string, unknown> | null = null;

  /** judgements: the verdict */
  @Property({ type: 'boolean', nullable: true })
  accepted: boolean | null = null;

  @Property({ type: 'text', nullable: true })
  reason: string | null = null;
}
