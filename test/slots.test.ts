import { describe, expect, it } from 'vitest';
import { Slots } from '../src/http/slots';

const tick = () => new Promise((r) => setImmediate(r));

describe('running slots with a line', () => {
  it('gives `max` slots at once, lines up the next ones in order, refuses past the line, and passes each freed slot on', async () => {
    const slots = new Slots(2);
    const got: string[] = [];
    const take = (name: string) => slots.acquire('k', 2)?.then((release) => (got.push(name), release)) ?? null;
    const [a, b] = [take('a'), take('b')];
    const [c, d] = [take('c'), take('d')];
    expect(take('e')).toBeNull(); // 2 running, 2 waiting: the line is full
    await tick();
    expect(got).toEqual(['a', 'b']);
    expect(slots.usage('k')).toEqual({ active: 2, waiting: 2 });
    const releaseB = await b!;
    releaseB();
    releaseB(); // a second release gives nothing back
    await tick();
    expect(got).toEqual(['a', 'b', 'c']);
    expect(slots.usage('k')).toEqual({ active: 2, waiting: 1 });
    (await a!)();
    (await c!)();
    await tick();
    expect(got).toEqual(['a', 'b', 'c', 'd']);
    expect(slots.usage('k')).toEqual({ active: 1, waiting: 0 });
    (await d!)();
    expect(slots.usage('k')).toEqual({ active: 0, waiting: 0 });
  });

  it('counts every id on its own', async () => {
    const slots = new Slots(0);
    const one = await slots.acquire('one', 1)!;
    expect(slots.acquire('one', 1)).toBeNull();
    const two = await slots.acquire('two', 1)!;
    expect(slots.usage('one')).toEqual({ active: 1, waiting: 0 });
    one();
    expect(await slots.acquire('one', 1)).toEqual(expect.any(Function));
    two();
  });
});
