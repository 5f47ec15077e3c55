import {
  createSourceEventStream,
  execute,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  getOperationAST,
  GraphQLError,
  Kind,
} from 'graphql';
import { fieldNames } from '../modules/shared';
import { type Outbox, resultBytes } from './ws-outbox';

/** Results a subscriber may have waiting (a socket that cannot keep up) before its subscription ends with an error. */
export const MAX_QUEUED_RESULTS = 1_000;
/** Events of one shared stream executing at once; results are still delivered in event order. */
const MAX_IN_FLIGHT = 32;

type Step = IteratorResult<ExecutionResult, undefined>;
/** The room of a subscriber that is not bound to a socket's: counted by number of results only. */
const UNBOUNDED: Outbox = { reserve: () => true, release: () => {}, onEnd: () => () => {} };
const DONE: Step = { value: undefined, done: true };

/**
 * One subscriber's view of a shared stream: the results pushed to it, in order, until it leaves
 * (`return`), the stream ends, or it falls too far behind. Hand-written rather than an async
 * generator so that `return` ends a pending `next` at once.
 */
class Subscriber implements AsyncIterableIterator<ExecutionResult> {
  private readonly queue: { result: ExecutionResult; bytes: number }[] = [];
  private waiter: { resolve(step: Step): void; reject(err: unknown): void } | null = null;
  private ended = false;
  private failure: { err: unknown } | null = null;
  private readonly unlisten: () => void;

  /**
   * @param outbox the room of the subscriber's socket: a queued result is counted there, and a
   *   socket closed for falling behind empties the queue and ends the stream at once
   */
  constructor(
    private readonly leave: (s: Subscriber) => void,
    private readonly outbox: Outbox = UNBOUNDED,
  ) {
    this.unlisten = outbox.onEnd((last) => (last ? this.finish(last) : void this.return()));
  }

  /** Ends the stream after what is queued and `last`, and leaves the shared stream. */
  private finish(last: ExecutionResult): void {
    if (this.ended || this.failure) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w.resolve({ value: last, done: false });
    } else this.queue.push({ result: last, bytes: 0 });
    this.ended = true;
    this.unlisten();
    this.leave(this);
  }

  push(result: ExecutionResult): void {
    if (this.ended || this.failure) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w.resolve({ value: result, done: false });
    } else if (this.queue.length >= MAX_QUEUED_RESULTS) {
      this.fail(
        new GraphQLError(`the subscriber fell ${MAX_QUEUED_RESULTS} events behind; subscribe again`, {
          extensions: { code: 'FELL_BEHIND' },
        }),
      );
      this.leave(this);
    } else {
      // a result waits only when the socket is behind: only then is its size counted
      const bytes = resultBytes(result);
      if (this.outbox.reserve(bytes)) this.queue.push({ result, bytes });
    }
  }

  /** the stream ended: what is queued is still delivered, then `done` */
  end(): void {
    this.ended = true;
    this.waiter?.resolve(DONE);
    this.waiter = null;
  }

  /** the stream failed: what is queued is still delivered, then the error */
  fail(err: unknown): void {
    if (this.ended || this.failure) return;
    this.failure = { err };
    this.waiter?.reject(err);
    this.waiter = null;
  }

  next(): Promise<Step> {
    const queued = this.queue.shift();
    if (queued) {
      this.outbox.release(queued.bytes);
      return Promise.resolve({ value: queued.result, done: false });
    }
    if (this.failure) {
      const { err } = this.failure;
      this.ended = true;
      this.failure = null;
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    if (this.ended) return Promise.resolve(DONE);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  return(): Promise<Step> {
    for (const { bytes } of this.queue) this.outbox.release(bytes);
    this.queue.length = 0;
    this.unlisten();
    this.failure = null;
    this.end();
    this.leave(this);
    return Promise.resolve(DONE);
  }

  throw(): Promise<Step> {
    return this.return();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/** Subscribers of one key: one source stream, one execution per event. */
interface Group {
  subscribers: Set<Subscriber>;
  /** true once the source stream is open; the errors (or the exception) when it could not be opened */
  opened: Promise<true | ExecutionResult>;
  source: AsyncIterator<unknown> | null;
  closed: boolean;
}

/**
 * One subscriber's own stream (not shared): like graphql-js's `subscribe`, but each event executes
 * with the context `eventContext` makes from the subscriber's.
 */
export async function subscribeEach(
  args: ExecutionArgs,
  eventContext: (base: unknown) => unknown,
): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source;
  const events = source[Symbol.asyncIterator]();
  const close = async () => {
    await events.return?.();
    return { done: true as const, value: undefined };
  };
  const stream: AsyncIterableIterator<ExecutionResult> = {
    next: async () => {
      const step = await events.next();
      if (step.done) return { done: true, value: undefined };
      try {
        return { done: false, value: await execute({ ...args, rootValue: step.value, contextValue: eventContext(args.contextValue) }) };
      } catch (err) {
        await close();
        throw err;
      }
    },
    return: close,
    throw: async (err: unknown) => {
      await close();
      throw err;
    },
    [Symbol.asyncIterator]() {
      return stream;
    },
  };
  return stream;
}

/**
 * Shares subscription streams: subscribers whose operations have the same key (organization, role,
 * document, operation name, variables) attach to one source stream; each event is executed once
 * and the result is handed to every attached subscriber, which sends it on its own socket at its
 * own pace. The last subscriber to leave closes the source.
 */
export class SubscriptionHub {
  private readonly groups = new Map<string, Group>();

  /**
   * @param eventContext the context one event executes with, made from the context of the
   *   subscriber that opened the stream (events may execute concurrently, so per-event state
   *   that resolvers set must live on a copy)
   */
  constructor(private readonly eventContext: (base: unknown) => unknown) {}

  /** shared streams whose source is open (receiving events) */
  get size(): number {
    let n = 0;
    for (const g of this.groups.values()) if (g.source && !g.closed) n++;
    return n;
  }

  /**
   * The stream of one subscriber; `args` open the shared stream when the key has none yet. Results
   * waiting for the subscriber count against its socket's `outbox`.
   */
  async subscribe(key: string, args: ExecutionArgs, outbox?: Outbox): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
    const group = this.groups.get(key) ?? this.open(key, args);
    const subscriber = new Subscriber((s) => this.leave(key, group, s), outbox);
    group.subscribers.add(subscriber);
    const opened = await group.opened.catch((err: unknown) => {
      group.subscribers.delete(subscriber);
      throw err;
    });
    if (opened !== true) {
      group.subscribers.delete(subscriber);
      return opened;
    }
    return subscriber;
  }

  private open(key: string, args: ExecutionArgs): Group {
    const group: Group = { subscribers: new Set(), opened: null as never, source: null, closed: false };
    this.groups.set(key, group);
    group.opened = (async () => {
      try {
        const stream = await createSourceEventStream(args);
        if (!(Symbol.asyncIterator in stream)) {
          this.forget(key, group); // errors are not shared with later subscribers: they try again
          return stream;
        }
        group.source = stream[Symbol.asyncIterator]();
      } catch (err) {
        this.forget(key, group);
        throw err;
      }
      if (group.closed)
        void group.source.return?.(); // every subscriber left while it opened
      else void this.pump(key, group, args);
      return true as const;
    })();
    return group;
  }

  /** Pulls events, executes each once (up to MAX_IN_FLIGHT at a time), delivers in order. */
  private async pump(key: string, group: Group, args: ExecutionArgs): Promise<void> {
    const source = group.source!;
    const inFlight: Promise<void>[] = [];
    let tail: Promise<void> = Promise.resolve();
    const deliver = (result: ExecutionResult) => {
      for (const s of group.subscribers) s.push(result);
    };
    try {
      for (;;) {
        const step = await source.next();
        if (step.done) break;
        const result = Promise.resolve().then(() =>
          execute({ ...args, rootValue: step.value, contextValue: this.eventContext(args.contextValue) }),
        );
        tail = tail
          .then(() => result)
          .then(deliver, (err: unknown) =>
            deliver({ errors: [err instanceof GraphQLError ? err : new GraphQLError(String(err), { originalError: err as Error })] }),
          );
        inFlight.push(tail);
        if (inFlight.length >= MAX_IN_FLIGHT) await inFlight.shift();
      }
      await tail;
      for (const s of group.subscribers) s.end();
    } catch (err) {
      await tail;
      for (const s of group.subscribers) s.fail(err);
    } finally {
      this.forget(key, group);
    }
  }

  private leave(key: string, group: Group, subscriber: Subscriber): void {
    if (!group.subscribers.delete(subscriber) || group.subscribers.size > 0) return;
    this.forget(key, group);
    // a group still opening closes its source once it is open
    void group.source?.return?.();
  }

  /** Removes a group so that the next subscriber of its key opens a new one. */
  private forget(key: string, group: Group): void {
    group.closed = true;
    if (this.groups.get(key) === group) this.groups.delete(key);
  }
}

/** Names of the root fields an operation selects (through fragments), or null when the operation is not in the document. */
export function rootFieldNames(document: DocumentNode, operationName?: string | null): Set<string> | null {
  const op = getOperationAST(document, operationName);
  if (!op) return null;
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [])),
  );
  return fieldNames([op.selectionSet], (name) => fragments.get(name));
}
