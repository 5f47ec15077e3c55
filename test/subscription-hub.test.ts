import { buildSchema, type ExecutionArgs, type ExecutionResult, GraphQLError, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { MAX_QUEUED_RESULTS, rootFieldNames, SubscriptionHub, subscribeEach } from '../src/http/subscription-hub';

// the hub on its own, with a source whose events the test pushes
const schema = buildSchema('type Query { x: Int } type Subscription { tick: Int other: Int }');
const document = parse('subscription { tick }');

function channel() {
  const queue: unknown[] = [];
  let waiter: ((r: IteratorResult<unknown>) => void) | undefined;
  const state = { opened: 0, returned: false };
  const iterator: AsyncIterableIterator<unknown> = {
    next: () =>
      queue.length
        ? Promise.resolve({ value: queue.shift(), done: false })
        : state.returned
          ? Promise.resolve({ value: undefined, done: true })
          : new Promise((r) => (waiter = r)),
    return: () => {
      state.returned = true;
      waiter?.({ value: undefined, done: true });
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  const push = (tick: number) => {
    if (waiter) {
      const w = waiter;
      waiter = undefined;
      w({ value: { tick }, done: false });
    } else queue.push({ tick });
  };
  return { iterator, push, state };
}

function setup(delay?: (tick: number) => number) {
  const source = channel();
  let executions = 0;
  const args: ExecutionArgs = {
    schema,
    document,
    contextValue: {},
    rootValue: {
      tick: () => {
        source.state.opened++;
        return source.iterator;
      },
    },
    fieldResolver: async (root: { tick: number }) => {
      executions++;
      if (delay) await new Promise((r) => setTimeout(r, delay(root.tick)));
      return root.tick;
    },
  };
  const hub = new SubscriptionHub((base) => ({ ...(base as object) }));
  const join = async () => (await hub.subscribe('k', args)) as AsyncIterableIterator<ExecutionResult>;
  return { hub, source, join, executions: () => executions };
}

const take = async (it: AsyncIterator<ExecutionResult>, n: number) => {
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) out.push((await it.next()).value?.data?.tick);
  return out;
};
const tick = () => new Promise((r) => setImmediate(r));

describe('SubscriptionHub', () => {
  it('opens one source for a key and executes each event once for all its subscribers', async () => {
    const { hub, source, join, executions } = setup();
    const [x, y, z] = await Promise.all([join(), join(), join()]);
    expect(source.state.opened).toBe(1);
    expect(hub.size).toBe(1);
    [1, 2, 3].forEach(source.push);
    expect(await Promise.all([take(x, 3), take(y, 3), take(z, 3)])).toEqual([
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
    ]);
    expect(executions()).toBe(3);
  });

  it('ends a leaving subscriber at once, keeps the others, and closes the source when the last leaves', async () => {
    const { hub, source, join } = setup();
    const [x, y] = await Promise.all([join(), join()]);
    const pending = x.next();
    await x.return!();
    expect(await pending).toEqual({ value: undefined, done: true });
    source.push(1);
    expect(await take(y, 1)).toEqual([1]);
    expect(source.state.returned).toBe(false);
    await y.return!();
    expect(source.state.returned).toBe(true);
    expect(hub.size).toBe(0);
    // the next subscriber of the key opens a new source
    await join();
    expect(source.state.opened).toBe(2);
  });

  it('delivers in event order when later events finish executing first', async () => {
    const { source, join } = setup((t) => (5 - t) * 10);
    const x = await join();
    [1, 2, 3, 4].forEach(source.push);
    expect(await take(x, 4)).toEqual([1, 2, 3, 4]);
  });

  it('ends a subscriber that falls too far behind with an error, and only that one', async () => {
    const { source, join } = setup();
    const [slow, fast] = await Promise.all([join(), join()]);
    const got: unknown[] = [];
    const reading = (async () => {
      for await (const r of fast) {
        got.push(r.data?.tick);
        if (got.length === MAX_QUEUED_RESULTS + 5) return;
      }
    })();
    for (let i = 1; i <= MAX_QUEUED_RESULTS + 5; i++) {
      source.push(i);
      await tick();
    }
    await reading;
    expect(got).toHaveLength(MAX_QUEUED_RESULTS + 5);
    expect(await take(slow, MAX_QUEUED_RESULTS)).toEqual(Array.from({ length: MAX_QUEUED_RESULTS }, (_, i) => i + 1));
    await expect(slow.next()).rejects.toThrow(/fell 1000 events behind/);
    expect(source.state.returned).toBe(true); // the fast one left too (for await returned), so the source closed
  });

  it('gives every waiting subscriber the errors of a source that cannot open, and lets the next one try again', async () => {
    const hub = new SubscriptionHub((base) => base);
    let attempts = 0;
    const args: ExecutionArgs = {
      schema,
      document,
      rootValue: {
        tick: () => {
          attempts++;
          throw new GraphQLError('no');
        },
      },
    };
    const results = await Promise.all([hub.subscribe('k', args), hub.subscribe('k', args)]);
    expect(results.map((r) => (r as ExecutionResult).errors?.[0]?.message)).toEqual(['no', 'no']);
    await hub.subscribe('k', args);
    expect(attempts).toBe(2);
    expect(hub.size).toBe(0);
  });

  it('names the root fields of an operation through fragments', () => {
    const doc = parse('subscription S { ...F } fragment F on Subscription { ... on Subscription { tick } }');
    expect([...rootFieldNames(doc, 'S')!]).toEqual(['tick']);
    expect(rootFieldNames(doc, 'Missing')).toBeNull();
  });
});

describe('an unshared stream', () => {
  it("executes each event with a context of its own, made from the subscriber's, and closes its source when it ends", async () => {
    const source = channel();
    const made: { from: unknown }[] = [];
    const base = { subscriber: true };
    const stream = await subscribeEach({ schema, document, contextValue: base, rootValue: { tick: () => source.iterator } }, (b) => {
      const c = { from: b };
      made.push(c);
      return c;
    });
    if (!(Symbol.asyncIterator in stream)) throw new Error('expected a stream');
    source.push(1);
    source.push(2);
    const results = [await stream.next(), await stream.next()].map((r) => (r.value as ExecutionResult).data);
    expect(results).toEqual([{ tick: 1 }, { tick: 2 }]);
    expect(made).toHaveLength(2);
    expect(made[0]).not.toBe(made[1]);
    expect(made.every((c) => c.from === base)).toBe(true);
    await stream.return!();
    expect(source.state.returned).toBe(true);
  });
});
