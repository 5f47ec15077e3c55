import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * What an organization stores, kept by statement-level triggers on `episodes`, `episode_segments`
 * and `facts` (see the migration `org_usage`): rows and bytes of each. An organization's usage is
 * spread over a few stripes (the writing connection's backend pid modulo 16), so that concurrent
 * writers of one organization do not queue on one row; its usage is the sum of its stripes.
 * Written only by the triggers; the application reads it.
 */
@Entity({ tableName: 'org_usage' })
export class OrgUsage {
  @PrimaryKey({ type: 'uuid' })
  orgId!: string;

  @PrimaryKey({ type: 'smallint' })
  stripe!: number;

  @Property({ type: 'bigint', default: 0 })
  episodeRows!: string;

  @Property({ type: 'bigint', default: 0 })
  episodeBytes!: string;

  @Property({ type: 'bigint', default: 0 })
  segmentRows!: string;

  @Property({ type: 'bigint', default: 0 })
  segmentBytes!: string;

  @Property({ type: 'bigint', default: 0 })
  factRows!: string;

  @Property({ type: 'bigint', default: 0 })
  factBytes!: string;
}

/**
 * Storage quotas the triggers enforce: the row of the nil organization id holds the instance's
 * defaults (QUOTA_ROWS, QUOTA_BYTES, written at every start), a row of an organization overrides
 * them for it (null keeps the default).
 */
@Entity({ tableName: 'org_quotas' })
export class OrgQuota {
  @PrimaryKey({ type: 'uuid' })
  orgId!: string;

  @Property({ type: 'bigint', nullable: true })
  maxRows: string | null = null;

  @Property({ type: 'bigint', nullable: true })
  maxBytes: string | null = null;
}
