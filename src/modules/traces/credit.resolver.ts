import { Arg, Authorized, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import { notFound } from '../../core/errors';
import type { Context } from '../../graphql/context.type';
import { Episode, getEpisode } from '../episodes';
import { CAN } from '../orgs';
import { creditingCost } from './credit-settings';
import { useFacts } from './use-facts.service';

@Resolver()
export class CreditResolver {
  @Mutation(() => Episode, {
    complexity: creditingCost,
    description:
      'Says which facts an episode used, after it was recorded. A used fact that a traced recall served to the episode gets a USED signal (credit; see `Fact.signals`), once.',
  })
  @Authorized(CAN.agentWrite)
  async useFacts(
    @Arg('episodeId', () => ID, { description: 'The episode.' }) episodeId: string,
    @Ctx() ctx: Context,
    @Arg('factIds', () => [ID], { nullable: true, description: 'Facts it used, by id (<= 500).' }) factIds?: string[],
    @Arg('factExternalIds', () => [String], { nullable: true, description: 'Facts it used, by external id (<= 500).' })
    factExternalIds?: string[],
  ): Promise<Episode> {
    const id = await useFacts(ctx.em, ctx.orgId, ctx.viewer.apiKeyId, { episodeId, factIds, factExternalIds });
    const ep = await getEpisode(ctx.em, ctx.orgId, id);
    if (!ep) throw notFound('episode', 'episodeId');
    return ep;
  }
}
