import { randomUUID } from 'node:crypto';
import { Entity, type Opt, PrimaryKey, Property } from '@mikro-orm/core';

/** A tenant. Its id is the `org_id` of every other row. */
@Entity({ tableName: 'organizations' })
export class Organization {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Opt<Date> = new Date();
}
