import { Entity, Index, Property } from '@mikro-orm/core';
import { OrgOwned } from '../../db/base.entity';

/**
 * The audit log of erasures: who asked (the API key), when, with which selector, whether it was a
 * dry run, and how many rows of each kind went. Never the erased content. `targetIds` and
 * `targetKeys` are the ids and external ids a delete by id named: a retry of it finds them here
 * and reports zero instead of NOT_FOUND.
 */
@Entity({ tableName: 'erasures' })
@Index({ properties: ['orgId', 'createdAt', 'id'] })
@Index({
  name: 'erasures_targets',
  expression: `create index "erasures_targets" on "erasures" using gin ("org_id", "target_ids")`,
})
export class Erasure extends OrgOwned {
  @Property({ type: 'uuid', nullable: true })
  apiKeyId: string | null = null;

  /** deleteFacts, deleteEpisodes or eraseSubject */
  @Property({ type: 'text' })
  operation!: string;

  @Property({ type: 'jsonb' })
  selector!: Record<string, unknown>;

  @Property({ type: 'text[]', nullable: true })
  targetIds: string[] | null = null;

  @Property({ type: 'text[]', nullable: true })
  targetKeys: string[] | null = null;

  @Property({ type: 'boolean' })
  dryRun!: boolean;

  /** kind -> rows deleted (or, on a dry run, that would be) */
  @Property({ type: 'jsonb' })
  counts!: Record<string, number>;
}
