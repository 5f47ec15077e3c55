import { createPubSub, type PubSub } from '@graphql-yoga/subscription';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import Redis from 'ioredis';

/** Events that cross server instances. Payloads are small and JSON-serialisable (ids, not rows). */
export type BusEvents = {
  /** an API key was revoked: every instance closes the sockets opened with it */
  apiKeyRevoked: [{ apiKeyId: string }];
  /** a feedback row was committed */
  feedbackAdded: [{ orgId: string; feedbackId: string; episodeId: string | null; agentId: string | null; feedbackType: string }];
};

export interface EventBus {
  pubsub: PubSub<BusEvents>;
  close(): Promise<void>;
}

/** In-process pub/sub, or Redis pub/sub when a URL is given so every instance sees every event. */
export function createEventBus(redisUrl: string | null): EventBus {
  if (!redisUrl) return { pubsub: createPubSub<BusEvents>(), close: async () => {} };
  const options = { maxRetriesPerRequest: null, lazyConnect: false } as const;
  const publishClient = new Redis(redisUrl, options);
  const subscribeClient = new Redis(redisUrl, options);
  const pubsub = createPubSub<BusEvents>({ eventTarget: createRedisEventTarget({ publishClient, subscribeClient }) });
  return {
    pubsub,
    close: async () => {
      await Promise.allSettled([publishClient.quit(), subscribeClient.quit()]);
    },
  };
}
