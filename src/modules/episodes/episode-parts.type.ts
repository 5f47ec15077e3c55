import { GraphQLJSON } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { PageInfo } from '../shared';
import { Episode } from './episode.type';
import { chargedByConnection } from '../../core/limits';
import type { Instant } from '../../core/instant';

@ObjectType({ simpleResolvers: true, description: 'One ordered turn of an episode.' })
export class Segment {
  @Field(() => ID, { description: 'Server-generated id.' })
  id!: string;

  @Field(() => ID, { description: 'The episode.' })
  episodeId!: string;

  @Field(() => Int, { description: 'Position in the episode, from 1.' })
  seq!: number;

  @Field({ description: 'user, assistant, system, tool or event.' })
  role!: string;

  @Field({ description: 'What was said or done.' })
  content!: string;

  @Field(() => Int, { description: 'Tokens of the content (given, or ceil(characters / 4)).' })
  tokenEstimate!: number;

  @Field(() => Date, { description: 'When the turn happened.' })
  createdAt!: Instant;
}

@ObjectType({ simpleResolvers: true, description: 'Something an episode produced (e.g. a multiple-choice question).' })
export class EpisodeOutput {
  @Field(() => ID, { description: 'Server-generated id (judges update outputs by it).' })
  id!: string;

  @Field(() => ID, { description: 'The episode.' })
  episodeId!: string;

  @Field({ description: 'Kind of output, e.g. "mcq".' })
  kind!: string;

  @Field(() => GraphQLJSON, { description: 'The output itself.' })
  content!: unknown;

  @Field(() => String, { nullable: true, description: 'Difficulty label.' })
  difficulty!: string | null;

  @Field(() => Float, { nullable: true, description: 'Quality 0..1.' })
  qualityScore!: number | null;

  @Field(() => Int, { description: 'How many times it was regenerated.' })
  regenerationRound!: number;

  @Field(() => Date, { description: 'When it was recorded.' })
  createdAt!: Instant;
}

@ObjectType({ simpleResolvers: true, description: 'An episode with its cursor.' })
export class EpisodeEdge {
  @Field({ description: 'Opaque keyset cursor of this episode.' })
  cursor!: string;

  @Field(() => Episode, { description: 'The episode.' })
  node!: Episode;
}

@ObjectType({ simpleResolvers: true, description: 'A page of episodes, newest first.' })
export class EpisodeConnection {
  @Field(() => [EpisodeEdge], { complexity: chargedByConnection, description: 'The episodes of this page.' })
  edges!: EpisodeEdge[];

  @Field(() => PageInfo, { description: 'Where this page ends.' })
  pageInfo!: PageInfo;
}
