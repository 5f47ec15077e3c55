import type { StepAside } from '../core/running';

/** An instance slot held by one request (`FairSlots.hold`). */
export interface SlotHold {
  release(): void;
  aside: StepAside;
}

interface Tenant {
  running: number;
  waiting: (() => void)[];
}

/**
 * Running slots of one instance shared fairly by organizations: at most `capacity` requests
 * execute at once, and no organization holds the last of them while another could use it. A
 * request over the cap waits in its organization's line; a freed slot goes to the waiting
 * organization with the fewest requests running (the longest waiting on a tie), so a quiet
 * organization's request runs next instead of behind a busy one's line. Waiting is bounded by the
 * per-key and per-organization slots taken before (./slots.ts); nothing is refused here.
 */
export class FairSlots {
  private readonly tenants = new Map<string, Tenant>();
  /** organizations with a request waiting, in the order their oldest waiter arrived */
  private readonly lines: string[] = [];
  private running = 0;

  constructor(private readonly capacity: number) {}

  /** Resolves with the function that gives the slot back, once `orgId` may run one more request. */
  acquire(orgId: string): Promise<() => void> {
    let t = this.tenants.get(orgId);
    if (!t) this.tenants.set(orgId, (t = { running: 0, waiting: [] }));
    const tenant = t;
    if (tenant.waiting.length === 0 && this.admits(tenant)) {
      this.start(tenant);
      return Promise.resolve(this.release(orgId, tenant));
    }
    return new Promise((resolve) => {
      if (tenant.waiting.length === 0) this.lines.push(orgId);
      tenant.waiting.push(() => resolve(this.release(orgId, tenant)));
    });
  }

  /** `acquire` when it would resolve at once: the slot's release, else null (nothing taken). */
  tryAcquire(orgId: string): (() => void) | null {
    const t = this.tenants.get(orgId) ?? { running: 0, waiting: [] };
    if (t.waiting.length > 0 || !this.admits(t)) return null;
    this.tenants.set(orgId, t);
    this.start(t);
    return this.release(orgId, t);
  }

  /** `acquire`, resolving with the slot as a hold (see `asHold`). */
  async hold(orgId: string): Promise<SlotHold> {
    return this.asHold(orgId, await this.acquire(orgId));
  }

  /** `hold` when it would resolve at once, else null (nothing taken). */
  holdNow(orgId: string): SlotHold | null {
    const release = this.tryAcquire(orgId);
    return release && this.asHold(orgId, release);
  }

  /**
   * A slot taken as a hold: `release` gives it back (once), `aside` gives it up while a wait is
   * pending and takes it back after (see StepAside). Waits of one request that overlap give it up
   * once; it is taken back when the first of them ends, and a hold released meanwhile gives back
   * what it takes.
   */
  private asHold(orgId: string, taken: () => void): SlotHold {
    let held: (() => void) | null = taken;
    let released = false;
    let back: Promise<void> | null = null;
    return {
      release: () => {
        released = true;
        held?.();
        held = null;
      },
      aside: async <T>(wait: Promise<T>): Promise<T> => {
        if (released) return wait;
        held?.();
        held = null;
        try {
          return await wait;
        } finally {
          if (held === null && !released)
            back ??= this.acquire(orgId).then((r) => {
              back = null;
              if (released) r();
              else held = r;
            });
          if (back) await back;
        }
      },
    };
  }

  /** requests running and waiting on this instance, over every organization */
  usage(): { active: number; waiting: number } {
    let waiting = 0;
    for (const id of this.lines) waiting += this.tenants.get(id)?.waiting.length ?? 0;
    return { active: this.running, waiting };
  }

  /** A slot is free, and `t` would not take the last one while it already runs something. */
  private admits(t: Tenant): boolean {
    if (this.running >= this.capacity) return false;
    return this.capacity === 1 || t.running < this.capacity - 1 || this.running === 0;
  }

  private start(t: Tenant): void {
    t.running += 1;
    this.running += 1;
  }

  private release(orgId: string, tenant: Tenant): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      tenant.running -= 1;
      this.running -= 1;
      if (tenant.running === 0 && tenant.waiting.length === 0) this.tenants.delete(orgId);
      this.next();
    };
  }

  /** Starts waiting requests while slots are free: the organization running the fewest first. */
  private next(): void {
    for (;;) {
      let best = -1;
      for (let i = 0; i < this.lines.length; i++) {
        const t = this.tenants.get(this.lines[i])!;
        if (!this.admits(t)) continue;
        if (best < 0 || t.running < this.tenants.get(this.lines[best])!.running) best = i;
      }
      if (best < 0) return;
      const id = this.lines[best];
      const t = this.tenants.get(id)!;
      const wake = t.waiting.shift()!;
      this.lines.splice(best, 1);
      // an organization with more waiting goes to the back of the lines: round robin among equals
      if (t.waiting.length > 0) this.lines.push(id);
      this.start(t);
      wake();
    }
  }
}
