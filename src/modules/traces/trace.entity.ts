import { Entity, Index, ManyToOne, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { FloatArrayType } from '../../db/float-array.type';

/**
 * What one traced retrieval (recall, recallEpisodes, memoryContext) served to an episode, in
 * served order. Its items are one JSON array in the row: a trace is written and read whole, by one
 * statement, and never queried item by item except by the credit of its episode. Deleted with its
 * episode (a foreign key, ON DELETE CASCADE: retention and erasure take traces along).
 */
@Entity({ tableName: 'memory_traces' })
@Index({ properties: ['orgId', 'episodeId', 'createdAt'] })
@Unique({ properties: ['orgId', 'episodeId', 'spanId'] })
export class MemoryTrace {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'uuid' })
  orgId!: string;

  @ManyToOne({ entity: 'Episode', fieldName: 'episode_id', mapToPk: true, deleteRule: 'cascade', updateRule: 'no action' })
  episodeId!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Opt<Date> = new Date();

  /** RECALL RECALL_EPISODES MEMORY_CONTEXT */
  @Property({ type: 'text' })
  operation!: string;

  /** the turn the memory was for, as the caller numbered it */
  @Property({ type: 'integer', nullable: true })
  seq: number | null = null;

  @Property({ type: 'text', nullable: true })
  query: string | null = null;

  /** the caller's query embedding, when it sent one: the query context credit is given in */
  @Property({ type: FloatArrayType, columnType: 'double precision[]', nullable: true })
  queryEmbedding: number[] | null = null;

  /** recall: the strategy that ranked the answer */
  @Property({ type: 'text', nullable: true })
  strategy: string | null = null;

  /** memoryContext: the policy */
  @Property({ type: 'text', nullable: true })
  mode: string | null = null;

  /** memoryContext: the token budget; recall and recallEpisodes: the limit */
  @Property({ type: 'integer', nullable: true })
  budget: number | null = null;

  /** the retrieval span an OpenTelemetry export reported it as (null for the API's traced reads): written once per span */
  @Property({ type: 'text', nullable: true })
  spanId: string | null = null;

  /** the served items in order: `{ factId | episodeId | segmentId, zone, scores }` */
  @Property({ type: 'jsonb' })
  items!: unknown[];
}

/**
 * An organization's credit settings (null: the default of ./credit-settings.ts). Set with the CLI
 * (`set-credit`), like storage quotas.
 */
@Entity({ tableName: 'org_credit_settings' })
export class OrgCreditSettings {
  @PrimaryKey({ type: 'uuid' })
  orgId!: string;

  @Property({ type: 'boolean', nullable: true })
  enabled: boolean | null = null;

  @Property({ type: 'double', nullable: true })
  usedConfidence: number | null = null;

  @Property({ type: 'double', nullable: true })
  ignoredConfidence: number | null = null;

  @Property({ type: 'double', nullable: true })
  feedbackConfidence: number | null = null;

  @Property({ type: 'integer', nullable: true })
  maxFactsPerEvent: number | null = null;
}
