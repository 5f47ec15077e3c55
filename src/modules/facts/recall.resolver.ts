import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context.type';
import { checkTrace, MemoryTraceInput, recordTrace } from '../shared';
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
    @Arg('trace', () => MemoryTraceInput, {
      nullable: true,
      description: 'Records the served facts, in order and with their scores, as a memory trace of this episode (one more statement).',
    })
    trace?: MemoryTraceInput | null,
  ): Promise<RecalledFact[]> {
    const traced = checkTrace('trace', trace);
    const served = await recall(ctx.em, ctx.orgId, input, ctx.services.factIndex, ctx.services.embedder, ctx.aside);
    if (traced)
      await recordTrace(
        ctx.em,
        ctx.orgId,
        'trace',
        traced,
        {
          operation: 'RECALL',
          query: input.query,
          queryEmbedding: input.queryEmbedding ?? null,
          strategy: served[0]?.strategyUsed ?? null,
          mode: null,
          budget: input.limit ?? 10,
        },
        served.map((r) => ({
          factId: r.fact.id,
          semanticScore: r.semanticScore,
          lexicalScore: r.lexicalScore,
          relevance: r.relevance,
          usefulnessScore: r.usefulnessScore,
          usefulnessSource: r.usefulnessSource,
          finalScore: r.finalScore,
        })),
      );
    return served;
  }
}
