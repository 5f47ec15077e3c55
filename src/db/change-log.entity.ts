import { Entity, Index, type Opt, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * What a transaction changed, written by triggers on the tables that in-process caches mirror
 * (facts and their query contexts: topic `facts`, keys = fact ids; episode segments: topic
 * `segments`, keys = agent ids, `*` for all agents of the organization). `xid` is the writing
 * transaction: a reader that remembers the oldest transaction still running when it last read
 * (`pg_snapshot_xmin`) finds every change committed since by reading the rows at or above it,
 * without any lock on the write path. Rows are pruned after an hour.
 */
@Entity({ tableName: 'change_log' })
@Index({ properties: ['orgId', 'topic', 'xid'] })
@Index({ properties: ['createdAt'] })
export class ChangeLogEntry {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'uuid' })
  orgId!: string;

  @Property({ type: 'text' })
  topic!: string;

  @Property({ type: 'string', columnType: 'xid8' })
  xid!: string;

  @Property({ type: 'text[]' })
  keys!: string[];

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Opt<Date> = new Date();
}
