import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context.type';
import { RecallInput } from './facts.inputs';
import { RecalledFact } from './facts.type';
import { recall } from './recall.service';

@Resolver()
export class RecallResolver {
  @Query(() => [RecalledFact], {
    complexity: ({ args, childComplexity }) =>
      Math.max(1, Number((args as { input?: { limit?: number | null } }).input?.limit ?? 10)) * Math.max(1, childComplexity),
    description: 'Facts of a bank ranked for a query by relevance, optionally boosted by usefulness learned from signals.',
  })
  async recall(
    @Arg('input', () => RecallInput, { description: 'What to recall.' }) input: RecallInput,
    @Ctx() ctx: Context,
  ): Promise<RecalledFact[]> {
    return recall(ctx.em, ctx.orgId, input, ctx.services.factIndex, ctx.services.embedder);
  }
}
