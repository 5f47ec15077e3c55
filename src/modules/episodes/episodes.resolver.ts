import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Ctx, ID, Info, Int, Mutation, Query, Resolver } from 'type-graphql';
import { isUuid } from '../../core/ids';
import { notFound } from '../../core/errors';
import { listCost } from '../../core/limits';
import type { Context } from '../../graphql/context.type';
import { CAN } from '../orgs';
import { EpisodeConnection } from './episode-parts.type';
import { episodeColumnsOf } from './episode.rows';
import { Episode } from './episode.type';
import { EpisodeFilter, RecordEpisodeInput, SegmentInput } from './episodes.inputs';
import { prefetchSelected, readAheadSelected, selectedFieldsAt } from '../shared';
import type { IdsOfRows } from '../../db/statement-batch';
import { episodeById, getEpisode, listEpisodes } from './episodes.query';
import * as episodes from './episodes.service';

/** Where a page's episodes are in its selection. */
const EDGE_NODE = ['edges', 'node'];

// per selection of a page's episodes (`selectedFieldsAt` keeps one set per document)
const columnKeys = new WeakMap<ReadonlySet<string>, string>();

/** The columns a page's episodes are read with: those of the fields its document selects on them. */
function pageColumns(info: GraphQLResolveInfo): string {
  const fields = selectedFieldsAt(info, EDGE_NODE);
  let columns = columnKeys.get(fields);
  if (columns === undefined) columnKeys.set(fields, (columns = episodeColumnsOf((f) => fields.has(f))));
  return columns;
}

async function mustGet(ctx: Context, id: string): Promise<Episode> {
  const ep = await getEpisode(ctx.em, ctx.orgId, id);
  if (!ep) throw notFound('episode', 'id');
  return ep;
}

@Resolver()
export class EpisodesResolver {
  @Query(() => Episode, { nullable: true, description: 'One episode of the organization; null when there is none with this id.' })
  async episode(
    @Arg('id', () => ID, { description: 'Episode id.' }) id: string,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Episode | null> {
    if (!isUuid(id)) return null;
    const key = id.toLowerCase();
    // the context lists it selects are read in the same statement as the episode
    prefetchSelected(ctx, info, 'Episode', key);
    return ctx.loaders.get(episodeById).load(key);
  }

  @Query(() => EpisodeConnection, {
    complexity: listCost(),
    description: 'Episodes, newest first, filtered; keyset pages of `first` (1..100).',
  })
  episodes(
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
    @Arg('filter', () => EpisodeFilter, { nullable: true, description: 'Conditions that must all hold.' }) filter?: EpisodeFilter,
    @Arg('first', () => Int, { defaultValue: 20, description: 'Page size, 1..100.' }) first?: number,
    @Arg('after', () => String, { nullable: true, description: '`endCursor` of the previous page.' }) after?: string,
  ): Promise<EpisodeConnection> {
    // the context lists its episodes select are read in the same statement as the page
    const ahead = (ids: IdsOfRows) => readAheadSelected(ctx, info, EDGE_NODE, 'Episode', ids);
    return listEpisodes(ctx.loaders.em, ctx.orgId, pageColumns(info), filter, first, after, ahead);
  }

  @Mutation(() => Episode, {
    description:
      'Records an episode with its initial segments, outputs and facts; links same-session canvas actions and feedback that have no episode yet.',
  })
  @Authorized(CAN.agentWrite)
  async recordEpisode(
    @Arg('input', () => RecordEpisodeInput, { description: 'The episode.' }) input: RecordEpisodeInput,
    @Ctx() ctx: Context,
  ): Promise<Episode> {
    return mustGet(ctx, await episodes.recordEpisode(ctx.em, ctx.services.embedder, ctx.services.bus, ctx.orgId, input));
  }

  @Mutation(() => Episode, { description: 'Appends turns to an episode, numbered after its last one.' })
  @Authorized(CAN.agentWrite)
  async appendSegments(
    @Arg('episodeId', () => ID, { description: 'The episode.' }) episodeId: string,
    @Arg('segments', () => [SegmentInput], { description: 'Turns to append, in order (<= 1,000).' }) segments: SegmentInput[],
    @Ctx() ctx: Context,
    @Arg('idempotencyKey', () => String, { nullable: true, description: 'Repeat-safe key (<= 128 characters).' }) idempotencyKey?: string,
  ): Promise<Episode> {
    return mustGet(ctx, await episodes.appendSegments(ctx.em, ctx.orgId, episodeId, segments, idempotencyKey));
  }

  @Mutation(() => Episode, {
    description: 'Links canvas actions and feedback of the same agent and session that have no episode yet to this episode.',
  })
  @Authorized(CAN.agentWrite)
  async linkSessionRecords(
    @Arg('episodeId', () => ID, { description: 'The episode.' }) episodeId: string,
    @Ctx() ctx: Context,
  ): Promise<Episode> {
    return mustGet(ctx, await episodes.linkSessionRecords(ctx.em, ctx.orgId, episodeId));
  }
}
