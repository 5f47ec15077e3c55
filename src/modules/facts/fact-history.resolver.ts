import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Resolver, Root } from 'type-graphql';
import { parseId } from '../../core/ids';
import type { Context } from '../../graphql/context.type';
import { CAN } from '../orgs';
import { SUB_LIST_LIMIT_DESCRIPTION, subListCost, subListLimit } from '../shared';
import { historyByFact, FactVersion } from './fact-history';
import { loadFactsInOrder } from './fact.rows';
import { Fact } from './fact.type';
import { supersedeFact } from './supersede.service';

/** A fact's past versions, and the write that says which fact replaces another. */
@Resolver(() => Fact)
export class FactHistoryResolver {
  @FieldResolver(() => [FactVersion], {
    complexity: subListCost,
    description: 'The past versions of the fact, newest first: every change of what it says keeps the version before.',
  })
  history(
    @Root() fact: Fact,
    @Ctx() ctx: Context,
    @Arg('limit', () => Int, { nullable: true, description: SUB_LIST_LIMIT_DESCRIPTION }) limit?: number,
  ): Promise<FactVersion[]> {
    return ctx.loaders.getFor(historyByFact, { limit: subListLimit(limit) }).load(fact.id);
  }

  @Mutation(() => Fact, {
    description:
      'Marks a fact as superseded by another (null: no longer superseded). Recall and facts leave superseded facts out unless includeSuperseded; the successor keeps its own usefulness.',
  })
  @Authorized(CAN.agentWrite)
  async supersedeFact(
    @Arg('id', () => ID, { description: 'The fact replaced.' }) id: string,
    @Arg('supersededBy', () => ID, { nullable: true, description: 'The fact that replaces it; null clears it.' })
    supersededBy: string | null,
    @Ctx() ctx: Context,
  ): Promise<Fact> {
    const factId = parseId('id', id);
    const by = supersededBy === null ? null : parseId('supersededBy', supersededBy);
    await supersedeFact(ctx.em, ctx.orgId, factId, by, ctx.viewer.apiKeyId);
    return (await loadFactsInOrder(ctx.em, ctx.orgId, [factId]))[0];
  }
}
