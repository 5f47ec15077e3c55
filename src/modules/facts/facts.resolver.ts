import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { parseId } from '../../core/ids';
import { listCost, listPerInput } from '../../core/limits';
import type { Context } from '../../graphql/context.type';
import { CAN } from '../orgs';
import { loadFactsInOrder } from './fact.rows';
import { Fact } from './fact.type';
import { FactFilter, FactInput, FactOrder } from './facts.inputs';
import * as facts from './facts.service';
import { FactConnection, FailedFact } from './facts.type';

@Resolver()
export class FactsResolver {
  @Query(() => Fact, { nullable: true, description: 'One fact of the caller organization, or null.' })
  async fact(@Arg('id', () => ID, { description: 'Id of the fact.' }) id: string, @Ctx() ctx: Context): Promise<Fact | null> {
    return facts.getFact(ctx.em, ctx.orgId, parseId('id', id));
  }

  @Query(() => FactConnection, {
    complexity: listCost(),
    description: 'Facts of the caller organization, newest first (or as `orderBy` says).',
  })
  async facts(
    @Arg('filter', () => FactFilter, { nullable: true, description: 'Which facts to list.' }) filter: FactFilter | null,
    @Arg('first', () => Int, { defaultValue: 20, description: 'Page size, 1..100.' }) first: number,
    @Arg('after', () => String, { nullable: true, description: 'endCursor of the previous page.' }) after: string | null,
    @Ctx() ctx: Context,
    @Arg('orderBy', () => FactOrder, { defaultValue: FactOrder.NEWEST, description: 'Newest or most useful first.' }) orderBy: FactOrder,
  ): Promise<FactConnection> {
    return facts.listFacts(ctx.em, ctx.orgId, filter, first, after, orderBy);
  }

  @Query(() => [FailedFact], {
    complexity: listCost(10),
    description: 'Facts ranked by how many rejected episodes used them (most first).',
  })
  async failedFacts(
    @Arg('topN', () => Int, { defaultValue: 10, description: 'How many facts, 1..100.' }) topN: number,
    @Ctx() ctx: Context,
  ): Promise<FailedFact[]> {
    return facts.failedFacts(ctx.em, ctx.orgId, topN);
  }

  @Mutation(() => [Fact], {
    complexity: listPerInput('inputs'),
    description:
      'Creates facts, or updates the fact with the same externalId (fields left out keep their value). Returns them in input order.',
  })
  @Authorized(CAN.agentWrite)
  async upsertFacts(
    @Arg('inputs', () => [FactInput], { description: 'The facts, at most 500.' }) inputs: FactInput[],
    @Arg('idempotencyKey', () => String, {
      nullable: true,
      description: 'A repeat with this key within 24 h returns the first result and writes nothing.',
    })
    idempotencyKey: string | null,
    @Ctx() ctx: Context,
  ): Promise<Fact[]> {
    const ids = await facts.upsertFacts(ctx.em, ctx.services.embedder, ctx.orgId, inputs, idempotencyKey, ctx.viewer.apiKeyId);
    return loadFactsInOrder(ctx.em, ctx.orgId, ids);
  }
}
