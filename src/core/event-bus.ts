import { createPubSub, type PubSub } from '@graphql-yoga/subscription';
import { GraphQLError } from 'graphql';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { setMaxListeners } from 'node:events';
import Redis from 'ioredis';

/** Events that cross server instances. Payloads are small and JSON-serialisable (ids, not rows). */
export type BusEvents = {
  /** an API key was revoked: every instance closes the sockets opened with it */
  apiKeyRevoked: [{ apiKeyId: string }];
  /** a feedback row was committed */
  feedbackAdded: [{ orgId: string; feedbackId: string; episodeId: string | null; agentId: string | null; feedbackType: string }];
  /** an episode was committed (recorded through GraphQL, or made from an OTLP trace) */
  episodeAdded: [{ orgId: string; episodeId: string; agentId: string; sessionId: string | null }];
};

/**
 * Events one subscription's source may hold that its executions have not taken yet. A source
 * that falls further behind ends with an error (its subscribers are told to subscribe again)
 * instead of growing without bound; the process and every other subscription go on.
 */
export const MAX_WAITING_EVENTS = 10_000;

export interface EventBus {
  pubsub: PubSub<BusEvents>;
  close(): Promise<void>;
}

/** In-process pub/sub, or Redis pub/sub when a URL is given so every instance sees every event. */
export function createEventBus(redisUrl: string | null): EventBus {
  if (!redisUrl) {
    // every open subscription is a listener: a dashboard fleet means thousands, not a leak
    const eventTarget = new EventTarget();
    setMaxListeners(0, eventTarget);
    return { pubsub: bounded(eventTarget), close: async () => {} };
  }
  const options = { maxRetriesPerRequest: null, lazyConnect: false } as const;
  const publishClient = new Redis(redisUrl, options);
  // the subscriber connection enters subscriber mode at once; ioredis's ready check (an INFO
  // command) would then fail with "Connection in subscriber mode" on every start
  const subscribeClient = new Redis(redisUrl, { ...options, enableReadyCheck: false });
  return {
    pubsub: bounded(createRedisEventTarget({ publishClient, subscribeClient })),
    close: async () => {
      await Promise.allSettled([publishClient.quit(), subscribeClient.quit()]);
    },
  };
}

type Target = Parameters<typeof createPubSub>[0] extends infer C
  ? NonNullable<C> extends { eventTarget?: infer T }
    ? NonNullable<T>
    : never
  : never;

/** A pub/sub over `target` whose subscriptions hold at most MAX_WAITING_EVENTS each (see there). */
function bounded(target: Target): PubSub<BusEvents> {
  const pubsub = createPubSub<BusEvents>({ eventTarget: target });
  // publishing stays the library's (one event to every listener); only subscribing is bounded here
  return Object.assign(pubsub, {
    subscribe: (topic: keyof BusEvents) => waitingAtMost(target, topic, MAX_WAITING_EVENTS),
  });
}

/** The events of `topic` as an async iterator that keeps at most `max` untaken ones. */
function waitingAtMost(target: Target, topic: string, max: number): AsyncIterableIterator<unknown> {
  const waiting: unknown[] = [];
  let taker: ((step: IteratorResult<unknown>) => void) | null = null;
  let failure: GraphQLError | null = null;
  let ended = false;
  const listener = (event: Event) => {
    const value = (event as CustomEvent).detail as unknown;
    if (taker) {
      const take = taker;
      taker = null;
      take({ value, done: false });
    } else if (waiting.length >= max) {
      failure = new GraphQLError(`the server fell ${max} events behind on this subscription; subscribe again`, {
        extensions: { code: 'FELL_BEHIND' },
      });
      stop();
    } else waiting.push(value);
  };
  const stop = () => {
    if (ended) return;
    ended = true;
    target.removeEventListener(topic, listener);
    if (!failure) waiting.length = 0;
    if (taker) taker({ value: undefined, done: true });
    taker = null;
  };
  target.addEventListener(topic, listener);
  const it: AsyncIterableIterator<unknown> = {
    next: () => {
      if (waiting.length > 0) return Promise.resolve({ value: waiting.shift(), done: false });
      if (failure) {
        const err = failure;
        failure = null;
        return Promise.reject(err);
      }
      if (ended) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => (taker = resolve));
    },
    return: () => {
      stop();
      waiting.length = 0;
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]: () => it,
  };
  return it;
}
