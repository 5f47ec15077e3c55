import { Arg, Authorized, Ctx, Float, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { listCost } from '../../core/limits';
import type { Context } from '../../graphql/context.type';
import { Episode } from '../episodes';
import { CAN } from '../orgs';
import { memorySummary, similarEpisodes, topicPerformance, topicTrend } from './diagnostics.service';
import { forgetEpisodes, purgeExpiredFeedback } from './lifecycle.service';
import { ForgetInput, ForgetResult, MemorySummary, PurgeResult, TopicPerformance, TopicTrendPoint } from './lifecycle.type';

@Resolver()
export class LifecycleResolver {
  @Mutation(() => ForgetResult, {
    description:
      'Deletes decayed and stale unaccepted episodes in batches; accepted episodes with overallScore > 0.85 are kept (ADMIN only).',
  })
  @Authorized(CAN.manageKeys)
  async forgetEpisodes(
    @Ctx() ctx: Context,
    @Arg('input', () => ForgetInput, { nullable: true, description: 'Thresholds; defaults when omitted.' }) input?: ForgetInput,
  ): Promise<ForgetResult> {
    return Object.assign(new ForgetResult(), await forgetEpisodes(ctx.em, ctx.orgId, ctx.services.config.decayLambda, input ?? {}));
  }

  @Mutation(() => PurgeResult, { description: 'Deletes feedback older than the retention, keeping episode aggregates exact (ADMIN only).' })
  @Authorized(CAN.manageKeys)
  async purgeExpiredFeedback(
    @Ctx() ctx: Context,
    @Arg('retentionDays', () => Int, { defaultValue: 365, description: 'Days to keep (>= 1).' }) retentionDays?: number,
  ): Promise<PurgeResult> {
    return Object.assign(new PurgeResult(), { deleted: await purgeExpiredFeedback(ctx.em, ctx.orgId, retentionDays ?? 365) });
  }

  @Query(() => [Episode], {
    complexity: listCost(10),
    description: 'Episodes with the same topic or sharing facts, ranked by shared facts, then overallScore.',
  })
  similarEpisodes(
    @Ctx() ctx: Context,
    @Arg('topic', () => String, { nullable: true, description: 'Topic to match.' }) topic?: string,
    @Arg('factIds', () => [ID], { nullable: true, description: 'Facts to share.' }) factIds?: string[],
    @Arg('minScore', () => Float, { defaultValue: 0, description: 'Lowest overallScore (unscored counts as 0).' }) minScore?: number,
    @Arg('limit', () => Int, { defaultValue: 10, description: 'At most this many (1..100).' }) limit?: number,
  ): Promise<Episode[]> {
    return similarEpisodes(ctx.em, ctx.orgId, { topic, factIds, minScore: minScore ?? 0, limit: limit ?? 10 });
  }

  @Query(() => [TopicPerformance], { description: 'Per topic: episodes, outputs, average score and acceptance rate.' })
  topicPerformance(@Ctx() ctx: Context): Promise<TopicPerformance[]> {
    return topicPerformance(ctx.em, ctx.orgId);
  }

  @Query(() => [TopicTrendPoint], { description: 'Daily average score and episode count of a topic.' })
  topicTrend(
    @Arg('topic', { description: 'The topic.' }) topic: string,
    @Ctx() ctx: Context,
    @Arg('days', () => Int, { defaultValue: 30, description: 'Days back from now (1..366).' }) days?: number,
  ): Promise<TopicTrendPoint[]> {
    return topicTrend(ctx.em, ctx.orgId, topic, days ?? 30);
  }

  @Query(() => MemorySummary, { description: "Counts and averages across the caller's organization." })
  memorySummary(@Ctx() ctx: Context): Promise<MemorySummary> {
    return memorySummary(ctx.em, ctx.orgId);
  }
}
