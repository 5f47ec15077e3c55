import { Ctx, Float, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.type';
import { decayScore } from './decay';
import { Episode } from './episode.type';

@Resolver(() => Episode)
export class EpisodeDecayResolver {
  @FieldResolver(() => Float, {
    description: 'exp(-DECAY_LAMBDA * age in days) as of now, times 0.6 if rejected and 0.7 if overallScore < 0.5.',
  })
  decayScore(@Root() episode: Episode, @Ctx() ctx: Context): number {
    return decayScore(episode, ctx.services.config.decayLambda);
  }
}
