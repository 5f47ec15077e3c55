import { Field, Float, ID, InputType, Int, registerEnumType } from 'type-graphql';
import { FactStatus } from './fact.type';

export enum SignalType {
  USED = 'USED',
  IGNORED = 'IGNORED',
  HELPFUL = 'HELPFUL',
  NOT_HELPFUL = 'NOT_HELPFUL',
}
registerEnumType(SignalType, {
  name: 'SignalType',
  description: 'What the agent or user did with a recalled fact.',
  valuesConfig: {
    USED: { description: 'The agent referenced the fact in its response (+1.0).' },
    IGNORED: { description: 'The agent saw the fact but did not use it (-0.5).' },
    HELPFUL: { description: 'A user marked the fact helpful (+1.5).' },
    NOT_HELPFUL: { description: 'A user marked the fact not helpful (-1.0).' },
  },
});

@InputType({ description: 'Which facts to list; all conditions must hold.' })
export class FactFilter {
  @Field(() => String, { nullable: true, description: 'Only facts of this memory bank.' })
  bankId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only facts of this kind.' })
  kind?: string | null;

  @Field(() => [FactStatus], { nullable: true, description: 'Only facts in one of these states.' })
  statuses?: FactStatus[] | null;

  @Field(() => String, { nullable: true, description: 'Only the fact with this external id.' })
  externalId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only mappings of this scope.' })
  scope?: string | null;

  @Field({ defaultValue: false, description: 'Also list superseded facts and facts outside their validity (left out by default).' })
  includeSuperseded?: boolean;

  @Field({
    defaultValue: false,
    description:
      'With bankId: answer NOT_FOUND (field filter.bankId) rather than an empty first page when the organization has no fact in that bank (one the bank list would not show).',
  })
  requireBank?: boolean;

  @Field(() => String, {
    nullable: true,
    description:
      'Only facts whose text matches these words (English stems, web-search syntax: "a phrase", -excluded, or), 1..200 characters.',
  })
  text?: string | null;

  @Field(() => Float, { nullable: true, description: 'Only facts whose usefulness (decayed to now) is at least this, 0..1.' })
  minUsefulness?: number | null;

  @Field(() => Float, { nullable: true, description: 'Only facts whose usefulness (decayed to now) is at most this, 0..1.' })
  maxUsefulness?: number | null;
}

@InputType({ description: 'A fact to create, or to update when a fact with its externalId exists.' })
export class FactInput {
  @Field({ description: 'The memory bank (usually an agent id), 1..200 characters.' })
  bankId!: string;

  @Field({ description: 'The fact, 1 character to 8 KB.' })
  text!: string;

  @Field(() => String, { nullable: true, description: 'Kind of fact; kept when omitted on an update.' })
  kind?: string | null;

  @Field(() => String, { nullable: true, description: 'Your id for the fact (unique per organization); without it a new fact is created.' })
  externalId?: string | null;

  @Field(() => [Float], {
    nullable: true,
    description: "Embedding; its dimension must match the organization's other fact embeddings. Kept when omitted on an update.",
  })
  embedding?: number[] | null;

  @Field(() => String, { nullable: true, description: 'Mappings: the scope; kept when omitted on an update.' })
  scope?: string | null;

  @Field(() => String, { nullable: true, description: 'Mappings: the key; kept when omitted on an update.' })
  key?: string | null;

  @Field(() => String, { nullable: true, description: 'Mappings: the value; kept when omitted on an update.' })
  value?: string | null;

  @Field(() => Date, { nullable: true, description: 'When the fact starts being true; kept when omitted on an update.' })
  validFrom?: Date | null;

  @Field(() => Date, {
    nullable: true,
    description: 'When the fact stops being true (after validFrom); kept when omitted on an update. Recall leaves it out from then on.',
  })
  validTo?: Date | null;
}

@InputType({ description: 'How useful a recalled fact was for a query.' })
export class SignalInput {
  @Field(() => ID, { description: 'The fact.' })
  factId!: string;

  @Field(() => SignalType, { description: 'What happened with the fact.' })
  signalType!: SignalType;

  @Field(() => Float, { defaultValue: 1.0, description: 'Confidence in the signal, 0..1.' })
  confidence!: number;

  @Field({ description: 'The query the fact was recalled for (required, non-empty): the query context of the signal.' })
  query!: string;

  @Field(() => [Float], { nullable: true, description: 'Embedding of the query; queries with cosine >= 0.85 share a query context.' })
  queryEmbedding?: number[] | null;

  @Field(() => String, { nullable: true, description: 'Why the signal was given (free text, kept in the signal log).' })
  context?: string | null;
}

export enum RecallStrategy {
  HYBRID = 'HYBRID',
  SEMANTIC = 'SEMANTIC',
  LEXICAL = 'LEXICAL',
}
registerEnumType(RecallStrategy, {
  name: 'RecallStrategy',
  description: 'How recall judges how relevant a fact is to the query.',
  valuesConfig: {
    HYBRID: { description: 'Stemmed word matches (BM25) fused with embedding similarity; LEXICAL when there is no query vector.' },
    SEMANTIC: {
      description: 'Embedding cosine (pg_trgm word similarity for facts without an embedding), the ranking of earlier versions.',
    },
    LEXICAL: { description: 'Stemmed word matches alone (BM25 over English stems, normalised to 0..1).' },
  },
});

@InputType({ description: 'What to recall from a memory bank.' })
export class RecallInput {
  @Field({ description: 'The memory bank to search.' })
  bankId!: string;

  @Field({ description: 'The question (non-empty).' })
  query!: string;

  @Field(() => [Float], {
    nullable: true,
    description: 'Embedding of the query, for cosine similarity with fact embeddings and query contexts.',
  })
  queryEmbedding?: number[] | null;

  @Field(() => Int, { defaultValue: 10, description: 'How many facts to return, 1..100.' })
  limit!: number;

  @Field({ defaultValue: false, description: 'Rank by a mix of relevance and usefulness.' })
  boostByUsefulness!: boolean;

  @Field(() => Float, { defaultValue: 0.3, description: 'Share of usefulness in the final score when boosting, 0..1.' })
  usefulnessWeight!: number;

  @Field(() => Float, { defaultValue: 0, description: 'Leave out facts whose usefulness score is below this (0..1).' })
  minUsefulness!: number;

  @Field(() => [String], { nullable: true, description: 'Only facts of these kinds.' })
  kinds?: string[] | null;

  @Field(() => [FactStatus], { nullable: true, description: 'Only facts in these states.' })
  statuses?: FactStatus[] | null;

  @Field(() => RecallStrategy, {
    nullable: true,
    description:
      'How relevance is judged. Default: SEMANTIC when queryEmbedding is given (the ranking of earlier versions), else HYBRID; HYBRID with asOf.',
  })
  strategy?: RecallStrategy | null;

  @Field({ defaultValue: false, description: 'Also recall superseded facts and facts outside their validity (left out by default).' })
  includeSuperseded?: boolean;

  @Field(() => Date, {
    nullable: true,
    description:
      'Recall as of this past instant: the facts valid then, with their text then, ranked the same way (strategy LEXICAL or HYBRID; usefulness is as of now).',
  })
  asOf?: Date | null;
}

export enum FactOrder {
  NEWEST = 'NEWEST',
  MOST_USEFUL = 'MOST_USEFUL',
}
registerEnumType(FactOrder, {
  name: 'FactOrder',
  description: 'How a page of facts is ordered.',
  valuesConfig: {
    NEWEST: { description: 'Newest first (created, then id).' },
    MOST_USEFUL: {
      description: "Most useful first: the global usefulness decayed to the first page's time (kept by its cursors), then id.",
    },
  },
});
