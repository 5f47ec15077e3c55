import { Entity, Index, type Opt, Property } from '@mikro-orm/core';
import { OrgOwned } from '../../db/base.entity';
import { FloatArrayType } from '../../db/float-array.type';

/**
 * One unit of agent experience. The counters and the feedback sum are changed only by
 * atomic SQL in the transaction of the write that changes them; the backlinks (`episode_id` on
 * canvas audits and feedback) are the truth.
 */
@Entity({ tableName: 'episodes' })
@Index({ properties: ['orgId', 'createdAt', 'id'] })
@Index({ properties: ['orgId', 'agentId', 'createdAt'] })
@Index({ properties: ['orgId', 'agentId', 'sessionId', 'createdAt'] })
@Index({ properties: ['orgId', 'sessionId'] })
@Index({ properties: ['orgId', 'topic', 'createdAt'] })
@Index({ properties: ['orgId', 'intent'] })
@Index({ properties: ['orgId', 'accepted', 'createdAt'] })
@Index({
  name: 'episodes_embedded',
  expression: `create index "episodes_embedded" on "episodes" ("org_id", "created_at") where "embedding" is not null`,
})
export class Episode extends OrgOwned {
  @Property({ type: 'text' })
  agentId!: string;

  @Property({ type: 'text', nullable: true })
  sessionId: string | null = null;

  @Property({ type: 'text', nullable: true })
  title: string | null = null;

  @Property({ type: 'text', nullable: true })
  task: string | null = null;

  @Property({ type: 'text', nullable: true })
  intent: string | null = null;

  @Property({ type: 'text', nullable: true })
  topic: string | null = null;

  @Property({ type: 'text', nullable: true })
  blueprint: string | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  endedAt: Date | null = null;

  @Property({ type: 'text[]', defaultRaw: `'{}'` })
  executionIds: Opt<string[]> = [];

  @Property({ type: 'jsonb', nullable: true })
  generationConfig: Record<string, unknown> | null = null;

  @Property({ type: 'jsonb', nullable: true })
  metadata: Record<string, unknown> | null = null;

  @Property({ type: FloatArrayType, columnType: 'double precision[]', nullable: true })
  embedding: number[] | null = null;

  /** the sum of squares of `embedding`, kept by PostgreSQL (`sum_of_squares`): recallEpisodes' cosine divides by it */
  @Property({ type: 'double', nullable: true, generated: '(sum_of_squares(embedding)) stored' })
  embeddingNormSq?: number | null;

  /** the model that made the vector ('client' when the caller sent it; see src/modules/embeddings) */
  @Property({ type: 'text', nullable: true })
  embeddingModel: string | null = null;

  /** the vector of the server's current model while a model change re-embeds the organization (swapped in when all are done) */
  @Property({ type: FloatArrayType, columnType: 'double precision[]', nullable: true })
  embeddingNext: number[] | null = null;

  @Property({ type: 'integer', default: 0 })
  canvasActionCount: Opt<number> = 0;

  /** all linked feedback, scored or not */
  @Property({ type: 'integer', default: 0 })
  feedbackCount: Opt<number> = 0;

  /** sum and count of the linked feedback that has a score: the aggregate is sum / count */
  @Property({ type: 'double', default: 0 })
  feedbackScoreSum: Opt<number> = 0;

  @Property({ type: 'integer', default: 0 })
  feedbackScoreCount: Opt<number> = 0;

  @Property({ type: 'double', nullable: true })
  overallScore: number | null = null;

  @Property({ type: 'boolean', nullable: true })
  accepted: boolean | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  updatedAt: Opt<Date> = new Date();
}
