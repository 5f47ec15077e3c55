import { createPubSub, type PubSub } from '@graphql-yoga/subscription';
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
    return { pubsub: createPubSub<BusEvents>({ eventTarget: eventTarget }), close: async () => {} };
  }
  const options = { maxRetriesPerRequest: null, lazyConnect: false } as const;
  const publishClient = new Redis(redisUrl, options);
  // the subscriber connection enters subscriber mode at once; ioredis's ready check (an INFO
  // command) would then fail with "Connection in subscriber mode" on every start
  const subscribeClient = new Redis(redisUrl, { ...options, enableReadyCheck: false });
  const pubsub = createPubSub<BusEvents>({ eventTarget: createRedisEventTarget({ publishClient, subscribeClient }) });
  return {
    pubsub,
    close: async () => {
      await Promise.allSettled([publishClient.quit(), subscribeClient.quit()]);
    },
  };
}
