import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, FieldResolver, ID, Info, Int, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.type';
import { Episode } from '../episodes';
import { SUB_LIST_LIMIT_DESCRIPTION, subListCost, subListLimit } from '../shared';
import { type CanvasAction, CanvasActionEnum, canvasType } from '../shared';
import { columnsOf, prefetchField, selectedColumns } from '../shared';
import { canvasByEpisode } from './canvas.loaders';
import { CANVAS_FIELD_COLUMNS, CANVAS_LIST_ALWAYS } from './canvas.rows';
import { CanvasAudit } from './canvas.type';

/** The loader arguments of `canvasContext` from its field arguments and the columns its selection reads. */
const contextArgs = (a: Record<string, unknown>, columns: string) => ({
  canvasType: a.canvasType ? canvasType('canvasType', a.canvasType as string) : null,
  action: (a.action as CanvasAction | null | undefined) ?? null,
  limit: subListLimit(a.limit as number | null | undefined),
  columns,
});
prefetchField('Episode', 'canvasContext', (ctx, args, selects) =>
  ctx.loaders.getFor(canvasByEpisode, contextArgs(args, columnsOf(CANVAS_FIELD_COLUMNS, CANVAS_LIST_ALWAYS, selects))),
);

/** The columns `canvasIds` reads. */
const ID_COLUMNS = columnsOf(CANVAS_FIELD_COLUMNS, CANVAS_LIST_ALWAYS, () => false);

/** Canvas fields of an episode, batched over all episodes of the request. */
@Resolver(() => Episode)
export class CanvasEpisodeResolver {
  @FieldResolver(() => [ID], { complexity: subListCost, description: 'Ids of the canvas audits linked to the episode, oldest first.' })
  async canvasIds(
    @Root() ep: Episode,
    @Ctx() ctx: Context,
    @Arg('limit', () => Int, { nullable: true, description: SUB_LIST_LIMIT_DESCRIPTION }) limit?: number,
  ): Promise<string[]> {
    const args = { canvasType: null, action: null, limit: subListLimit(limit), columns: ID_COLUMNS };
    return (await ctx.loaders.getFor(canvasByEpisode, args).load(ep.id)).map((c) => c.id);
  }

  @FieldResolver(() => [CanvasAudit], {
    complexity: subListCost,
    description: 'The canvas actions linked to the episode, oldest first, optionally filtered.',
  })
  canvasContext(
    @Root() ep: Episode,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
    @Arg('canvasType', () => String, { nullable: true, description: 'Only this canvas type.' }) type?: string,
    @Arg('action', () => CanvasActionEnum, { nullable: true, description: 'Only this action.' }) action?: CanvasAction,
    @Arg('limit', () => Int, { nullable: true, description: SUB_LIST_LIMIT_DESCRIPTION }) limit?: number,
  ): Promise<CanvasAudit[]> {
    const args = contextArgs({ canvasType: type, action, limit }, selectedColumns(info, CANVAS_FIELD_COLUMNS, CANVAS_LIST_ALWAYS));
    return ctx.loaders.getFor(canvasByEpisode, args).load(ep.id);
  }
}
