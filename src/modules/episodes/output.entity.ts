import { Entity, Index, type Opt, Property } from '@mikro-orm/core';
import { OrgOwned } from '../../db/base.entity';

/** Something an episode produced (e.g. a generated multiple-choice question). */
@Entity({ tableName: 'episode_outputs' })
@Index({ properties: ['orgId', 'episodeId', 'createdAt'] })
export class EpisodeOutput extends OrgOwned {
  @Property({ type: 'uuid' })
  episodeId!: string;

  @Property({ type: 'text' })
  kind!: string;

  @Property({ type: 'jsonb' })
  content!: unknown;

  @Property({ type: 'text', nullable: true })
  difficulty: string | null = null;

  @Property({ type: 'double', nullable: true })
  qualityScore: number | null = null;

  @Property({ type: 'integer', default: 0 })
  regenerationRound: Opt<number> = 0;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  updatedAt: Opt<Date> = new Date();
}
