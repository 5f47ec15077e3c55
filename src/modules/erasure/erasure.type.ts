import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageInfo } from '../shared';
import { type Counts, KINDS } from './erasure.steps';

@InputType({ description: 'Whom an erasure is about; every field given must match (at least one is required).' })
export class ErasureSelector {
  @Field(() => String, {
    nullable: true,
    description: 'An agent: its episodes, feedback, canvas actions, and the facts of its bank (the agent id).',
  })
  agentId?: string | null;

  @Field(() => String, { nullable: true, description: 'A session: its episodes, feedback and canvas actions.' })
  sessionId?: string | null;

  @Field(() => String, { nullable: true, description: 'A memory bank: its facts.' })
  bankId?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'A metadata key the organization uses for its end users (e.g. userId): episodes, feedback and canvas actions whose metadata has it.',
  })
  metadataKey?: string | null;

  @Field(() => String, { nullable: true, description: 'The value metadataKey must have.' })
  metadataValue?: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'How many rows of one kind an erasure deleted (or, on a dry run, would delete).' })
export class ErasureCount {
  @Field({
    description: 'episodes, segments, outputs, factLinks, feedback, canvasActions, facts, factVersions, factSignals or queryContexts.',
  })
  kind!: string;

  @Field(() => Int, { description: 'Rows.' })
  count!: number;
}

const countsOf = (c: Partial<Counts>): ErasureCount[] =>
  KINDS.map((kind) => Object.assign(new ErasureCount(), { kind, count: Number(c[kind] ?? 0) }));

@ObjectType({ simpleResolvers: true, description: 'What an erasure did: the counts per kind (every kind, zeros included).' })
export class ErasureResult {
  @Field(() => ID, { description: 'Its row in the audit log (erasures).' })
  id!: string;

  @Field({ description: 'Whether nothing was deleted (the counts are what would be).' })
  dryRun!: boolean;

  @Field(() => Int, { description: 'Rows of every kind together; 0 when the selector matched nothing.' })
  total!: number;

  @Field(() => [ErasureCount], { description: 'Rows per kind.' })
  counts!: ErasureCount[];

  static from(o: { id: string; dryRun: boolean; counts: Partial<Counts> }): ErasureResult {
    const counts = countsOf(o.counts);
    return Object.assign(new ErasureResult(), { id: o.id, dryRun: o.dryRun, counts, total: counts.reduce((a, c) => a + c.count, 0) });
  }
}

@ObjectType({ simpleResolvers: true, description: 'What an erasure was asked for (never the erased content).' })
export class ErasureSelectorRecord {
  @Field(() => String, { nullable: true, description: 'The agent.' })
  agentId!: string | null;

  @Field(() => String, { nullable: true, description: 'The session.' })
  sessionId!: string | null;

  @Field(() => String, { nullable: true, description: 'The memory bank.' })
  bankId!: string | null;

  @Field(() => String, { nullable: true, description: 'The metadata key.' })
  metadataKey!: string | null;

  @Field(() => String, { nullable: true, description: 'The metadata value.' })
  metadataValue!: string | null;

  @Field(() => Int, { description: 'How many ids the delete named.' })
  ids!: number;

  @Field(() => Int, { description: 'How many external ids the delete named.' })
  externalIds!: number;
}

@ObjectType({ simpleResolvers: true, description: 'One erasure of the audit log.' })
export class ErasureRecord {
  @Field(() => ID, { description: 'Id of the entry.' })
  id!: string;

  @Field({ description: 'When it ran.' })
  createdAt!: Date;

  @Field(() => ID, { nullable: true, description: 'The API key that asked for it.' })
  apiKeyId!: string | null;

  @Field({ description: 'deleteFacts, deleteEpisodes or eraseSubject.' })
  operation!: string;

  @Field(() => ErasureSelectorRecord, { description: 'What it was asked to erase.' })
  selector!: ErasureSelectorRecord;

  @Field({ description: 'Whether it was a dry run.' })
  dryRun!: boolean;

  @Field(() => Int, { description: 'Rows of every kind together.' })
  total!: number;

  @Field(() => [ErasureCount], { description: 'Rows per kind.' })
  counts!: ErasureCount[];

  static from(r: {
    id: string;
    created_at: Date | string;
    api_key_id: string | null;
    operation: string;
    selector: unknown;
    dry_run: boolean;
    counts: unknown;
  }): ErasureRecord {
    const s = (typeof r.selector === 'string' ? JSON.parse(r.selector) : r.selector) as Record<string, unknown>;
    const c = (typeof r.counts === 'string' ? JSON.parse(r.counts) : r.counts) as Partial<Counts>;
    const str = (k: string) => (typeof s[k] === 'string' ? s[k] : null);
    const selector = Object.assign(new ErasureSelectorRecord(), {
      agentId: str('agentId'),
      sessionId: str('sessionId'),
      bankId: str('bankId'),
      metadataKey: str('metadataKey'),
      metadataValue: str('metadataValue'),
      ids: Number(s.ids ?? 0),
      externalIds: Number(s.externalIds ?? 0),
    });
    const counts = countsOf(c);
    return Object.assign(new ErasureRecord(), {
      id: r.id,
      createdAt: new Date(r.created_at),
      apiKeyId: r.api_key_id,
      operation: r.operation,
      selector,
      dryRun: r.dry_run,
      counts,
      total: counts.reduce((a, x) => a + x.count, 0),
    });
  }
}

@ObjectType({ simpleResolvers: true, description: 'An erasure with its cursor.' })
export class ErasureEdge {
  @Field({ description: 'Opaque keyset cursor.' })
  cursor!: string;

  @Field(() => ErasureRecord, { description: 'The erasure.' })
  node!: ErasureRecord;
}

@ObjectType({ simpleResolvers: true, description: 'A page of the erasure audit log, newest first.' })
export class ErasureConnection {
  @Field(() => [ErasureEdge], { description: 'The erasures of this page.' })
  edges!: ErasureEdge[];

  @Field(() => PageInfo, { description: 'Where this page ends.' })
  pageInfo!: PageInfo;
}
