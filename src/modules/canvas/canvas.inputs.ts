import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType } from 'type-graphql';
import { type CanvasAction, CanvasActionEnum } from '../shared';

@InputType({ description: 'One action on a canvas.' })
export class CanvasActionInput {
  @Field({ description: 'The agent (<= 200 characters).' })
  agentId!: string;

  @Field(() => String, {
    nullable: true,
    description: 'The session; without `episodeId`, the action links to the latest episode of this agent and session.',
  })
  sessionId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The episode to link to.' })
  episodeId?: string | null;

  @Field(() => String, { nullable: true, description: 'The canvas instance (<= 200 characters).' })
  canvasId?: string | null;

  @Field({ description: 'Canvas type: a lower-case identifier of at most 64 characters.' })
  canvasType!: string;

  @Field(() => String, { nullable: true, description: 'Component on the canvas (<= 200 characters).' })
  componentType?: string | null;

  @Field(() => CanvasActionEnum, { description: 'What happened.' })
  action!: CanvasAction;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Free-form metadata (JSON object, <= 10 KB).' })
  metadata?: Record<string, unknown> | null;

  @Field(() => Date, { nullable: true, description: 'When it happened (importers; at most 5 minutes in the future); default now.' })
  occurredAt?: Date | null;

  @Field(() => String, { nullable: true, description: 'Repeat-safe key (<= 128 characters).' })
  idempotencyKey?: string | null;
}

@InputType({ description: 'Which canvas audits to list. All conditions must hold.' })
export class CanvasAuditFilter {
  @Field(() => String, { nullable: true, description: 'Only this agent.' })
  agentId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only this session.' })
  sessionId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only this episode.' })
  episodeId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only this canvas type.' })
  canvasType?: string | null;

  @Field(() => CanvasActionEnum, { nullable: true, description: 'Only this action.' })
  action?: CanvasAction | null;

  @Field(() => String, { nullable: true, description: 'Only within this range back from now: "24h", "7d", "4w".' })
  timeRange?: string | null;
}
