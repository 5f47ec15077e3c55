import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { PageInfo } from '../shared';
import { type CanvasAction, CanvasActionEnum } from '../shared';
import { chargedByConnection } from '../../core/limits';
import type { Instant } from '../../core/instant';

@ObjectType({ simpleResolvers: true, description: 'One action on a UI canvas.' })
export class CanvasAudit {
  @Field(() => ID, { description: 'Server-generated id.' })
  id!: string;

  @Field({ description: 'The agent whose canvas it was.' })
  agentId!: string;

  @Field(() => String, { nullable: true, description: 'The session.' })
  sessionId!: string | null;

  @Field(() => ID, { nullable: true, description: 'The linked episode; null until linked.' })
  episodeId!: string | null;

  @Field(() => String, { nullable: true, description: 'The canvas instance (caller-defined).' })
  canvasId!: string | null;

  @Field({
    description: 'Canvas type: a built-in (generic docs email sheets orchestration terminal coding) or a custom lower-case identifier.',
  })
  canvasType!: string;

  @Field(() => String, { nullable: true, description: 'Component on the canvas, e.g. "line_chart".' })
  componentType!: string | null;

  @Field(() => CanvasActionEnum, { description: 'What happened.' })
  action!: CanvasAction;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Free-form metadata (JSON object, <= 10 KB).' })
  metadata!: Record<string, unknown> | null;

  @Field(() => Date, { description: 'When it happened.' })
  createdAt!: Instant;
}

@ObjectType({ simpleResolvers: true, description: 'A canvas audit with its cursor.' })
export class CanvasAuditEdge {
  @Field({ description: 'Opaque keyset cursor.' })
  cursor!: string;

  @Field(() => CanvasAudit, { description: 'The canvas audit.' })
  node!: CanvasAudit;
}

@ObjectType({ simpleResolvers: true, description: 'A page of canvas audits, newest first.' })
export class CanvasAuditConnection {
  @Field(() => [CanvasAuditEdge], { complexity: chargedByConnection, description: 'The audits of this page.' })
  edges!: CanvasAuditEdge[];

  @Field(() => PageInfo, { description: 'Where this page ends.' })
  pageInfo!: PageInfo;
}

@ObjectType({ simpleResolvers: true, description: 'How users engage with one canvas type (or one component of it).' })
export class CanvasTypeStats {
  @Field({ description: 'Canvas type.' })
  canvasType!: string;

  @Field(() => String, { nullable: true, description: 'Component type (in `byComponent` only).' })
  componentType!: string | null;

  @Field(() => Int, { description: 'PRESENT actions.' })
  presentations!: number;

  @Field(() => Int, { description: 'CLOSE actions.' })
  closes!: number;

  @Field(() => Int, { description: 'SUBMIT actions.' })
  submits!: number;

  @Field(() => Float, {
    nullable: true,
    description: 'Average seconds from a PRESENT to the next CLOSE or SUBMIT of the same canvas; null when none ended.',
  })
  avgEngagementSeconds!: number | null;

  @Field(() => Float, { nullable: true, description: 'Average aggregate feedback score of the linked episodes that have one.' })
  avgFeedbackScore!: number | null;
}

@ObjectType({
  simpleResolvers: true,
  description: 'Canvas engagement patterns of one agent: which canvas types users close quickly, engage with, or submit.',
})
export class CanvasInsights {
  @Field(() => [CanvasTypeStats], { description: 'Statistics per canvas type.' })
  byType!: CanvasTypeStats[];

  @Field(() => [CanvasTypeStats], { description: 'Statistics per canvas type and component type.' })
  byComponent!: CanvasTypeStats[];

  @Field(() => [String], { description: 'Canvas types whose average engagement is below `quickCloseSeconds`.' })
  closesQuickly!: string[];

  @Field(() => [String], { description: 'Canvas types whose average engagement is at least `quickCloseSeconds`.' })
  engages!: string[];

  @Field(() => [String], { description: 'Canvas types where at least half of the presentations end in SUBMIT.' })
  submits!: string[];
}
