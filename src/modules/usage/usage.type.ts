import { Field, Float, ObjectType } from 'type-graphql';
import type { Amount, StorageUsage as StorageUsageData } from './usage.service';

@ObjectType({ simpleResolvers: true, description: 'Rows and bytes of one kind of record.' })
export class StorageAmount {
  @Field(() => Float, { description: 'Number of rows.' })
  rows!: number;

  @Field(() => Float, {
    description: 'Bytes counted for them: their text, JSON (as text) and vector contents plus a fixed amount per row (not disk pages).',
  })
  bytes!: number;

  static from(a: Amount): StorageAmount {
    return Object.assign(new StorageAmount(), a);
  }
}

@ObjectType({
  simpleResolvers: true,
  description: "What the caller's organization stores against its storage quotas; a write past a quota fails with QUOTA_EXCEEDED.",
})
export class StorageUsage {
  @Field(() => StorageAmount, { description: 'Episodes.' })
  episodes!: StorageAmount;

  @Field(() => StorageAmount, { description: 'Episode segments (turns).' })
  segments!: StorageAmount;

  @Field(() => StorageAmount, { description: 'Facts.' })
  facts!: StorageAmount;

  @Field(() => StorageAmount, { description: 'Episodes, segments and facts together: what the quotas bound.' })
  total!: StorageAmount;

  @Field(() => Float, {
    nullable: true,
    description: 'The quota of rows (episodes, segments and facts together); null when there is none.',
  })
  quotaRows!: number | null;

  @Field(() => Float, {
    nullable: true,
    description: 'The quota of bytes (episodes, segments and facts together); null when there is none.',
  })
  quotaBytes!: number | null;

  static from(u: StorageUsageData): StorageUsage {
    return Object.assign(new StorageUsage(), {
      episodes: StorageAmount.from(u.episodes),
      segments: StorageAmount.from(u.segments),
      facts: StorageAmount.from(u.facts),
      total: StorageAmount.from(u.total),
      quotaRows: u.quotaRows,
      quotaBytes: u.quotaBytes,
    });
  }
}
