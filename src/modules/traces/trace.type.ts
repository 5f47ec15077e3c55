import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum MemoryTraceOperation {
  RECALL = 'RECALL',
  RECALL_EPISODES = 'RECALL_EPISODES',
  MEMORY_CONTEXT = 'MEMORY_CONTEXT',
}
registerEnumType(MemoryTraceOperation, {
  name: 'MemoryTraceOperation',
  description: 'The read a memory trace recorded.',
  valuesConfig: {
    RECALL: { description: '`recall`: facts.' },
    RECALL_EPISODES: { description: '`recallEpisodes`: episodes.' },
    MEMORY_CONTEXT: { description: '`memoryContext`: segments.' },
  },
});

@ObjectType({ simpleResolvers: true, description: 'One item a traced read served, with the scores it was served with.' })
export class MemoryTraceItem {
  @Field(() => Int, { description: 'Its place in the answer, 1-based, in served order.' })
  rank!: number;

  @Field(() => ID, { nullable: true, description: 'recall: the fact.' })
  factId!: string | null;

  @Field(() => ID, { nullable: true, description: "recallEpisodes: the episode; memoryContext: the segment's episode." })
  episodeId!: string | null;

  @Field(() => ID, { nullable: true, description: 'memoryContext: the segment.' })
  segmentId!: string | null;

  @Field(() => String, { nullable: true, description: 'memoryContext: the zone it was chosen in (EARLY, RELEVANT or RECENT).' })
  zone!: string | null;

  @Field(() => Float, { nullable: true, description: 'recall: semanticScore as served.' })
  semanticScore!: number | null;

  @Field(() => Float, { nullable: true, description: 'recall: lexicalScore as served.' })
  lexicalScore!: number | null;

  @Field(() => Float, { nullable: true, description: 'recall and recallEpisodes: relevance as served.' })
  relevance!: number | null;

  @Field(() => Float, { nullable: true, description: 'recall: usefulnessScore as served.' })
  usefulnessScore!: number | null;

  @Field(() => String, { nullable: true, description: 'recall: usefulnessSource as served (QUERY_CONTEXT or GLOBAL).' })
  usefulnessSource!: string | null;

  @Field(() => Float, { nullable: true, description: 'recall and recallEpisodes: finalScore as served.' })
  finalScore!: number | null;

  @Field({ description: 'recall: the episode has since said it used this fact (`useFacts`, or `factIds` of recordEpisode); else false.' })
  used!: boolean;
}

@ObjectType({ simpleResolvers: true, description: 'What one traced read (recall, recallEpisodes or memoryContext) served to an episode.' })
export class MemoryTrace {
  @Field(() => ID, { description: 'Server-generated id (credited signals name it as `traceId`).' })
  id!: string;

  @Field(() => MemoryTraceOperation, { description: 'The read.' })
  operation!: MemoryTraceOperation;

  @Field(() => Int, { nullable: true, description: 'The turn the memory was for, as given in `trace.seq`.' })
  seq!: number | null;

  @Field(() => String, { nullable: true, description: 'The query of the read.' })
  query!: string | null;

  @Field(() => String, { nullable: true, description: 'recall: the strategy that ranked the answer (HYBRID, SEMANTIC or LEXICAL).' })
  strategy!: string | null;

  @Field(() => String, { nullable: true, description: 'memoryContext: the policy (RECENT, RELEVANT, MIXED or FOVEATED).' })
  mode!: string | null;

  @Field(() => Int, { nullable: true, description: 'memoryContext: the token budget; recall and recallEpisodes: the limit.' })
  budget!: number | null;

  @Field({ description: 'When it was served.' })
  createdAt!: Date;

  @Field(() => [MemoryTraceItem], { description: 'The served items, in served order.' })
  items!: MemoryTraceItem[];
}
