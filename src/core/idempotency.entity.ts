import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * One idempotency key of one organization: the hash of the first input and that call's result.
 * Keys expire after 24 hours (an expired key is taken over by the next call that uses it).
 */
@Entity({ tableName: 'idempotency_keys' })
@Index({ properties: ['expiresAt'] })
export class IdempotencyKey {
  @PrimaryKey({ type: 'uuid' })
  orgId!: string;

  @PrimaryKey({ type: 'text' })
  key!: string;

  @Property({ type: 'text' })
  operation!: string;

  @Property({ type: 'text' })
  requestHash!: string;

  @Property({ type: 'jsonb', nullable: true })
  result: unknown = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;
}
