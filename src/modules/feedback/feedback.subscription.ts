import { filter, pipe } from '@graphql-yoga/subscription';
import { Arg, Ctx, Extensions, ID, Resolver, Root, Subscription } from 'type-graphql';
import type { BusEvents } from '../../core/event-bus';
import { SHARED_STREAM } from '../../core/shared-stream';
import type { Context } from '../../graphql/context.type';
import type { Episode } from '../episodes';
import { getEpisode } from '../episodes';
import type { FeedbackType } from './feedback-score';
import { getFeedback } from './feedback.query';
import { type Feedback, FeedbackEvent, FeedbackTypeEnum } from './feedback.type';

type FeedbackAddedPayload = BusEvents['feedbackAdded'][0];
type EventRows = Promise<[Feedback | null, Episode | null]>;
interface Args {
  agentId?: string | null;
  episodeId?: string | null;
  types?: FeedbackType[] | null;
}

/**
 * The feedback and episode of one event, read once for every subscription selection that executes
 * it (each bus delivery is a new payload object, so an entry never serves another event). The reads
 * must not depend on the selection: every selection of the event gets the same rows.
 */
const eventRows = new WeakMap<FeedbackAddedPayload, { orgId: string; rows: EventRows }>();

function rowsOf(ctx: Context, event: FeedbackAddedPayload): EventRows {
  const hit = eventRows.get(event);
  if (hit && hit.orgId === ctx.orgId) return hit.rows;
  const rows: EventRows = Promise.all([
    getFeedback(ctx.em, ctx.orgId, event.feedbackId),
    event.episodeId ? getEpisode(ctx.em, ctx.orgId, event.episodeId) : null,
  ]);
  eventRows.set(event, { orgId: ctx.orgId, rows });
  return rows;
}

@Resolver()
export class FeedbackSubscriptionResolver {
  @Extensions(SHARED_STREAM)
  @Subscription(() => FeedbackEvent, {
    description: "Every new feedback of the caller's organization that matches the filters, from any server instance, with its episode.",
    subscribe: ({ args, context }) => {
      const { orgId } = context as Context;
      const a = args as Args;
      return pipe(
        (context as Context).services.bus.pubsub.subscribe('feedbackAdded'),
        filter(
          (e: FeedbackAddedPayload) =>
            e.orgId === orgId &&
            (!a.agentId || e.agentId === a.agentId) &&
            (!a.episodeId || e.episodeId === a.episodeId) &&
            (!a.types?.length || a.types.includes(e.feedbackType as FeedbackType)),
        ),
      );
    },
  })
  async feedbackAdded(
    @Root() event: FeedbackAddedPayload,
    @Ctx() ctx: Context,
    @Arg('agentId', () => String, { nullable: true, description: 'Only feedback of this agent.' }) _agentId?: string,
    @Arg('episodeId', () => ID, { nullable: true, description: 'Only feedback of this episode.' }) _episodeId?: string,
    @Arg('types', () => [FeedbackTypeEnum], { nullable: true, description: 'Only these kinds.' }) _types?: FeedbackType[],
  ): Promise<FeedbackEvent> {
    const [feedback, episode] = await rowsOf(ctx, event);
    return Object.assign(new FeedbackEvent(), { feedback, episode });
  }
}
