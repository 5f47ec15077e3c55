import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { type Policy, POLICIES } from './policies';

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

  /** the zone each entry came from (EARLY, RELEVANT, RECENT), for its memory trace; not a field */
  zones?: string[];
}
