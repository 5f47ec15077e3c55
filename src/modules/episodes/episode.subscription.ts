import { filter, pipe } from '@graphql-yoga/subscription';
import DataLoader from 'dataloader';
import { Arg, Ctx, Extensions, Resolver, Root, Subscription } from 'type-graphql';
import type { BusEvents, EventBus } from '../../core/event-bus';
import { SHARED_STREAM } from '../../core/shared-stream';
import type { Context } from '../../graphql/context.type';
import { Episode } from './episode.type';
import { episodeById } from './episodes.query';
import { isUuid } from '../../core/ids';

type EpisodeAddedPayload = BusEvents['episodeAdded'][0];
interface Args {
  agentId?: string | null;
  sessionId?: string | null;
}

/** A new episode, announced to every server instance once its transaction has committed. */
export interface NewEpisode {
  id: string;
  agentId: string;
  sessionId: string | null;
}

/** Publishes committed episodes of an organization, one event each (call after the commit). */
export function publishEpisodes(bus: EventBus, orgId: string, episodes: NewEpisode[]): void {
  for (const e of episodes) bus.pubsub.publish('episodeAdded', { orgId, episodeId: e.id, agentId: e.agentId, sessionId: e.sessionId });
}

/**
 * The episode of one event, read once for every subscription selection that executes it (each bus
 * delivery is a new payload object, so an entry never serves another event).
 */
const eventRows = new WeakMap<EpisodeAddedPayload, { orgId: string; row: Promise<Episode | null> }>();

/**
 * Reads of an organization's announced episodes gathered until the event loop's next turn: an
 * OTLP export announces every episode it made at once (about 85 for 512 spans), and their events
 * reach the subscribers together, so they are read in one statement instead of one each. A loader
 * leaves the map when its batch starts; the next event starts another.
 */
const gathering = new Map<string, DataLoader<string, Episode | null>>();

function readSoon(ctx: Context, id: string): Promise<Episode | null> {
  let loader = gathering.get(ctx.orgId);
  if (!loader) {
    const { em, orgId } = ctx;
    const read = episodeById(em, orgId);
    const made: DataLoader<string, Episode | null> = new DataLoader(
      (ids) => {
        if (gathering.get(orgId) === made) gathering.delete(orgId);
        return read.loadMany(ids);
      },
      { cache: false, batchScheduleFn: (run) => setImmediate(run) },
    );
    loader = made;
    gathering.set(orgId, loader);
  }
  return loader.load(id.toLowerCase());
}

function rowOf(ctx: Context, event: EpisodeAddedPayload): Promise<Episode | null> {
  const hit = eventRows.get(event);
  if (hit && hit.orgId === ctx.orgId) return hit.row;
  const row = isUuid(event.episodeId) ? readSoon(ctx, event.episodeId) : Promise.resolve(null);
  eventRows.set(event, { orgId: ctx.orgId, row });
  return row;
}

@Resolver()
export class EpisodeSubscriptionResolver {
  @Extensions(SHARED_STREAM)
  @Subscription(() => Episode, {
    nullable: true,
    description:
      "Every new episode of the caller's organization that matches the filters, from any server instance: recorded with `recordEpisode` or made from an OTLP trace (once, when the export that makes it commits; exports that only add to it are not announced). Null when the episode was erased before the event was delivered.",
    subscribe: ({ args, context }) => {
      const { orgId } = context as Context;
      const a = args as Args;
      return pipe(
        (context as Context).services.bus.pubsub.subscribe('episodeAdded'),
        filter(
          (e: EpisodeAddedPayload) =>
            e.orgId === orgId && (!a.agentId || e.agentId === a.agentId) && (!a.sessionId || e.sessionId === a.sessionId),
        ),
      );
    },
  })
  async episodeAdded(
    @Root() event: EpisodeAddedPayload,
    @Ctx() ctx: Context,
    @Arg('agentId', () => String, { nullable: true, description: 'Only episodes of this agent.' }) _agentId?: string,
    @Arg('sessionId', () => String, { nullable: true, description: 'Only episodes of this session.' }) _sessionId?: string,
  ): Promise<Episode | null> {
    return rowOf(ctx, event);
  }
}
