import { Entity, Index, Property, Unique } from '@mikro-orm/core';
import { OrgOwned } from '../../db/base.entity';

/** One ordered turn of an episode (`seq` from 1). */
@Entity({ tableName: 'episode_segments' })
@Unique({ properties: ['episodeId', 'seq'] })
@Index({ properties: ['orgId', 'episodeId', 'seq'] })
export class Segment extends OrgOwned {
  @Property({ type: 'uuid' })
  episodeId!: string;

  @Property({ type: 'integer' })
  seq!: number;

  /** user, assistant, system, tool or event */
  @Property({ type: 'text' })
  role!: string;

  @Property({ type: 'text' })
  content!: string;

  @Property({ type: 'integer' })
  tokenEstimate!: number;
}
