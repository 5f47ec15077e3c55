import Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Budget, BudgetSettings } from '../config';
import type { Logger } from '../core/logger';
import { type StepAside, stayInPlace } from '../core/running';
import type { Role } from '../modules/orgs';
import { FairSlots } from './fair-slots';
import { Slots } from './slots';

export type BudgetScope = 'key' | 'org';
export type BudgetKind = 'requests' | 'points' | 'bytes' | 'concurrency';

/** Who spends: an API key of an organization. */
export interface Spender {
  apiKeyId: string;
  orgId: string;
  role: Role;
}

/** A spender over one of its budgets; `retryAfterMs` is when the budget has room again. */
export class OverBudget extends Error {
  constructor(
    readonly scope: BudgetScope,
    readonly kind: BudgetKind,
    readonly retryAfterMs: number,
  ) {
    const whose = scope === 'key' ? "this API key's" : "this organization's";
    super(
      kind === 'concurrency'
        ? `too many requests of ${whose} are running or waiting; retry in ${retryAfterMs} ms`
        : `over ${whose} budget of ${kind} per second; retry in ${retryAfterMs} ms`,
    );
    this.name = 'OverBudget';
  }
}

/** The slots a request holds: called, it frees them all; `aside` gives up the instance's slot alone during a wait. */
export type RunningSlot = (() => void) & { aside: StepAside };

/** How long a caller refused for a full line should wait: lines move in milliseconds. */
const LINE_RETRY_MS = 1000;

/**
 * Fixed windows of `points` per `durationMs` per key, counted in this process: the rule of
 * rate-limiter-flexible's in-memory limiter (a window opens at a key's first spend; what is spent
 * over the budget is counted too), answered at once, without a promise, a result object and a
 * timer per window. Windows that have ended are dropped once a window's time.
 */
class MemoryWindows {
  private readonly open = new Map<string, { used: number; endsAt: number }>();
  private sweptAt = Date.now();

  constructor(
    private readonly points: number,
    private readonly durationMs: number,
  ) {}

  /** Spends `n` of the key's window: 0 when it is within the budget, else the ms until the window ends. */
  spend(key: string, n: number): number {
    const now = Date.now();
    let w = this.open.get(key);
    if (w === undefined || w.endsAt <= now) {
      if (now - this.sweptAt >= this.durationMs) this.sweep(now);
      w = { used: 0, endsAt: now + this.durationMs };
      this.open.set(key, w);
    }
    w.used += n;
    return w.used > this.points ? w.endsAt - now : 0;
  }

  private sweep(now: number): void {
    this.sweptAt = now;
    for (const [key, w] of this.open) if (w.endsAt <= now) this.open.delete(key);
  }
}

interface Rates {
  requests: RateLimiterAbstract | MemoryWindows;
  points: RateLimiterAbstract | MemoryWindows;
  bytes: RateLimiterAbstract | MemoryWindows;
  budget: Budget;
}

/**
 * Budgets over time, per API key (by its role) and per organization (all its keys together):
 * requests, cost points and request bytes per window, counted in Redis when a client is given so
 * that every instance shares them (in memory otherwise, and as the fallback while Redis cannot
 * answer), and
 * requests running at once, counted per instance (it guards this instance's database pool and
 * event loop) with a bounded line of waiting requests.
 * A key is charged first and its organization only when the key is within its own budget, so a
 * key that floods does not use up what its organization's other keys have.
 */
export class Budgets {
  private readonly keys: Record<Role, Rates>;
  private readonly org: Rates;
  private readonly slots: Record<BudgetScope, Slots>;
  /** the instance's running slots, shared fairly by organizations (none when `running` is 0) */
  private readonly fair: FairSlots | null;

  constructor(
    private readonly settings: BudgetSettings,
    private readonly redis: Redis | null,
    private readonly onRefused: (e: OverBudget) => void = () => {},
    running = 0,
  ) {
    this.fair = running > 0 ? new FairSlots(running) : null;
    const rates = (name: string, budget: Budget): Rates => ({
      requests: this.limiter(`${name}:req`, budget.requestsPerSecond),
      points: this.limiter(`${name}:pts`, budget.pointsPerSecond),
      bytes: this.limiter(`${name}:bytes`, budget.bytesPerSecond),
      budget,
    });
    this.keys = Object.fromEntries(Object.entries(settings.roles).map(([role, b]) => [role, rates(`key:${role}`, b)])) as Record<
      Role,
      Rates
    >;
    this.org = rates('org', settings.org);
    this.slots = { key: new Slots(settings.queue), org: new Slots(settings.queue) };
  }

  /**
   * `request` and then `chargeBytes`, counted at once when the budgets are counted in memory: true
   * once counted (throws OverBudget as they reject), false when they are counted in Redis and the
   * caller awaits `request` and `chargeBytes` instead.
   */
  requestNow(s: Spender, bytes: number): boolean {
    if (this.redis) return false;
    this.spendInMemory(s, 'requests', () => 1);
    if (bytes > 0) this.spendInMemory(s, 'bytes', (r) => Math.min(Math.ceil(bytes), r.budget.bytesPerSecond * this.settings.windowSeconds));
    return true;
  }

  /** `charge` counted at once in memory: true once counted (throws OverBudget as it rejects), false when counted in Redis. */
  chargeNow(s: Spender, cost: number): boolean {
    if (this.redis) return false;
    if (cost > 0) this.spendInMemory(s, 'points', (r) => Math.min(Math.ceil(cost), r.budget.pointsPerSecond * this.settings.windowSeconds));
    return true;
  }

  /** Counts one request (an HTTP request or a WebSocket operation). */
  async request(s: Spender): Promise<void> {
    await this.spend(s, 'requests', () => 1);
  }

  /** Charges an operation's cost; one costing more than a whole window's budget is charged that budget. */
  async charge(s: Spender, cost: number): Promise<void> {
    if (cost <= 0) return;
    await this.spend(s, 'points', (r) => Math.min(Math.ceil(cost), r.budget.pointsPerSecond * this.settings.windowSeconds));
  }

  /**
   * Charges the bytes a request sent (an HTTP body, a WebSocket operation message): what a key
   * may write grows with them, not with its request count. A request larger than a whole
   * window's budget is charged that budget.
   */
  async chargeBytes(s: Spender, bytes: number): Promise<void> {
    if (bytes <= 0) return;
    await this.spend(s, 'bytes', (r) => Math.min(Math.ceil(bytes), r.budget.bytesPerSecond * this.settings.windowSeconds));
  }

  /**
   * Waits for a running slot of the key and of its organization, then for one of the instance's
   * (given fairly across organizations); resolves with the function that frees them all, whose
   * `aside` gives up the instance's slot alone during a wait (see StepAside).
   */
  async slot(s: Spender): Promise<RunningSlot> {
    const releaseKey = await this.take('key', s.apiKeyId, this.keys[s.role].budget.concurrent);
    let releaseOrg: () => void;
    try {
      releaseOrg = await this.take('org', s.orgId, this.org.budget.concurrent);
    } catch (e) {
      releaseKey();
      throw e;
    }
    const run = this.fair ? await this.fair.hold(s.orgId) : null;
    const release = () => {
      run?.release();
      releaseOrg();
      releaseKey();
    };
    return Object.assign(release, { aside: run?.aside ?? stayInPlace });
  }

  /** `slot` when every slot it needs is free now: what frees them, else null (nothing taken). */
  slotNow(s: Spender): RunningSlot | null {
    const releaseKey = this.slots.key.tryAcquire(s.apiKeyId, this.keys[s.role].budget.concurrent);
    if (!releaseKey) return null;
    const releaseOrg = this.slots.org.tryAcquire(s.orgId, this.org.budget.concurrent);
    const run = releaseOrg && this.fair ? this.fair.holdNow(s.orgId) : null;
    if (!releaseOrg || (this.fair && !run)) {
      releaseOrg?.();
      releaseKey();
      return null;
    }
    const release = () => {
      run?.release();
      releaseOrg();
      releaseKey();
    };
    return Object.assign(release, { aside: run?.aside ?? stayInPlace });
  }

  /** requests running and waiting for the instance's fair slots, over every organization */
  running(): { active: number; waiting: number } {
    return this.fair?.usage() ?? { active: 0, waiting: 0 };
  }

  /** running and waiting requests of a key or organization on this instance */
  usage(scope: BudgetScope, id: string): { active: number; waiting: number } {
    return this.slots[scope].usage(id);
  }

  async close(): Promise<void> {
    await this.redis?.quit().catch(() => {});
  }

  private async take(scope: BudgetScope, id: string, max: number): Promise<() => void> {
    const pending = this.slots[scope].acquire(id, max);
    if (!pending) throw this.refused(new OverBudget(scope, 'concurrency', LINE_RETRY_MS));
    return pending;
  }

  /** `spend` on the in-memory windows (no Redis client): the key's, then its organization's. */
  private spendInMemory(s: Spender, kind: 'requests' | 'points' | 'bytes', points: (r: Rates) => number): void {
    this.spendWindow('key', this.keys[s.role], s.apiKeyId, kind, points);
    this.spendWindow('org', this.org, s.orgId, kind, points);
  }

  private spendWindow(scope: BudgetScope, rates: Rates, id: string, kind: 'requests' | 'points' | 'bytes', points: (r: Rates) => number) {
    const wait = (rates[kind] as MemoryWindows).spend(id, points(rates));
    if (wait > 0) throw this.refused(new OverBudget(scope, kind, Math.max(1, Math.ceil(wait))));
  }

  private async spend(s: Spender, kind: 'requests' | 'points' | 'bytes', points: (r: Rates) => number): Promise<void> {
    for (const [scope, rates, id] of [
      ['key', this.keys[s.role], s.apiKeyId],
      ['org', this.org, s.orgId],
    ] as const) {
      const limiter = rates[kind];
      if (limiter instanceof MemoryWindows) {
        const wait = limiter.spend(id, points(rates));
        if (wait > 0) throw this.refused(new OverBudget(scope, kind, Math.max(1, Math.ceil(wait))));
        continue;
      }
      try {
        await limiter.consume(id, points(rates));
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) throw e;
        throw this.refused(new OverBudget(scope, kind, Math.max(1, Math.ceil(e.msBeforeNext))));
      }
    }
  }

  private refused(e: OverBudget): OverBudget {
    this.onRefused(e);
    return e;
  }

  private limiter(prefix: string, perSecond: number): RateLimiterAbstract | MemoryWindows {
    const duration = this.settings.windowSeconds;
    const opts = { keyPrefix: `memory-loop:budget:${prefix}`, points: perSecond * duration, duration };
    if (!this.redis) return new MemoryWindows(opts.points, duration * 1000);
    return new RateLimiterRedis({
      ...opts,
      storeClient: this.redis,
      rejectIfRedisNotReady: true,
      // once over, the rest of the window is refused from memory: a flood costs Redis nothing
      inMemoryBlockOnConsumed: opts.points + 1,
      // Redis unreachable or slow: each instance counts on its own until it answers again
      insuranceLimiter: new RateLimiterMemory(opts),
    });
  }
}

/** The Redis connection budgets are counted on (none without a URL). */
export function budgetStore(redisUrl: string | null, log: Logger): Redis | null {
  if (!redisUrl) return null;
  // a command that cannot be sent or answered at once fails over to the in-memory count
  const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 250 });
  let down = false;
  redis.on('error', (err) => {
    if (!down) log.warn({ err }, 'budget store unreachable: counting budgets per instance until it answers');
    down = true;
  });
  redis.on('ready', () => (down = false));
  return redis;
}
