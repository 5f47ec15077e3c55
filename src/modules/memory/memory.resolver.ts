import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context.type';
import { memoryContext } from './memory.service';
import { MemoryContext, MemoryContextInput } from './memory.type';

@Resolver()
export class MemoryResolver {
  @Query(() => MemoryContext, {
    description: "The best context from an agent's episodes that fits a token budget, by policy (FOVEATED by default).",
  })
  memoryContext(
    @Arg('input', () => MemoryContextInput, { description: 'Agent, query, budget and policy.' }) input: MemoryContextInput,
    @Ctx() ctx: Context,
  ): Promise<MemoryContext> {
    return memoryContext(ctx.em, ctx.orgId, input, ctx.services.memoryCache);
  }
}
