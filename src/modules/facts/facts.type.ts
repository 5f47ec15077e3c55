import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageInfo } from '../shared';
import { Fact } from './fact.type';
import { RecallStrategy } from './facts.inputs';
import { chargedByConnection } from '../../core/limits';

@ObjectType({ simpleResolvers: true, description: 'A fact with its cursor.' })
export class FactEdge {
  @Field({ description: 'Opaque keyset cursor of this fact.' })
  cursor!: string;

  @Field(() => Fact, { description: 'The fact.' })
  node!: Fact;
}

@ObjectType({ simpleResolvers: true, description: 'A page of facts, newest first.' })
export class FactConnection {
  @Field(() => [FactEdge], { complexity: chargedByConnection, description: 'The facts of this page.' })
  edges!: FactEdge[];

  @Field(() => PageInfo, { description: 'Where this page ends.' })
  pageInfo!: PageInfo;
}

export enum UsefulnessSource {
  QUERY_CONTEXT = 'QUERY_CONTEXT',
  GLOBAL = 'GLOBAL',
}
registerEnumType(UsefulnessSource, {
  name: 'UsefulnessSource',
  description: 'Where a recalled fact usefulness score came from.',
  valuesConfig: {
    QUERY_CONTEXT: { description: 'The score of a stored query context matching this query.' },
    GLOBAL: { description: 'No query context matched: the global score of the fact.' },
  },
});

@ObjectType({ simpleResolvers: true, description: 'A fact recalled for a query, with the parts of its score.' })
export class RecalledFact {
  @Field(() => Fact, { description: 'The fact.' })
  fact!: Fact;

  @Field(() => Float, {
    nullable: true,
    description:
      'Embedding cosine clipped at 0; null when the fact or the query has no vector (strategy SEMANTIC: pg_trgm word similarity of query and text for a fact without one).',
  })
  semanticScore!: number | null;

  @Field(() => Float, { nullable: true, description: 'BM25 over English stems, normalised to 0..1; null with strategy SEMANTIC.' })
  lexicalScore?: number | null;

  @Field(() => Float, {
    description: 'Relevance 0..1 the final score is made from: the strategy used decides it (see strategyUsed).',
  })
  /** always set by recall (optional here for the vector index's rows, completed by recall) */
  relevance?: number;

  @Field(() => RecallStrategy, {
    description: 'The strategy that ranked this answer: LEXICAL when HYBRID had no query vector or the embedder was unavailable.',
  })
  strategyUsed?: RecallStrategy;

  @Field(() => Float, { description: 'Usefulness 0..1 (query context, else global), decayed to now.' })
  usefulnessScore!: number;

  @Field(() => UsefulnessSource, { description: 'Whether usefulnessScore is a query-context or the global score.' })
  usefulnessSource!: UsefulnessSource;

  @Field(() => Float, {
    description: '(1 - usefulnessWeight) * relevance + usefulnessWeight * usefulnessScore when boosting, else relevance.',
  })
  finalScore!: number;
}

@ObjectType({ simpleResolvers: true, description: 'A fact and how many rejected episodes used it.' })
export class FailedFact {
  @Field(() => Fact, { description: 'The fact.' })
  fact!: Fact;

  @Field(() => Int, { description: 'Episodes with accepted = false that used the fact.' })
  rejectedEpisodeCount!: number;
}
