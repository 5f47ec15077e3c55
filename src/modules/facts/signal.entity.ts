import { Entity, Index, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { OrgOwned } from '../../db/base.entity';
import { FloatArrayType } from '../../db/float-array.type';

/**
 * The usefulness score of one fact for one kind of question (its query context).
 * Written only while the fact row is locked, so contexts of a fact never race.
 */
@Entity({ tableName: 'fact_query_contexts' })
@Index({ properties: ['orgId', 'factId'] })
@Index({ properties: ['orgId', 'normalizedQuery'] })
export class FactQueryContext extends OrgOwned {
  @Property({ type: 'uuid' })
  factId!: string;

  /** the query as first seen */
  @Property({ type: 'text' })
  query!: string;

  /** lower case, punctuation and extra spaces removed */
  @Property({ type: 'text' })
  normalizedQuery!: string;

  @Property({ type: FloatArrayType, columnType: 'double precision[]', nullable: true })
  queryEmbedding: number[] | null = null;

  /** the sum of squares of `queryEmbedding`, kept by PostgreSQL (`sum_of_squares`) */
  @Property({ type: 'double', nullable: true, generated: '(sum_of_squares(query_embedding)) stored' })
  queryEmbeddingNormSq?: number | null;

  /** the model that made `queryEmbedding` ('client' when the caller sent it; see src/modules/embeddings) */
  @Property({ type: 'text', nullable: true })
  embeddingModel: string | null = null;

  /** the vector of the server's current model while a model change re-embeds the organization (swapped in when all are done) */
  @Property({ type: FloatArrayType, columnType: 'double precision[]', nullable: true })
  embeddingNext: number[] | null = null;

  /** as of `lastSignalAt` (read it decayed to now) */
  @Property({ type: 'double', default: 0.5 })
  usefulness: Opt<number> = 0.5;

  @Property({ type: 'integer', default: 0 })
  signalCount: Opt<number> = 0;

  @Property({ type: 'timestamptz', nullable: true })
  lastSignalAt: Date | null = null;
}

/** One usefulness signal as given (append-only log). */
@Entity({ tableName: 'fact_signals' })
@Index({ properties: ['orgId', 'factId', 'createdAt'] })
@Index({ properties: ['orgId', 'createdAt'] })
@Index({ properties: ['orgId', 'feedbackId'] })
@Index({ properties: ['orgId', 'episodeId'] })
@Unique({ properties: ['orgId', 'creditKey'] })
export class FactSignal extends OrgOwned {
  @Property({ type: 'uuid' })
  factId!: string;

  /** the query context the signal updated */
  @Property({ type: 'uuid' })
  contextId!: string;

  /** USED IGNORED HELPFUL NOT_HELPFUL */
  @Property({ type: 'text' })
  signalType!: string;

  @Property({ type: 'double' })
  confidence!: number;

  /** weight * confidence * 0.1 */
  @Property({ type: 'double' })
  delta!: number;

  @Property({ type: 'text' })
  query!: string;

  /** why the signal was given (free text) */
  @Property({ type: 'text', nullable: true })
  context: string | null = null;

  /** the API key that sent it (for credit: the caller whose event earned it) */
  @Property({ type: 'uuid', nullable: true })
  actorId: string | null = null;

  /** its place in the batch that wrote it: signals of one batch replay in this order */
  @Property({ type: 'integer', default: 0 })
  ord: Opt<number> = 0;

  /** null when a caller sent it; USAGE, FEEDBACK or VERDICT when the server credited it (see src/modules/traces) */
  @Property({ type: 'text', nullable: true })
  source: string | null = null;

  /** the feedback or verdict that earned it */
  @Property({ type: 'uuid', nullable: true })
  feedbackId: string | null = null;

  /** the episode that used (or was served and ignored) the fact */
  @Property({ type: 'uuid', nullable: true })
  episodeId: string | null = null;

  /** the traced retrieval that served the fact (its query is the signal's query context) */
  @Property({ type: 'uuid', nullable: true })
  traceId: string | null = null;

  /** what makes a credit happen once: the same event never writes two signals with one key */
  @Property({ type: 'text', nullable: true })
  creditKey: string | null = null;
}

/** The embedding dimension of an organization's facts and queries, fixed by the first embedding. */
@Entity({ tableName: 'fact_embedding_dimensions' })
export class FactEmbeddingDimension {
  @PrimaryKey({ type: 'uuid' })
  orgId!: string;

  @Property({ type: 'integer' })
  dimension!: number;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Opt<Date> = new Date();
}
