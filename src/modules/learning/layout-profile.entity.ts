import { Entity, Index, type Opt, Property, Unique } from '@mikro-orm/core';
import { OrgOwned } from '../../db/base.entity';

/** What the organization has seen of one document layout. Upserted atomically. */
@Entity({ tableName: 'layout_profiles' })
@Unique({ properties: ['orgId', 'layoutFingerprint'] })
@Index({ properties: ['orgId', 'lastSeenAt', 'id'] })
export class LayoutProfile extends OrgOwned {
  @Property({ type: 'text' })
  layoutFingerprint!: string;

  @Property({ type: 'integer', default: 0 })
  seenCount: Opt<number> = 0;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  lastSeenAt: Opt<Date> = new Date();

  /** running averages of the recorded documents (page count, table count, coverage, confidence) */
  @Property({ type: 'jsonb', default: '{}' })
  stats: Opt<Record<string, unknown>> = {};

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  updatedAt: Opt<Date> = new Date();
}
