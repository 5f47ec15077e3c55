import type { ComplexityEstimator } from 'graphql-query-complexity';
import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import { listCost } from '../../core/limits';
import type { Context } from '../../graphql/context.type';
import { checkTrace, MemoryTraceInput, recordTrace } from '../shared';
import { memoryContext } from './memory.service';
import { LeftOutMemory, MemoryContext, MemoryContextInput } from './memory.type';

const MAX_CANDIDATES = 10_000;

/**
 * One point per candidate it may read (a row of small columns, and a text of at most 512 bytes or a
 * long segment's stored words ranked in PostgreSQL), plus what it returns: so aliases and repeats
 * pay for the rows they make the server read, not only for the entries they get back. Above the
 * largest `maxCandidates` the request is refused by validation instead.
 */
const memoryContextCost: ComplexityEstimator = ({ args, childComplexity }) => {
  const max = (args.input as { maxCandidates?: number | null } | undefined)?.maxCandidates;
  return Math.min(typeof max === 'number' && max > 0 ? max : 2000, MAX_CANDIDATES) + childComplexity;
};

@Resolver(() => MemoryContext)
export class MemoryResolver {
  @Query(() => MemoryContext, {
    complexity: memoryContextCost,
    description:
      "The best context from an agent's episodes that fits a token budget, by policy (FOVEATED by default). Priced at one complexity point per candidate it may read (`maxCandidates`) plus its selection.",
  })
  async memoryContext(
    @Arg('input', () => MemoryContextInput, { description: 'Agent, query, budget and policy.' }) input: MemoryContextInput,
    @Ctx() ctx: Context,
    @Arg('trace', () => MemoryTraceInput, {
      nullable: true,
      description: 'Records the selected segments, in order and with their zones, as a memory trace of this episode (one more statement).',
    })
    trace?: MemoryTraceInput | null,
  ): Promise<MemoryContext> {
    const traced = checkTrace('trace', trace);
    const context = await memoryContext(ctx.em, ctx.orgId, input, ctx.services.memoryCache);
    if (traced)
      await recordTrace(
        ctx.em,
        ctx.orgId,
        'trace',
        traced,
        {
          operation: 'MEMORY_CONTEXT',
          query: input.query ?? null,
          queryEmbedding: null,
          strategy: null,
          mode: context.policy,
          budget: input.tokenBudget,
        },
        context.entries.map((e) => ({ segmentId: e.id, episodeId: e.episodeId, zone: e.zone ?? null })),
      );
    return context;
  }

  @FieldResolver(() => [LeftOutMemory], {
    complexity: listCost(20),
    description:
      'Candidates that were not selected, and why: the most relevant first when the policy ranked by relevance, else (and on ties) the newest first.',
  })
  leftOut(
    @Root() context: MemoryContext,
    @Arg('limit', () => Int, { defaultValue: 20, description: 'At most this many (0..100).' }) limit: number,
  ): Promise<LeftOutMemory[]> {
    return context.leftOutOf ? context.leftOutOf(limit) : Promise.resolve([]);
  }
}
