import { randomUUID } from 'node:crypto';
import { Entity, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';

/** A tenant. Its id is the `org_id` of every other row. */
@Entity({ tableName: 'organizations' })
export class Organization {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text' })
  name!: string;

  /**
   * The name's confusable skeleton (./names.ts): two organizations never share one. Null only for
   * organizations whose name was confusable with an older one's before skeletons were kept.
   */
  @Unique()
  @Property({ type: 'text', nullable: true })
  nameSkeleton: string | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Opt<Date> = new Date();
}
