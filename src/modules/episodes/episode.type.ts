import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type { Instant } from '../../core/instant';
import { listOf } from '../../core/limits';
import type { Episode as EpisodeEntity } from './episode.entity';
import { MAX_EXECUTION_IDS } from './episodes.validate';
import { aggregateFeedbackScore } from '../shared';

/** What an episode is built from: its entity, or a row read with its times kept as read (`Instant`). */
export type EpisodeSource = Pick<
  EpisodeEntity,
  | 'id'
  | 'agentId'
  | 'sessionId'
  | 'title'
  | 'task'
  | 'intent'
  | 'topic'
  | 'blueprint'
  | 'executionIds'
  | 'canvasActionCount'
  | 'feedbackCount'
  | 'feedbackScoreSum'
  | 'feedbackScoreCount'
  | 'overallScore'
  | 'accepted'
  | 'generationConfig'
  | 'metadata'
> & { createdAt: Instant; endedAt: Instant | null };

/**
 * One unit of agent experience. Context lists (`segments`, `outputs`, `facts`, `canvasContext`,
 * `feedbackContext`) and link lists are added by field resolvers of the modules that own them, and
 * are batched per request.
 */
@ObjectType({ simpleResolvers: true, description: 'One unit of agent experience: what an agent did, with everything linked to it.' })
export class Episode {
  @Field(() => ID, { description: 'Server-generated id.' })
  id!: string;

  @Field({ description: 'The agent that recorded the episode.' })
  agentId!: string;

  @Field(() => String, { nullable: true, description: 'The conversation or run the episode belongs to.' })
  sessionId!: string | null;

  @Field(() => String, { nullable: true, description: 'Short title.' })
  title!: string | null;

  @Field(() => String, { nullable: true, description: 'The input question or request.' })
  task!: string | null;

  @Field(() => String, { nullable: true, description: 'What the agent meant to do.' })
  intent!: string | null;

  @Field(() => String, { nullable: true, description: 'Subject area, for diagnostics and similarity.' })
  topic!: string | null;

  @Field(() => String, { nullable: true, description: 'The blueprint or template the agent followed.' })
  blueprint!: string | null;

  @Field(() => Date, { description: 'When the episode happened (the caller may give `occurredAt`).' })
  createdAt!: Instant;

  @Field(() => Date, { nullable: true, description: 'When the episode ended, if known.' })
  endedAt!: Instant | null;

  @Field(() => [String], {
    complexity: listOf(MAX_EXECUTION_IDS),
    description: 'Execution ids of the runtime (e.g. workflow runs), at most 100.',
  })
  executionIds!: string[];

  @Field(() => Int, { description: 'Number of canvas actions linked to the episode.' })
  canvasActionCount!: number;

  @Field(() => Int, { description: 'Number of feedback rows linked to the episode, scored or not.' })
  feedbackCount!: number;

  @Field(() => Float, { nullable: true, description: 'Mean score (-1..1) of the linked feedback that has a score; null when none.' })
  aggregateFeedbackScore!: number | null;

  @Field(() => Float, { nullable: true, description: "A judge's overall score, 0..1." })
  overallScore!: number | null;

  @Field(() => Boolean, { nullable: true, description: 'The verdict: null until judged.' })
  accepted!: boolean | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Model and generation settings (JSON object, <= 10 KB).' })
  generationConfig!: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Free-form metadata (JSON object, <= 10 KB).' })
  metadata!: Record<string, unknown> | null;

  static from(e: EpisodeSource): Episode {
    // its fields stored one by one (a copy from an object literal costs about ten times more; a page builds 20)
    const ep = new Episode();
    ep.id = e.id;
    ep.agentId = e.agentId;
    ep.sessionId = e.sessionId;
    ep.title = e.title;
    ep.task = e.task;
    ep.intent = e.intent;
    ep.topic = e.topic;
    ep.blueprint = e.blueprint;
    ep.createdAt = e.createdAt;
    ep.endedAt = e.endedAt;
    ep.executionIds = e.executionIds ?? [];
    ep.canvasActionCount = e.canvasActionCount;
    ep.feedbackCount = e.feedbackCount;
    ep.aggregateFeedbackScore = aggregateFeedbackScore(e.feedbackScoreSum, e.feedbackScoreCount);
    ep.overallScore = e.overallScore;
    ep.accepted = e.accepted;
    ep.generationConfig = e.generationConfig;
    ep.metadata = e.metadata;
    return ep;
  }
}
