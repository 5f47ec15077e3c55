import { Entity, Index, type Opt, PrimaryKey, Property } from '@mikro-orm/core';

/** A fact an episode used (references only: the fact itself lives in its bank). */
@Entity({ tableName: 'episode_facts' })
@Index({ properties: ['orgId', 'factId'] })
@Index({ properties: ['orgId', 'episodeId', 'createdAt'] })
export class EpisodeFact {
  @PrimaryKey({ type: 'uuid' })
  episodeId!: string;

  @PrimaryKey({ type: 'uuid' })
  factId!: string;

  @Property({ type: 'uuid' })
  orgId!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Opt<Date> = new Date();
}
