import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, ID, InputType, Int } from 'type-graphql';
import type { FeedbackType } from './feedback-score';
import { FeedbackTypeEnum } from './feedback.type';

@InputType({ description: 'A rating, a thumb or free-text corrections on agent output.' })
export class SubmitFeedbackInput {
  @Field(() => ID, {
    nullable: true,
    description:
      'The episode. Without it, `agentId` and `sessionId` are required: the feedback links to the latest episode of that agent and session, or to the episode recorded for them later.',
  })
  episodeId?: string | null;

  @Field(() => String, { nullable: true, description: 'The agent (taken from the episode when linked).' })
  agentId?: string | null;

  @Field(() => String, { nullable: true, description: 'The session.' })
  sessionId?: string | null;

  @Field(() => String, { nullable: true, description: 'The execution of the runtime.' })
  executionId?: string | null;

  @Field(() => FeedbackTypeEnum, { description: 'Kind of feedback.' })
  feedbackType!: FeedbackType;

  @Field(() => Int, { nullable: true, description: 'Rating 1..5: required for RATING, refused with thumbs.' })
  rating?: number | null;

  @Field(() => String, { nullable: true, description: 'Free-text corrections (<= 4,000 characters).' })
  corrections?: string | null;

  @Field(() => String, { nullable: true, description: "The caller's own user id (<= 200 characters)." })
  actorUserId?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was given (importers; at most 5 minutes in the future); default now.' })
  occurredAt?: Date | null;

  @Field(() => String, { nullable: true, description: 'Repeat-safe key (<= 128 characters).' })
  idempotencyKey?: string | null;
}

@InputType({ description: 'An operator correction event (stored as CORRECTION feedback).' })
export class CorrectionInput {
  @Field({ description: 'Event type, UPPER_SNAKE_CASE (<= 64), e.g. EXTRACTION_FIELD_CORRECTED.' })
  eventType!: string;

  @Field(() => String, { nullable: true, description: 'Kind of entity corrected.' })
  entityType?: string | null;

  @Field(() => String, { nullable: true, description: 'Id of the entity corrected.' })
  entityId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The episode.' })
  episodeId?: string | null;

  @Field(() => String, { nullable: true, description: 'The agent.' })
  agentId?: string | null;

  @Field(() => String, { nullable: true, description: 'The session.' })
  sessionId?: string | null;

  @Field(() => String, { nullable: true, description: 'The execution.' })
  executionId?: string | null;

  @Field(() => String, { nullable: true, description: 'The document; its recorded layout fingerprint is taken.' })
  documentId?: string | null;

  @Field(() => String, { nullable: true, description: 'Layout fingerprint (64 lower-case hex) when the document has none recorded.' })
  layoutFingerprint?: string | null;

  @Field(() => GraphQLJSONObject, { description: 'State before (JSON object).' })
  before!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { description: 'State after (JSON object).' })
  after!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Extra data, e.g. `input_snippet` for few-shot examples.' })
  meta?: Record<string, unknown> | null;

  @Field(() => String, { nullable: true, description: 'Free-text corrections (<= 4,000 characters).' })
  corrections?: string | null;

  @Field(() => String, { nullable: true, description: "The caller's own user id." })
  actorUserId?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it happened; default now.' })
  occurredAt?: Date | null;

  @Field(() => String, { nullable: true, description: 'Repeat-safe key (<= 128 characters).' })
  idempotencyKey?: string | null;
}

@InputType({ description: 'A change a judge makes to one output.' })
export class OutputUpdateInput {
  @Field(() => ID, { description: 'The output (of the judged episode).' })
  outputId!: string;

  @Field(() => Float, { nullable: true, description: 'New quality 0..1.' })
  qualityScore?: number | null;

  @Field(() => Int, { nullable: true, description: 'New regeneration round (>= 0).' })
  regenerationRound?: number | null;
}

@InputType({ description: "A judge's verdict on an episode." })
export class JudgeEpisodeInput {
  @Field(() => ID, { description: 'The episode.' })
  episodeId!: string;

  @Field({ description: 'Accepted or rejected.' })
  accepted!: boolean;

  @Field(() => Float, { nullable: true, description: 'Overall score 0..1.' })
  overallScore?: number | null;

  @Field(() => String, { nullable: true, description: 'Why (<= 4,000 characters).' })
  reason?: string | null;

  @Field(() => String, { nullable: true, description: 'Feedback for the agent (<= 4,000 characters).' })
  judgeFeedback?: string | null;

  @Field(() => [OutputUpdateInput], { nullable: true, description: 'Changes to outputs of the episode.' })
  outputUpdates?: OutputUpdateInput[] | null;
}

@InputType({ description: 'Which feedback to list. All conditions must hold.' })
export class FeedbackFilter {
  @Field(() => ID, { nullable: true, description: 'Only this episode.' })
  episodeId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only this agent.' })
  agentId?: string | null;

  @Field(() => [FeedbackTypeEnum], { nullable: true, description: 'Only these kinds.' })
  types?: FeedbackType[] | null;

  @Field(() => [String], { nullable: true, description: 'Only these event types.' })
  eventTypes?: string[] | null;

  @Field(() => String, { nullable: true, description: 'Only this layout fingerprint.' })
  layoutFingerprint?: string | null;

  @Field(() => String, { nullable: true, description: 'Only within this range back from now: "24h", "7d", "4w".' })
  timeRange?: string | null;
}
