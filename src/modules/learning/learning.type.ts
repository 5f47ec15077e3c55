import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { Feedback } from '../feedback';
import { PageInfo } from '../shared';
import { chargedByConnection, listOf } from '../../core/limits';
import { ANALYTICS_MAX } from './analytics.sql';

/** `fewShotExamples(limit)` takes 1..100 (the default maximum of a `limit`). */
const MAX_FEW_SHOT = 100;

@ObjectType({ simpleResolvers: true, description: 'What the organization has seen of one document layout.' })
export class LayoutProfile {
  @Field(() => ID, { description: 'Server-generated id.' })
  id!: string;

  @Field({ description: 'SHA-256 layout fingerprint (64 lower-case hex).' })
  layoutFingerprint!: string;

  @Field(() => Int, { description: 'Documents recorded with this layout.' })
  seenCount!: number;

  @Field(() => Int, { description: 'Correction feedback recorded for this layout.' })
  exampleCount!: number;

  @Field(() => Float, { description: 'Documents of this layout with at least one correction, divided by seenCount.' })
  correctionRate!: number;

  @Field({ description: 'When a document of this layout was last recorded.' })
  lastSeenAt!: Date;

  @Field(() => GraphQLJSONObject, {
    description: 'Running averages of the recorded documents (pages, tables, text coverage, extraction confidence).',
  })
  stats!: Record<string, unknown>;

  @Field({ description: 'When the layout was first seen.' })
  createdAt!: Date;

  @Field({ description: 'When the profile last changed.' })
  updatedAt!: Date;
}

@ObjectType({ simpleResolvers: true, description: 'The result of recording a document layout.' })
export class DocumentLayoutResult {
  @Field({
    description:
      'The layout fingerprint (the same value Python document processors compute: SHA-256 of the sorted-keys JSON of the layout).',
  })
  fingerprint!: string;

  @Field({ description: 'True only for the call that created the profile.' })
  isNew!: boolean;

  @Field(() => LayoutProfile, { description: 'The profile after this call.' })
  profile!: LayoutProfile;
}

@ObjectType({ simpleResolvers: true, description: 'A layout profile with its cursor.' })
export class LayoutProfileEdge {
  @Field({ description: 'Opaque keyset cursor.' })
  cursor!: string;

  @Field(() => LayoutProfile, { description: 'The profile.' })
  node!: LayoutProfile;
}

@ObjectType({ simpleResolvers: true, description: 'A page of layout profiles, most recently seen first.' })
export class LayoutProfileConnection {
  @Field(() => [LayoutProfileEdge], { complexity: chargedByConnection, description: 'The profiles of this page.' })
  edges!: LayoutProfileEdge[];

  @Field(() => PageInfo, { description: 'Where this page ends.' })
  pageInfo!: PageInfo;
}

@ObjectType({ simpleResolvers: true, description: 'One past correction to show an extraction model.' })
export class FewShotExample {
  @Field(() => ID, { description: 'The correction feedback.' })
  feedbackId!: string;

  @Field({ description: '`meta.input_snippet` of the correction, cut to 1,500 characters.' })
  inputSnippet!: string;

  @Field(() => GraphQLJSON, { nullable: true, description: 'The corrected output (`after`).' })
  output!: unknown;

  @Field({ description: 'When the correction was made.' })
  createdAt!: Date;
}

@ObjectType({ simpleResolvers: true, description: 'The latest corrections of a layout, ready for a prompt.' })
export class FewShotExamples {
  @Field(() => [FewShotExample], { complexity: listOf(MAX_FEW_SHOT), description: 'Newest first.' })
  examples!: FewShotExample[];

  @Field({ description: 'JSON array of {input_snippet, output} exactly as Python json.dumps writes it; "" when there are none.' })
  hintExamplesJson!: string;
}

@ObjectType({ simpleResolvers: true, description: 'A count for one UTC day.' })
export class DayCount {
  @Field({ description: 'UTC date, YYYY-MM-DD.' })
  date!: string;

  @Field(() => Int, { description: 'Events that day.' })
  count!: number;
}

@ObjectType({ simpleResolvers: true, description: 'A count for one event type.' })
export class EventTypeCount {
  @Field({ description: 'Event type (the feedback type when none was given).' })
  eventType!: string;

  @Field(() => Int, { description: 'Events of this type.' })
  count!: number;
}

@ObjectType({ simpleResolvers: true, description: 'How often one field was corrected.' })
export class FieldCount {
  @Field({ description: 'Field name.' })
  field!: string;

  @Field(() => Int, { description: 'Corrections of it.' })
  count!: number;
}

@ObjectType({ simpleResolvers: true, description: 'Average extraction confidence of the documents of one UTC day.' })
export class ConfidencePoint {
  @Field({ description: 'UTC date, YYYY-MM-DD.' })
  date!: string;

  @Field(() => Float, { description: 'Average extractionConfidence.' })
  averageConfidence!: number;
}

@ObjectType({
  simpleResolvers: true,
  description: 'How the learning loop is doing: corrections over time, corrected fields, layouts and extraction confidence.',
})
export class LearningAnalytics {
  @Field(() => [DayCount], {
    complexity: listOf(ANALYTICS_MAX.days),
    description: 'Corrections, confirmations and rejections per UTC day (days without events are left out).',
  })
  eventsByDay!: DayCount[];

  @Field(() => [EventTypeCount], { description: 'Events per event type, most frequent first.' })
  eventsByType!: EventTypeCount[];

  @Field(() => [FieldCount], { complexity: listOf(ANALYTICS_MAX.fields), description: 'The 10 most corrected fields.' })
  correctedFields!: FieldCount[];

  @Field(() => [LayoutProfile], {
    complexity: listOf(ANALYTICS_MAX.layouts),
    description: 'Layout profiles with their correction rates, most recently seen first.',
  })
  layoutStats!: LayoutProfile[];

  @Field(() => [ConfidencePoint], { complexity: listOf(ANALYTICS_MAX.days), description: 'Average extraction confidence per UTC day.' })
  confidenceTrend!: ConfidencePoint[];

  @Field(() => [Feedback], {
    complexity: listOf(ANALYTICS_MAX.corrections),
    description: 'With a fingerprint: its latest 100 corrections with before/after; otherwise empty.',
  })
  corrections!: Feedback[];
}
