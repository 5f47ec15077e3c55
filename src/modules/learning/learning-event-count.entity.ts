import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * How many learning events (feedback of types CORRECTION, CONFIRMATION, REJECTION) an organization
 * had on one UTC day: per event type (`kind` 'type', key = event type, else feedback type) and per
 * corrected field (`kind` 'field'). Changed only by one atomic upsert in the transaction that writes
 * or deletes the feedback (see shared/learning-event-counts.ts), so `learningAnalytics` reads whole days from here.
 */
@Entity({ tableName: 'learning_event_counts' })
export class LearningEventCount {
  @PrimaryKey({ type: 'uuid' })
  orgId!: string;

  @PrimaryKey({ type: 'date' })
  day!: string;

  @PrimaryKey({ type: 'text' })
  kind!: string;

  /** md5 of `key` as a uuid: field names may be longer than an index entry can hold */
  @PrimaryKey({ type: 'uuid' })
  keyHash!: string;

  @Property({ type: 'text' })
  key!: string;

  @Property({ type: 'integer' })
  count!: number;
}
