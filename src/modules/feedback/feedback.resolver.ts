import { Arg, Authorized, Ctx, Float, Int, Mutation, Query, Resolver } from 'type-graphql';
import { notFound } from '../../core/errors';
import { listCost } from '../../core/limits';
import type { Context } from '../../graphql/context.type';
import { getEpisode } from '../episodes';
import { episodeFromRow } from '../episodes';
import { Episode } from '../episodes';
import { CAN } from '../orgs';
import { creditingCost } from '../traces';
import { CorrectionInput, FeedbackFilter, JudgeEpisodeInput, SubmitFeedbackInput } from './feedback.inputs';
import { feedbackEpisodes, getFeedback, listFeedback } from './feedback.query';
import { feedbackFromRow } from './feedback.rows';
import { recordCorrection, submitFeedback } from './feedback.service';
import { Feedback, FeedbackConnection, FeedbackResult } from './feedback.type';
import { judgeEpisode } from './judge.service';

const actor = (ctx: Context) => ({ orgId: ctx.orgId, apiKeyId: ctx.viewer.apiKeyId });

async function mustFeedback(ctx: Context, id: string): Promise<Feedback> {
  const f = await getFeedback(ctx.em, ctx.orgId, id);
  if (!f) throw notFound('feedback');
  return f;
}

@Resolver()
export class FeedbackResolver {
  @Mutation(() => FeedbackResult, {
    complexity: creditingCost,
    description:
      "Records a thumb, a rating or free-text corrections; returns it with the episode's updated aggregate. A scored one on an episode credits the facts the episode used (and was served without using): see `Fact.signals`.",
  })
  @Authorized(CAN.feedbackWrite)
  async submitFeedback(
    @Arg('input', () => SubmitFeedbackInput, { description: 'The feedback.' }) input: SubmitFeedbackInput,
    @Ctx() ctx: Context,
  ): Promise<FeedbackResult> {
    const w = await submitFeedback(ctx.em, ctx.services.bus, actor(ctx), input);
    // the write read its rows back; a replay (idempotency key) loads them as they are now
    if (w.rows)
      return Object.assign(new FeedbackResult(), {
        feedback: feedbackFromRow(w.rows.feedback),
        episode: w.rows.episode && episodeFromRow(w.rows.episode),
      });
    return Object.assign(new FeedbackResult(), {
      feedback: await mustFeedback(ctx, w.feedbackId),
      episode: w.episodeId ? await getEpisode(ctx.em, ctx.orgId, w.episodeId) : null,
    });
  }

  @Mutation(() => Feedback, {
    description: 'Records an operator correction (type CORRECTION); before/after over 10 KB are reduced to the changed keys.',
  })
  @Authorized(CAN.feedbackWrite)
  async recordCorrection(
    @Arg('input', () => CorrectionInput, { description: 'The correction.' }) input: CorrectionInput,
    @Ctx() ctx: Context,
  ): Promise<Feedback> {
    return mustFeedback(ctx, (await recordCorrection(ctx.em, ctx.services.bus, actor(ctx), input)).feedbackId);
  }

  @Mutation(() => Episode, {
    complexity: creditingCost,
    description:
      "Records a judge's verdict: accepted, overall score, output updates, and a JUDGEMENT feedback; credits the facts the episode used like a feedback of +1 (accepted) or -1.",
  })
  @Authorized(CAN.feedbackWrite)
  async judgeEpisode(
    @Arg('input', () => JudgeEpisodeInput, { description: 'The verdict.' }) input: JudgeEpisodeInput,
    @Ctx() ctx: Context,
  ): Promise<Episode> {
    const ep = await getEpisode(ctx.em, ctx.orgId, await judgeEpisode(ctx.em, ctx.services.bus, actor(ctx), input));
    if (!ep) throw notFound('episode', 'input.episodeId');
    return ep;
  }

  @Query(() => FeedbackConnection, {
    complexity: listCost(),
    description: 'Feedback, newest first, filtered; keyset pages of `first` (1..100).',
  })
  feedback(
    @Ctx() ctx: Context,
    @Arg('filter', () => FeedbackFilter, { nullable: true, description: 'Conditions that must all hold.' }) filter?: FeedbackFilter,
    @Arg('first', () => Int, { defaultValue: 20, description: 'Page size, 1..100.' }) first?: number,
    @Arg('after', () => String, { nullable: true, description: '`endCursor` of the previous page.' }) after?: string,
  ): Promise<FeedbackConnection> {
    return listFeedback(ctx.em, ctx.orgId, filter, first, after);
  }

  @Query(() => [Episode], {
    complexity: listCost(10),
    description: 'Episodes of an agent whose aggregate feedback is at least `minFeedbackScore`, newest first.',
  })
  feedbackEpisodes(
    @Arg('agentId', { description: 'The agent.' }) agentId: string,
    @Ctx() ctx: Context,
    @Arg('minFeedbackScore', () => Float, { defaultValue: 0.5, description: 'Lowest aggregate score, -1..1.' }) minFeedbackScore?: number,
    @Arg('timeRange', () => String, { defaultValue: '30d', description: 'Range back from now: "24h", "7d", "4w".' }) timeRange?: string,
    @Arg('limit', () => Int, { defaultValue: 10, description: 'At most this many (1..100).' }) limit?: number,
  ): Promise<Episode[]> {
    return feedbackEpisodes(ctx.em, ctx.orgId, agentId, minFeedbackScore ?? 0.5, timeRange ?? '30d', limit ?? 10);
  }
}
