import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import { listCost } from '../../core/limits';
import type { Context } from '../../graphql/context.type';
import { FactBank, FactQueryContextRecord, FactSignalRecord } from './fact-detail.type';
import { factBanks, factQueryContexts, factSignals } from './fact-detail.service';
import { Fact } from './fact.type';

/** What the facts explorer reads besides pages of facts: the banks, and a fact's signals and query contexts. */
@Resolver(() => Fact)
export class FactDetailResolver {
  @Query(() => [FactBank], {
    complexity: listCost(100),
    description: 'The memory banks of the caller organization with their fact counts, largest first.',
  })
  factBanks(
    @Arg('first', () => Int, { defaultValue: 100, description: 'At most this many banks, 1..1,000.' }) first: number,
    @Ctx() ctx: Context,
  ): Promise<FactBank[]> {
    return factBanks(ctx.em, ctx.services.bankCounts, ctx.orgId, first);
  }

  @FieldResolver(() => [FactSignalRecord], {
    complexity: listCost(100),
    description: 'Its newest signals, oldest first, each with where it came from and the usefulness right after it (for a chart).',
  })
  signalHistory(
    @Root() fact: Fact,
    @Arg('last', () => Int, { defaultValue: 100, description: 'The newest this many (1..1,000).' }) limit: number,
    @Ctx() ctx: Context,
  ): Promise<FactSignalRecord[]> {
    return factSignals(ctx.em, ctx.orgId, fact.id, limit);
  }

  @FieldResolver(() => [FactQueryContextRecord], { complexity: listCost(20), description: 'Its query contexts, the most signalled first.' })
  queryContexts(
    @Root() fact: Fact,
    @Arg('limit', () => Int, { defaultValue: 20, description: 'At most this many (1..100).' }) limit: number,
    @Ctx() ctx: Context,
  ): Promise<FactQueryContextRecord[]> {
    return factQueryContexts(ctx.em, ctx.orgId, fact.id, limit);
  }
}
