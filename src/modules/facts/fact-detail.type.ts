import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { SignalType } from './facts.inputs';

@ObjectType({ simpleResolvers: true, description: 'A memory bank of the organization and how many facts it holds.' })
export class FactBank {
  @Field({ description: 'The bank id.' })
  bankId!: string;

  @Field(() => Int, { description: 'Facts in the bank.' })
  facts!: number;

  @Field({ description: 'When its newest fact was created.' })
  lastFactAt!: Date;
}

@ObjectType('FactSignal', { simpleResolvers: true, description: 'One usefulness signal of a fact, as it was given.' })
export class FactSignalRecord {
  @Field(() => ID, { description: 'Server-generated id.' })
  id!: string;

  @Field(() => SignalType, { description: 'What happened with the fact.' })
  signalType!: SignalType;

  @Field(() => Float, { description: 'Confidence 0..1.' })
  confidence!: number;

  @Field(() => Float, { description: 'How far it moved the score: weight * confidence * 0.1.' })
  delta!: number;

  @Field({ description: 'The query the fact was recalled for (its query context).' })
  query!: string;

  @Field(() => String, { nullable: true, description: 'Why it was given (free text).' })
  context!: string | null;

  @Field({ description: 'When it arrived.' })
  createdAt!: Date;

  @Field(() => Float, {
    description:
      'The global usefulness right after it: the fact’s signals replayed in order from 0.5 (decay between signals, then the delta, clamped).',
  })
  usefulnessAfter!: number;
}

@ObjectType('FactQueryContext', { simpleResolvers: true, description: 'The usefulness of a fact for one kind of question.' })
export class FactQueryContextRecord {
  @Field({ description: 'The query as first seen.' })
  query!: string;

  @Field(() => Float, { description: 'Usefulness 0..1 for this context, decayed toward 0.5 to the moment it is read.' })
  usefulness!: number;

  @Field(() => Int, { description: 'Signals received in this context.' })
  signalCount!: number;

  @Field(() => Date, { nullable: true, description: 'When its last signal arrived.' })
  lastSignalAt!: Date | null;

  @Field({ description: 'Whether the context has a query embedding (recall matches it by cosine, else by its normalised text).' })
  embedded!: boolean;
}
