import pino, { type DestinationStream, type Logger } from 'pino';
import { serializeError } from './log-errors';
import { currentRequestScope } from './request-scope';

export type { Logger };

/** JSON-lines logger; the current request id is attached to every line logged inside a request. */
export function createLogger(level: string, destination: 1 | 2 | DestinationStream = 1): Logger {
  return pino(
    {
      level,
      base: { service: 'memory-loop' },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: () => {
        const scope = currentRequestScope();
        return scope ? { requestId: scope.requestId } : {};
      },
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializeError },
    },
    typeof destination === 'number' ? pino.destination({ fd: destination, sync: destination === 2 }) : destination,
  );
}
