import { Arg, Authorized, Ctx, Float, Int, Mutation, Query, Resolver } from 'type-graphql';
import { notFound } from '../../core/errors';
import { listCost } from '../../core/limits';
import type { Context } from '../../graphql/context.type';
import { Episode } from '../episodes';
import { CAN } from '../orgs';
import { type CanvasAction, CanvasActionEnum } from '../shared';
import { CanvasActionInput, CanvasAuditFilter } from './canvas.inputs';
import { canvasInsights, episodesByCanvasType } from './canvas.insights';
import { getCanvasAudit, listCanvasAudits, recordCanvasAction } from './canvas.service';
import { CanvasAudit, CanvasAuditConnection, CanvasInsights } from './canvas.type';

@Resolver()
export class CanvasResolver {
  @Mutation(() => CanvasAudit, {
    description: 'Records one canvas action; links it to the episode given, or to the latest episode of the same agent and session.',
  })
  @Authorized(CAN.agentWrite)
  async recordCanvasAction(
    @Arg('input', () => CanvasActionInput, { description: 'The action.' }) input: CanvasActionInput,
    @Ctx() ctx: Context,
  ): Promise<CanvasAudit> {
    const audit = await getCanvasAudit(ctx.em, ctx.orgId, await recordCanvasAction(ctx.em, ctx.orgId, input));
    if (!audit) throw notFound('canvas audit');
    return audit;
  }

  @Query(() => CanvasAuditConnection, {
    complexity: listCost(),
    description: 'Canvas audits, newest first, filtered; keyset pages of `first` (1..100).',
  })
  canvasAudits(
    @Ctx() ctx: Context,
    @Arg('filter', () => CanvasAuditFilter, { nullable: true, description: 'Conditions that must all hold.' }) filter?: CanvasAuditFilter,
    @Arg('first', () => Int, { defaultValue: 20, description: 'Page size, 1..100.' }) first?: number,
    @Arg('after', () => String, { nullable: true, description: '`endCursor` of the previous page.' }) after?: string,
  ): Promise<CanvasAuditConnection> {
    return listCanvasAudits(ctx.em, ctx.orgId, filter, first, after);
  }

  @Query(() => [Episode], {
    complexity: listCost(10),
    description: 'Episodes of an agent with at least one matching canvas action in the range, newest first.',
  })
  episodesByCanvasType(
    @Arg('agentId', { description: 'The agent.' }) agentId: string,
    @Arg('canvasType', { description: 'Canvas type.' }) canvasType: string,
    @Ctx() ctx: Context,
    @Arg('action', () => CanvasActionEnum, { nullable: true, description: 'Only this action.' }) action?: CanvasAction,
    @Arg('timeRange', () => String, { defaultValue: '30d', description: 'Range back from now: "24h", "7d", "4w".' }) timeRange?: string,
    @Arg('limit', () => Int, { defaultValue: 10, description: 'At most this many (1..100).' }) limit?: number,
  ): Promise<Episode[]> {
    return episodesByCanvasType(ctx.em, ctx.orgId, { agentId, canvasType, action, timeRange: timeRange ?? '30d', limit: limit ?? 10 });
  }

  @Query(() => CanvasInsights, { description: "How users engage with an agent's canvases: per type and component, with pattern lists." })
  canvasInsights(
    @Arg('agentId', { description: 'The agent.' }) agentId: string,
    @Ctx() ctx: Context,
    @Arg('timeRange', () => String, { defaultValue: '30d', description: 'Range back from now: "24h", "7d", "4w".' }) timeRange?: string,
    @Arg('quickCloseSeconds', () => Float, { defaultValue: 10, description: 'Average engagement below this counts as closing quickly.' })
    quickCloseSeconds?: number,
  ): Promise<CanvasInsights> {
    return canvasInsights(ctx.em, ctx.orgId, agentId, timeRange ?? '30d', quickCloseSeconds ?? 10);
  }
}
