interface Line {
  active: number;
  waiting: (() => void)[];
}

/**
 * Counting semaphores by id (an API key, an organization), each with a bounded first-in first-out
 * line: a caller past its cap waits its turn instead of failing, and only a full line refuses.
 */
export class Slots {
  private readonly lines = new Map<string, Line>();

  constructor(private readonly queueMax: number) {}

  /**
   * A slot of `id` when fewer than `max` are taken, else a place in its line; resolves with the
   * function that gives the slot back (to the next in line). Null when the line is full.
   */
  acquire(id: string, max: number): Promise<() => void> | null {
    let line = this.lines.get(id);
    if (!line) this.lines.set(id, (line = { active: 0, waiting: [] }));
    const l = line;
    if (l.active < max) {
      l.active += 1;
      return Promise.resolve(this.release(id, l));
    }
    if (l.waiting.length >= this.queueMax) return null;
    return new Promise((resolve) => l.waiting.push(() => resolve(this.release(id, l))));
  }

  /** A slot of `id` taken at once when fewer than `max` are taken (nobody waits then): its release, else null. */
  tryAcquire(id: string, max: number): (() => void) | null {
    let line = this.lines.get(id);
    if (!line) this.lines.set(id, (line = { active: 0, waiting: [] }));
    if (line.active >= max) return null;
    line.active += 1;
    return this.release(id, line);
  }

  /** slots taken and callers waiting for `id` */
  usage(id: string): { active: number; waiting: number } {
    const l = this.lines.get(id);
    return { active: l?.active ?? 0, waiting: l?.waiting.length ?? 0 };
  }

  private release(id: string, line: Line): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = line.waiting.shift();
      if (next)
        next(); // the slot passes on: `active` stays
      else if (--line.active === 0) this.lines.delete(id);
    };
  }
}
