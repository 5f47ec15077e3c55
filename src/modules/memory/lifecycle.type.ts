import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';

@InputType({ description: 'Which episodes to forget.' })
export class ForgetInput {
  @Field(() => Float, { defaultValue: 0.1, description: 'Delete episodes whose decay score is below this (0..1).' })
  decayThreshold?: number;

  @Field(() => Int, { defaultValue: 90, description: 'Delete unaccepted episodes older than this many days (>= 0).' })
  maxAgeDays?: number;

  @Field({ defaultValue: false, description: 'Only report what would be deleted.' })
  dryRun?: boolean;
}

@ObjectType({ simpleResolvers: true, description: 'What forgetting did (or, for a dry run, would do).' })
export class ForgetResult {
  @Field(() => Int, { description: 'Episodes of the organization looked at.' })
  examined!: number;

  @Field(() => Int, { description: 'Episodes deleted (would be deleted, for a dry run).' })
  deleted!: number;

  @Field(() => Int, {
    description: 'Episodes a deletion condition matched but the preservation rule (accepted, overallScore > 0.85) kept.',
  })
  preserved!: number;

  @Field(() => [ID], { description: 'Dry run: ids that would be deleted, oldest first (at most 10,000); empty otherwise.' })
  deletedIds!: string[];
}

@ObjectType({ simpleResolvers: true, description: 'What a retention purge deleted.' })
export class PurgeResult {
  @Field(() => Int, { description: 'Feedback rows deleted.' })
  deleted!: number;
}

@ObjectType({ simpleResolvers: true, description: 'How episodes of one topic perform.' })
export class TopicPerformance {
  @Field({ description: 'The topic.' })
  topic!: string;

  @Field(() => Int, { description: 'Episodes.' })
  episodes!: number;

  @Field(() => Int, { description: 'Outputs of those episodes.' })
  outputs!: number;

  @Field(() => Float, { nullable: true, description: 'Average overallScore of the scored episodes.' })
  averageScore!: number | null;

  @Field(() => Float, { nullable: true, description: 'Accepted share of the judged episodes.' })
  acceptanceRate!: number | null;
}

@ObjectType({ simpleResolvers: true, description: 'One UTC day of a topic.' })
export class TopicTrendPoint {
  @Field({ description: 'UTC date, YYYY-MM-DD.' })
  date!: string;

  @Field(() => Float, { nullable: true, description: "Average overallScore of that day's scored episodes." })
  averageScore!: number | null;

  @Field(() => Int, { description: 'Episodes that day.' })
  episodes!: number;
}

@ObjectType({ simpleResolvers: true, description: 'Counts and averages across the organization.' })
export class MemorySummary {
  @Field(() => Int, { description: 'Episodes.' })
  episodes!: number;

  @Field(() => Int, { description: 'Segments.' })
  segments!: number;

  @Field(() => Int, { description: 'Facts.' })
  facts!: number;

  @Field(() => Int, { description: 'Feedback.' })
  feedback!: number;

  @Field(() => Int, { description: 'Canvas audits.' })
  canvasAudits!: number;

  @Field(() => Int, { description: 'Layout profiles.' })
  layoutProfiles!: number;

  @Field(() => Float, { nullable: true, description: 'Average overallScore of the scored episodes.' })
  averageOverallScore!: number | null;

  @Field(() => Float, { nullable: true, description: 'Accepted share of the judged episodes.' })
  acceptanceRate!: number | null;
}
