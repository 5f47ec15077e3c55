import { Field, Float, ObjectType } from 'type-graphql';
import { Episode } from '../episodes';

@ObjectType({ simpleResolvers: true, description: 'An episode recalled for a query, with the parts of its score.' })
export class RecalledEpisode {
  @Field(() => Episode, { description: 'The episode (enrichable like any episode).' })
  episode!: Episode;

  @Field(() => Float, {
    description:
      'Cosine with the episode embedding (clipped at 0) when both exist, else the best pg_trgm word similarity of the query to title, task and topic.',
  })
  relevance!: number;

  @Field(() => Float, { description: 'exp(-DECAY_LAMBDA * age in days).' })
  recency!: number;

  @Field(() => Float, { description: '0.5 * relevance + 0.5 * recency.' })
  baseScore!: number;

  @Field(() => Float, { description: '+0.1 when the episode has canvas actions.' })
  canvasBoost!: number;

  @Field(() => Float, { description: '+0.2 when its aggregate feedback is positive, -0.3 when negative.' })
  feedbackBoost!: number;

  @Field(() => Float, { description: 'baseScore + canvasBoost + feedbackBoost; results are ordered by it.' })
  finalScore!: number;
}
