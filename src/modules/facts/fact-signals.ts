import DataLoader from 'dataloader';
import { sql as raw } from 'kysely';
import { Arg, Ctx, Field, FieldResolver, Float, ID, Int, ObjectType, Resolver, Root } from 'type-graphql';
import { badInput } from '../../core/errors';
import { listCost } from '../../core/limits';
import { rows, sql } from '../../db/typed-sql';
import type { Context } from '../../graphql/context.type';
import type { KeyedLoaderFactory } from '../../graphql/loaders';
import { Fact } from './fact.type';
import { SignalType } from './facts.inputs';

@ObjectType({ simpleResolvers: true, description: 'One usefulness signal of a fact, with where it came from.' })
export class FactSignal {
  @Field(() => ID, { description: 'Server-generated id.' })
  id!: string;

  @Field(() => ID, { description: 'The fact it scored.' })
  factId!: string;

  @Field(() => SignalType, { description: 'USED, IGNORED, HELPFUL or NOT_HELPFUL.' })
  signalType!: SignalType;

  @Field(() => Float, { description: 'Confidence 0..1.' })
  confidence!: number;

  @Field(() => Float, { description: 'What it added to the score: weight * confidence * 0.1.' })
  delta!: number;

  @Field({ description: 'The query of its query context.' })
  query!: string;

  @Field(() => String, { nullable: true, description: 'Why it was given (free text of submitSignals).' })
  context!: string | null;

  @Field({ description: 'When it was applied.' })
  createdAt!: Date;

  @Field(() => String, {
    nullable: true,
    description:
      'Null when a caller sent it (submitSignals); else the server credited it for USAGE (the episode used the fact), FEEDBACK or VERDICT (scored feedback or a judge on the episode).',
  })
  source!: string | null;

  @Field(() => ID, { nullable: true, description: 'The feedback or verdict that earned it (credit).' })
  feedbackId!: string | null;

  @Field(() => ID, { nullable: true, description: 'The episode that used the fact, or was served it without using it (credit).' })
  episodeId!: string | null;

  @Field(() => ID, {
    nullable: true,
    description: 'The memory trace (traced recall) that served the fact; its query is the query context (credit).',
  })
  traceId!: string | null;
}

/** The newest `first` signals of each fact, newest first; one statement per request. */
const signalsByFact: KeyedLoaderFactory<{ first: number }, DataLoader<string, FactSignal[]>> = (em, orgId, { first }) =>
  new DataLoader(async (ids) => {
    const ranked = sql
      .selectFrom('fact_signals as s')
      .select(['s.id', 's.fact_id', 's.signal_type', 's.confidence', 's.delta', 's.query', 's.context', 's.created_at', 's.ord'])
      .select(['s.source', 's.feedback_id', 's.episode_id', 's.trace_id'])
      .select(raw<number>`row_number() OVER (PARTITION BY s.fact_id ORDER BY s.created_at DESC, s.ord DESC, s.id DESC)`.as('rn'))
      .where('s.org_id', '=', orgId)
      .where('s.fact_id', '=', raw<string>`any(${[...ids]}::uuid[])`);
    const found = await rows(
      em,
      sql.selectFrom(ranked.as('x')).selectAll().where('x.rn', '<=', first).orderBy('x.fact_id').orderBy('x.rn'),
    );
    const byFact = new Map<string, FactSignal[]>(ids.map((id) => [id, []]));
    for (const r of found)
      byFact.get(r.fact_id)?.push({
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
    return ids.map((id) => byFact.get(id)!);
  });

/** `Fact.signals`, batched over the facts of the request. */
@Resolver(() => Fact)
export class FactSignalsResolver {
  @FieldResolver(() => [FactSignal], {
    complexity: listCost(),
    description: "The fact's newest signals, newest first, each with its source.",
  })
  signals(
    @Root() fact: Fact,
    @Ctx() ctx: Context,
    @Arg('first', () => Int, { defaultValue: 20, description: 'How many (1..100).' }) first: number,
  ): Promise<FactSignal[]> {
    if (!Number.isInteger(first) || first < 1 || first > 100) throw badInput('first', 'first must be 1..100');
    return ctx.loaders.getFor(signalsByFact, { first }).load(fact.id);
  }
}
