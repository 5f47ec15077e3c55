import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageInfo } from '../shared';
import { Fact } from './fact.type';
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

  @Field(() => Float, { description: 'Relevance 0..1: embedding cosine clipped at 0, else pg_trgm word similarity of query and text.' })
  semanticScore!: number;

  @Field(() => Float, { description: 'Usefulness 0..1 (query context, else global), decayed to now.' })
  usefulnessScore!: number;

  @Field(() => UsefulnessSource, { description: 'Whether usefulnessScore is a query-context or the global score.' })
  usefulnessSource!: UsefulnessSource;

  @Field(() => Float, {
    description: '(1 - usefulnessWeight) * semanticScore + usefulnessWeight * usefulnessScore when boosting, else semanticScore.',
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
