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

  /**
   * The distinct lower-cased words of a text longer than `INLINE_TEXT_BYTES`, so memoryContext ranks
   * long turns without reading them; null for a shorter text and for a non-ASCII one written by SQL,
   * which are read whole (see docs/algorithms.md).
   */
  @Property({ columnType: 'tsvector', nullable: true, lazy: true, hidden: true })
  terms?: string | null;

  /** how many distinct words `terms` holds, kept by PostgreSQL: ranking reads it without the lexemes */
  @Property({ type: 'integer', nullable: true, generated: '(length(terms)) stored', lazy: true, hidden: true })
  termCount?: number | null;
}
