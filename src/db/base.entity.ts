import { randomUUID } from 'node:crypto';
import { type Opt, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * Every tenant-owned row: a server-generated UUID, the owning organization and the creation time.
 * `org_id` is a plain column (no foreign key) so the schema can be distributed by organization.
 */
export abstract class OrgOwned {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'uuid' })
  orgId!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Opt<Date> = new Date();
}
