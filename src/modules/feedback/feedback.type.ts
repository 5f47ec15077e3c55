import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Episode } from '../episodes';
import { PageInfo } from '../shared';
import { FEEDBACK_TYPES, type FeedbackType } from './feedback-score';
import { chargedByConnection } from '../../core/limits';
import type { Instant } from '../../core/instant';

export const FeedbackTypeEnum = Object.fromEntries(FEEDBACK_TYPES.map((t) => [t, t])) as { [K in FeedbackType]: K };
registerEnumType(FeedbackTypeEnum, {
  name: 'FeedbackType',
  description: 'Kind of feedback.',
  valuesConfig: {
    THUMBS_UP: { description: 'Score +1.' },
    THUMBS_DOWN: { description: 'Score -1.' },
    RATING: { description: 'A rating 1..5; score (rating - 3) / 2.' },
    CORRECTION: { description: 'An operator corrected the output (no score unless rated).' },
    CONFIRMATION: { description: 'An operator confirmed something (no score unless rated).' },
    REJECTION: { description: 'An operator rejected something (no score unless rated).' },
    JUDGEMENT: { description: "A judge's verdict (never scored); with accepted = false it is the rejection log." },
  },
});

@ObjectType({ simpleResolvers: true, description: 'A response to agent output: a rating, a correction, a confirmation, a verdict.' })
export class Feedback {
  @Field(() => ID, { description: 'Server-generated id.' })
  id!: string;

  @Field(() => ID, { nullable: true, description: 'The episode it is about; null when not linked.' })
  episodeId!: string | null;

  @Field(() => String, { nullable: true, description: 'The agent (taken from the episode when linked).' })
  agentId!: string | null;

  @Field(() => String, { nullable: true, description: 'The session.' })
  sessionId!: string | null;

  @Field(() => String, { nullable: true, description: 'The execution of the runtime.' })
  executionId!: string | null;

  @Field(() => ID, { description: 'The API key that wrote it.' })
  actorId!: string;

  @Field(() => String, { nullable: true, description: "The caller's own user id, when given." })
  actorUserId!: string | null;

  @Field(() => FeedbackTypeEnum, { description: 'Kind of feedback.' })
  feedbackType!: FeedbackType;

  @Field(() => Int, { nullable: true, description: 'Rating 1..5.' })
  rating!: number | null;

  @Field(() => Float, { nullable: true, description: 'Score -1..1; null for unscored feedback.' })
  score!: number | null;

  @Field(() => String, { nullable: true, description: 'Free-text corrections (<= 4,000 characters); for judgements, the judge feedback.' })
  corrections!: string | null;

  @Field(() => String, { nullable: true, description: 'Operator event type, UPPER_SNAKE_CASE (e.g. EXTRACTION_FIELD_CORRECTED).' })
  eventType!: string | null;

  @Field(() => String, { nullable: true, description: 'Kind of entity corrected.' })
  entityType!: string | null;

  @Field(() => String, { nullable: true, description: 'Id of the entity corrected.' })
  entityId!: string | null;

  @Field(() => String, { nullable: true, description: 'The document the correction is about.' })
  documentId!: string | null;

  @Field(() => String, { nullable: true, description: "The document's layout fingerprint." })
  layoutFingerprint!: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'State before the correction.' })
  before!: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'State after the correction.' })
  after!: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Extra data (`reduced: true` when before/after were reduced to fit 10 KB).',
  })
  meta!: Record<string, unknown> | null;

  @Field(() => Boolean, { nullable: true, description: 'Judgements: the verdict.' })
  accepted!: boolean | null;

  @Field(() => String, { nullable: true, description: 'Judgements: why.' })
  reason!: string | null;

  @Field(() => Date, { description: 'When it was given.' })
  createdAt!: Instant;
}

@ObjectType({ simpleResolvers: true, description: 'New feedback and its episode with the updated aggregate.' })
export class FeedbackResult {
  @Field(() => Feedback, { description: 'The feedback.' })
  feedback!: Feedback;

  @Field(() => Episode, { nullable: true, description: 'The linked episode, counters updated; null when not linked.' })
  episode!: Episode | null;
}

@ObjectType({ simpleResolvers: true, description: 'A feedback event delivered to subscribers.' })
export class FeedbackEvent {
  @Field(() => Feedback, { description: 'The feedback.' })
  feedback!: Feedback;

  @Field(() => Episode, { nullable: true, description: 'The linked episode as of delivery; null when not linked.' })
  episode!: Episode | null;
}

@ObjectType({ simpleResolvers: true, description: 'Feedback with its cursor.' })
export class FeedbackEdge {
  @Field({ description: 'Opaque keyset cursor.' })
  cursor!: string;

  @Field(() => Feedback, { description: 'The feedback.' })
  node!: Feedback;
}

@ObjectType({ simpleResolvers: true, description: 'A page of feedback, newest first.' })
export class FeedbackConnection {
  @Field(() => [FeedbackEdge], { complexity: chargedByConnection, description: 'The feedback of this page.' })
  edges!: FeedbackEdge[];

  @Field(() => PageInfo, { description: 'Where this page ends.' })
  pageInfo!: PageInfo;
}
