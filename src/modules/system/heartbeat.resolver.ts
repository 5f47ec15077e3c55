import { setTimeout as sleep } from 'node:timers/promises';
import { Arg, Int, Resolver, Root, Subscription } from 'type-graphql';
import { badInput } from '../../core/errors';

async function* ticks(seconds: number): AsyncGenerator<Date> {
  for (;;) {
    yield new Date();
    await sleep(seconds * 1000);
  }
}

@Resolver()
export class HeartbeatResolver {
  @Subscription(() => Date, {
    description:
      'Server time, at once and then every `intervalSeconds`: lets a dashboard tell a quiet feed from a dead connection, and keeps idle proxies from closing the socket.',
    subscribe: ({ args }) => {
      const seconds = args.intervalSeconds as number;
      if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) throw badInput('intervalSeconds', 'intervalSeconds must be 1..3600');
      return ticks(seconds);
    },
  })
  heartbeat(
    @Root() now: Date,
    @Arg('intervalSeconds', () => Int, { defaultValue: 30, description: 'Seconds between beats (1..3600).' }) _intervalSeconds: number,
  ): Date {
    return now;
  }
}
