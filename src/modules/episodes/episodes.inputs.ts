import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, ID, InputType, Int } from 'type-graphql';
import { MaxLength } from '../../core/input-limits';
import { CanvasActionEnum, type CanvasAction } from '../shared';

@InputType({ description: 'One turn of an episode.' })
export class SegmentInput {
  @Field({ description: 'user, assistant, system, tool or event.' })
  role!: string;

  @Field({ description: 'What was said or done (<= 100,000 characters).' })
  @MaxLength(100_000)
  content!: string;

  @Field(() => Int, { nullable: true, description: 'Tokens of the content; default ceil(characters / 4).' })
  tokenEstimate?: number | null;

  @Field(() => Date, { nullable: true, description: 'When the turn happened (importers); default the episode time or now.' })
  occurredAt?: Date | null;
}

@InputType({ description: 'Something an episode produced.' })
export class OutputInput {
  @Field({ description: 'Kind of output, e.g. "mcq".' })
  kind!: string;

  @Field(() => GraphQLJSON, { description: 'The output itself (any JSON, <= 64 KB).' })
  content!: unknown;

  @Field(() => String, { nullable: true, description: 'Difficulty label.' })
  difficulty?: string | null;

  @Field(() => Float, { nullable: true, description: 'Quality 0..1.' })
  qualityScore?: number | null;

  @Field(() => Int, { nullable: true, description: 'How many times it was regenerated (>= 0, default 0).' })
  regenerationRound?: number | null;
}

@InputType({ description: 'A new episode with what it holds from the start.' })
export class RecordEpisodeInput {
  @Field({ description: 'The agent that did it (<= 200 characters).' })
  agentId!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Conversation or run; same-session canvas actions and feedback without an episode are linked to this one.',
  })
  sessionId?: string | null;

  @Field(() => String, { nullable: true, description: 'Short title (<= 500 characters).' })
  title?: string | null;

  @Field(() => String, { nullable: true, description: 'The input question or request (<= 20,000 characters).' })
  @MaxLength(20_000)
  task?: string | null;

  @Field(() => String, { nullable: true, description: 'What the agent meant to do (<= 200 characters).' })
  intent?: string | null;

  @Field(() => String, { nullable: true, description: 'Subject area (<= 200 characters).' })
  topic?: string | null;

  @Field(() => String, { nullable: true, description: 'Blueprint or template followed (<= 2,000 characters).' })
  blueprint?: string | null;

  @Field(() => [String], { nullable: true, description: 'Execution ids of the runtime (<= 100).' })
  executionIds?: string[] | null;

  @Field(() => Date, { nullable: true, description: 'When the episode ended.' })
  endedAt?: Date | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Importers: a verdict recorded with the episode (no JUDGEMENT feedback is written).',
  })
  accepted?: boolean | null;

  @Field(() => Float, { nullable: true, description: 'Importers: overall score 0..1.' })
  overallScore?: number | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Model and generation settings (JSON object, <= 10 KB).' })
  generationConfig?: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Free-form metadata (JSON object, <= 10 KB).' })
  metadata?: Record<string, unknown> | null;

  @Field(() => [Float], { nullable: true, description: 'Embedding of the episode (any dimension, the same within an organization).' })
  embedding?: number[] | null;

  @Field(() => [SegmentInput], { nullable: true, description: 'Initial turns (<= 1,000), numbered from 1.' })
  segments?: SegmentInput[] | null;

  @Field(() => [OutputInput], { nullable: true, description: 'What the episode produced (<= 100).' })
  outputs?: OutputInput[] | null;

  @Field(() => [ID], { nullable: true, description: 'Facts used, by id (<= 500).' })
  factIds?: string[] | null;

  @Field(() => [String], {
    nullable: true,
    description: 'Facts used, by external id; unknown ones become stub facts in the bank of the agent (<= 500).',
  })
  factExternalIds?: string[] | null;

  @Field(() => Date, { nullable: true, description: 'When it happened (importers; at most 5 minutes in the future); default now.' })
  occurredAt?: Date | null;

  @Field(() => String, {
    nullable: true,
    description: 'Repeat-safe key (<= 128 characters): a repeat within 24 h returns the first result.',
  })
  idempotencyKey?: string | null;
}

@InputType({ description: 'Which episodes to list. All conditions must hold.' })
export class EpisodeFilter {
  @Field(() => String, { nullable: true, description: 'Only this agent.' })
  agentId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only this session.' })
  sessionId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only this topic.' })
  topic?: string | null;

  @Field(() => String, { nullable: true, description: 'Only this intent.' })
  intent?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Only judged accepted (true) or rejected (false).' })
  accepted?: boolean | null;

  @Field(() => Float, {
    nullable: true,
    description: 'Aggregate feedback score at least this (episodes without scored feedback are left out).',
  })
  minFeedbackScore?: number | null;

  @Field(() => Float, {
    nullable: true,
    description: 'Aggregate feedback score at most this (episodes without scored feedback are left out).',
  })
  maxFeedbackScore?: number | null;

  @Field(() => Date, { nullable: true, description: 'Created at or after this time.' })
  createdAfter?: Date | null;

  @Field(() => Date, { nullable: true, description: 'Created before this time.' })
  createdBefore?: Date | null;

  @Field(() => String, { nullable: true, description: 'Created within this range back from now: "24h", "7d", "4w".' })
  timeRange?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'With (true) or without (false) canvas actions.' })
  hasCanvas?: boolean | null;

  @Field(() => String, { nullable: true, description: 'With at least one canvas action of this canvas type.' })
  canvasType?: string | null;

  @Field(() => CanvasActionEnum, {
    nullable: true,
    description: 'With at least one canvas action of this kind (and of `canvasType`, when given).',
  })
  canvasAction?: CanvasAction | null;

  @Field(() => ID, { nullable: true, description: 'That used this fact.' })
  factId?: string | null;
}
