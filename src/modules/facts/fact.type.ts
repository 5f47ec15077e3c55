import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { Fact as FactEntity } from './fact.entity';
import { usefulnessAt } from './usefulness';

export enum FactStatus {
  SUGGESTED = 'SUGGESTED',
  CONFIRMED = 'CONFIRMED',
  REJECTED = 'REJECTED',
}
registerEnumType(FactStatus, {
  name: 'FactStatus',
  description: 'Review state of a fact or mapping.',
  valuesConfig: {
    SUGGESTED: { description: 'Proposed, not reviewed.' },
    CONFIRMED: { description: 'Confirmed by an operator.' },
    REJECTED: { description: 'Rejected by an operator.' },
  },
});

@ObjectType({
  simpleResolvers: true,
  description: 'A fact of a memory bank, with its usefulness learned from signals. Mappings are facts in bank `mappings`.',
})
export class Fact {
  @Field(() => ID, { description: 'Server-generated id.' })
  id!: string;

  @Field({ description: 'The memory bank (usually an agent id).' })
  bankId!: string;

  @Field({ description: 'The fact itself (<= 8 KB); empty for a stub created from an unknown external id.' })
  text!: string;

  @Field(() => String, { nullable: true, description: 'Kind of fact, caller-defined.' })
  kind!: string | null;

  @Field(() => String, { nullable: true, description: "The caller's id for the fact, unique per organization." })
  externalId!: string | null;

  @Field(() => String, { nullable: true, description: 'Mappings: the scope (e.g. a customer id).' })
  scope!: string | null;

  @Field(() => String, { nullable: true, description: 'Mappings: the key (e.g. a customer SKU).' })
  key!: string | null;

  @Field(() => String, { nullable: true, description: 'Mappings: the value (e.g. the internal SKU).' })
  value!: string | null;

  @Field(() => FactStatus, { description: 'Review state.' })
  status!: FactStatus;

  @Field(() => Float, { description: 'Confidence 0..1.' })
  confidence!: number;

  @Field(() => Int, { description: 'How many confirmations support the current value.' })
  supportCount!: number;

  @Field(() => Float, { description: 'Global usefulness 0..1, decayed toward 0.5 to the moment it is read.' })
  usefulness!: number;

  @Field(() => Int, { description: 'Signals received.' })
  signalCount!: number;

  @Field(() => Date, { nullable: true, description: 'When the last signal arrived.' })
  lastSignalAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the fact was last used or confirmed.' })
  lastUsedAt!: Date | null;

  @Field({ description: 'When the fact was created.' })
  createdAt!: Date;

  @Field({ description: 'When the fact last changed.' })
  updatedAt!: Date;

  @Field(() => ID, {
    nullable: true,
    description: 'The fact that replaces this one; recall and facts leave this one out unless includeSuperseded.',
  })
  supersededById!: string | null;

  @Field(() => Date, { nullable: true, description: 'When the fact starts being true (null: always was).' })
  validFrom!: Date | null;

  @Field(() => Date, {
    nullable: true,
    description: 'When the fact stops being true (null: still is); recall and facts leave out expired facts unless includeSuperseded.',
  })
  validTo!: Date | null;

  /** not exposed: for ranking */
  embedding!: number[] | null;

  static from(f: FactEntity, now: Date = new Date()): Fact {
    return Object.assign(new Fact(), {
      id: f.id,
      bankId: f.bankId,
      text: f.text,
      kind: f.kind,
      externalId: f.externalId,
      scope: f.scope,
      key: f.key,
      value: f.value,
      status: f.status as FactStatus,
      confidence: f.confidence,
      supportCount: f.supportCount,
      usefulness: usefulnessAt(f.usefulness, f.lastSignalAt, now),
      signalCount: f.signalCount,
      lastSignalAt: f.lastSignalAt,
      lastUsedAt: f.lastUsedAt,
      createdAt: f.createdAt,
      updatedAt: f.updatedAt,
      supersededById: f.supersededBy,
      validFrom: f.validFrom,
      validTo: f.validTo,
      embedding: f.embedding,
    });
  }
}
