import DataLoader from 'dataloader';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { LIMITS, listOf } from '../../core/limits';
import { rows, sql } from '../../db/typed-sql';
import type { Context } from '../../graphql/context.type';
import type { LoaderFactory } from '../../graphql/loaders';
import { FactSignal, type SignalType } from '../facts';
import { MemoryTrace } from './trace.type';

/**
 * The signals each trace earned the facts it served (their `traceId` names the trace, their
 * episode is the trace's), oldest first: one statement per request, through the index on
 * (org_id, episode_id) of the signals.
 */
const creditByTrace: LoaderFactory<DataLoader<string, FactSignal[]>> = (em, orgId) =>
  new DataLoader(async (ids) => {
    const found = await rows(
      em,
      sql
        .selectFrom('memory_traces as t')
        .innerJoin('fact_signals as s', (j) =>
          j.onRef('s.org_id', '=', 't.org_id').onRef('s.episode_id', '=', 't.episode_id').onRef('s.trace_id', '=', 't.id'),
        )
        .select(['s.id', 's.fact_id', 's.signal_type', 's.confidence', 's.delta', 's.query', 's.context', 's.created_at'])
        .select(['s.source', 's.feedback_id', 's.episode_id', 's.trace_id'])
        .where('t.org_id', '=', orgId)
        .where('t.id', 'in', [...ids])
        .orderBy('s.created_at')
        .orderBy('s.ord')
        .orderBy('s.id'),
    );
    const byTrace = new Map<string, FactSignal[]>(ids.map((id) => [id, []]));
    for (const r of found)
      byTrace.get(r.trace_id!)?.push({
        id: r.id,
        factId: r.fact_id,
        signalType: r.signal_type as SignalType,
        confidence: r.confidence,
        delta: r.delta,
        query: r.query,
        context: r.context,
        createdAt: new Date(r.created_at),
        source: r.source,
        feedbackId: r.feedback_id,
        episodeId: r.episode_id,
        traceId: r.trace_id,
      });
    return ids.map((id) => byTrace.get(id)!);
  });

/** `MemoryTrace.credit`, batched over the traces of the request. */
@Resolver(() => MemoryTrace)
export class TraceCreditResolver {
  @FieldResolver(() => [FactSignal], {
    // priced as a page of signals: a trace's credit is about one signal per served fact, and the
    // episode's traces are already priced as a list
    complexity: listOf(LIMITS.defaultPage),
    description:
      'The usefulness credit this read earned the facts it served: their signals that name this trace as `traceId`, oldest first (`factId` says which fact).',
  })
  credit(@Root() trace: MemoryTrace, @Ctx() ctx: Context): Promise<FactSignal[]> {
    return ctx.loaders.get(creditByTrace).load(trace.id);
  }
}
