import { Field, Float, Int, ObjectType } from 'type-graphql';
import { FactSignal } from './fact-signals';

@ObjectType({ simpleResolvers: true, description: 'A memory bank of the organization and how many facts it holds.' })
export class FactBank {
  @Field({ description: 'The bank id.' })
  bankId!: string;

  @Field(() => Int, { description: 'Facts in the bank.' })
  facts!: number;

  @Field({ description: 'When its newest fact was created.' })
  lastFactAt!: Date;
}

@ObjectType('FactSignalStep', {
  simpleResolvers: true,
  description: 'A signal of a fact with where it came from and the usefulness right after it.',
})
export class FactSignalRecord extends FactSignal {
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
