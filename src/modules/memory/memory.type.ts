import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { type Policy, POLICIES, type Zone } from './policies';

const MemoryPolicyEnum = Object.fromEntries(POLICIES.map((p) => [p, p])) as { [K in Policy]: K };
registerEnumType(MemoryPolicyEnum, {
  name: 'MemoryPolicy',
  description: 'How memories are chosen within a token budget.',
  valuesConfig: {
    RECENT: { description: 'The newest that fit.' },
    RELEVANT: { description: 'The best word overlap (Jaccard) with the query that fit.' },
    MIXED: { description: 'Half the budget relevant, half recent.' },
    FOVEATED: { description: '30% earliest turns, 30% relevant, 40% recent, merged in chronological order (the foveated policy).' },
  },
});

const MemoryZoneEnum = { EARLY: 'EARLY', RELEVANT: 'RELEVANT', RECENT: 'RECENT' } as const satisfies { [K in Zone]: K };
registerEnumType(MemoryZoneEnum, {
  name: 'MemoryZone',
  description: "The part of the policy's token budget a memory was chosen for.",
  valuesConfig: {
    EARLY: { description: 'The earliest turns (FOVEATED: 30% of the budget).' },
    RELEVANT: { description: 'The best word overlap with the query (RELEVANT: all, MIXED: half, FOVEATED: 30%).' },
    RECENT: { description: 'The newest turns (RECENT: all, MIXED: half, FOVEATED: 40%).' },
  },
});

export enum LeftOutReason {
  DID_NOT_FIT = 'DID_NOT_FIT',
  RANKED_BELOW = 'RANKED_BELOW',
  MERGED_OUT = 'MERGED_OUT',
}
registerEnumType(LeftOutReason, {
  name: 'MemoryLeftOutReason',
  description: 'Why a candidate memory was not selected.',
  valuesConfig: {
    DID_NOT_FIT: { description: 'A zone reached it but it was longer than the tokens the zone had left (see `zone`, `tokensLeft`).' },
    RANKED_BELOW: { description: 'Every zone was full before its turn came (older, or less relevant, than what was chosen).' },
    MERGED_OUT: { description: 'A zone chose it, but merging the zones in chronological order ran out of the total budget.' },
  },
});

@InputType({ description: 'What context an agent wants and how many tokens it may take.' })
export class MemoryContextInput {
  @Field({ description: 'The agent whose episodes are drawn from.' })
  agentId!: string;

  @Field(() => String, { nullable: true, description: 'Only this session.' })
  sessionId?: string | null;

  @Field(() => String, { nullable: true, description: 'The question at hand; without it the relevant zone is empty.' })
  query?: string | null;

  @Field(() => Int, { description: 'Token budget, 1..1,000,000.' })
  tokenBudget!: number;

  @Field(() => MemoryPolicyEnum, { defaultValue: 'FOVEATED', description: 'Selection policy.' })
  mode?: Policy;

  @Field(() => Int, { defaultValue: 2000, description: 'Candidates considered: the earliest 3 plus the most recent (1..10,000).' })
  maxCandidates?: number;
}

@ObjectType({ simpleResolvers: true, description: 'One selected memory: a segment of an episode.' })
export class MemoryEntry {
  @Field(() => ID, { description: 'The segment.' })
  id!: string;

  @Field(() => ID, { description: 'Its episode.' })
  episodeId!: string;

  @Field({ description: 'user, assistant, system, tool or event.' })
  role!: string;

  @Field({ description: 'The text.' })
  content!: string;

  @Field({ description: 'When it happened.' })
  createdAt!: Date;

  @Field(() => Int, { description: 'Its tokens.' })
  tokenEstimate!: number;

  @Field(() => MemoryZoneEnum, { nullable: true, description: 'The zone that chose it (the first of EARLY, RELEVANT, RECENT that did).' })
  zone?: Zone;

  @Field(() => Float, {
    nullable: true,
    description: 'Word overlap (Jaccard, 0..1) with the query; null when the policy did not rank by relevance (RECENT, or no query).',
  })
  relevance?: number | null;
}

@ObjectType({ simpleResolvers: true, description: 'A candidate memory that was not selected, and why.' })
export class LeftOutMemory {
  @Field(() => ID, { description: 'The segment.' })
  id!: string;

  @Field(() => ID, { description: 'Its episode.' })
  episodeId!: string;

  @Field({ description: 'user, assistant, system, tool or event.' })
  role!: string;

  @Field(() => String, { nullable: true, description: 'The text; null when the segment was deleted meanwhile.' })
  content!: string | null;

  @Field({ description: 'When it happened.' })
  createdAt!: Date;

  @Field(() => Int, { description: 'Its tokens.' })
  tokenEstimate!: number;

  @Field(() => Float, { nullable: true, description: 'Word overlap (Jaccard, 0..1) with the query, as for the selected entries.' })
  relevance!: number | null;

  @Field(() => LeftOutReason, { description: 'Why it was left out.' })
  reason!: LeftOutReason;

  @Field(() => MemoryZoneEnum, { nullable: true, description: 'DID_NOT_FIT and MERGED_OUT: the zone that reached it.' })
  zone!: Zone | null;

  @Field(() => Int, { nullable: true, description: 'DID_NOT_FIT: the tokens the zone had left when it reached it.' })
  tokensLeft!: number | null;
}

@ObjectType({ simpleResolvers: true, description: 'The memories chosen for a token budget, in chronological order.' })
export class MemoryContext {
  @Field(() => [MemoryEntry], { description: 'Selected memories, oldest first.' })
  entries!: MemoryEntry[];

  @Field(() => Int, { description: 'Tokens of the selected memories (<= the budget).' })
  tokenEstimate!: number;

  @Field(() => MemoryPolicyEnum, { description: 'The policy used.' })
  policy!: Policy;

  @Field(() => Int, { description: 'Candidates considered.' })
  candidatesConsidered!: number;

  @Field(() => Int, { description: 'Memories selected.' })
  memoriesSelected!: number;

  /** the candidates not selected, most relevant (else newest) first, worked out only when asked for */
  leftOutOf?: (limit: number) => Promise<LeftOutMemory[]>;
}
