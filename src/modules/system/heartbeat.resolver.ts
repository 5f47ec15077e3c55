import { Arg, Int, Resolver, Root, Subscription } from 'type-graphql';
import { badInput } from '../../core/errors';

/**
 * Seconds between beats. The floor keeps a beat a keep-alive, not a load: every beat is a frame
 * sent, and a socket may hold many heartbeats.
 */
const HEARTBEAT_SECONDS = { min: 5, max: 3600 } as const;
const RANGE = `${HEARTBEAT_SECONDS.min}..${HEARTBEAT_SECONDS.max}`;

/**
 * Now, then every `seconds`. Hand-written rather than an async generator: a generator parked in a
 * long sleep cannot be returned until the sleep ends, which would keep a cancelled subscription open.
 */
function ticks(seconds: number): AsyncIterableIterator<Date> {
  let first = true;
  let done = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: ((r: IteratorResult<Date>) => void) | undefined;
  const finish = (): Promise<IteratorResult<Date>> => {
    done = true;
    clearTimeout(timer);
    wake?.({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  };
  return {
    next: () => {
      if (done) return Promise.resolve({ value: undefined, done: true });
      if (first) {
        first = false;
        return Promise.resolve({ value: new Date(), done: false });
      }
      return new Promise((resolve) => {
        wake = resolve;
        timer = setTimeout(() => resolve({ value: new Date(), done: false }), seconds * 1000);
      });
    },
    return: finish,
    throw: finish,
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

@Resolver()
export class HeartbeatResolver {
  @Subscription(() => Date, {
    description:
      'Server time, at once and then every `intervalSeconds`: lets a dashboard tell a quiet feed from a dead connection, and keeps idle proxies from closing the socket.',
    subscribe: ({ args }) => {
      const { intervalSeconds: seconds } = args as { intervalSeconds: number };
      if (!Number.isInteger(seconds) || seconds < HEARTBEAT_SECONDS.min || seconds > HEARTBEAT_SECONDS.max)
        throw badInput('intervalSeconds', `intervalSeconds must be ${RANGE}`);
      return ticks(seconds);
    },
  })
  heartbeat(
    @Root() now: Date,
    @Arg('intervalSeconds', () => Int, { defaultValue: 30, description: `Seconds between beats (${RANGE}).` }) _intervalSeconds: number,
  ): Date {
    return now;
  }
}
