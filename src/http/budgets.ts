import Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Budget, BudgetSettings } from '../config';
import type { Logger } from '../core/logger';
import type { Role } from '../modules/orgs';
import { Slots } from './slots';

export type BudgetScope = 'key' | 'org';
export type BudgetKind = 'requests' | 'points' | 'concurrency';

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

/** How long a caller refused for a full line should wait: lines move in milliseconds. */
const LINE_RETRY_MS = 1000;

interface Rates {
  requests: RateLimiterAbstract;
  points: RateLimiterAbstract;
  budget: Budget;
}

/**
 * Budgets over time, per API key (by its role) and per organization (all its keys together):
 * requests and cost points per window, counted in Redis when a client is given so that every
 * instance shares them (in memory otherwise, and as the fallback while Redis cannot answer), and
 * requests running at once, counted per instance (it guards this instance's database pool and
 * event loop) with a bounded line of waiting requests.
 * A key is charged first and its organization only when the key is within its own budget, so a
 * key that floods does not use up what its organization's other keys have.
 */
export class Budgets {
  private readonly keys: Record<Role, Rates>;
  private readonly org: Rates;
  private readonly slots: Record<BudgetScope, Slots>;

  constructor(
    private readonly settings: BudgetSettings,
    private readonly redis: Redis | null,
    private readonly onRefused: (e: OverBudget) => void = () => {},
  ) {
    const rates = (name: string, budget: Budget): Rates => ({
      requests: this.limiter(`${name}:req`, budget.requestsPerSecond),
      points: this.limiter(`${name}:pts`, budget.pointsPerSecond),
      budget,
    });
    this.keys = Object.fromEntries(Object.entries(settings.roles).map(([role, b]) => [role, rates(`key:${role}`, b)])) as Record<
      Role,
      Rates
    >;
    this.org = rates('org', settings.org);
    this.slots = { key: new Slots(settings.queue), org: new Slots(settings.queue) };
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

  /** Waits for a running slot of the key and of its organization; resolves with the function that frees both. */
  async slot(s: Spender): Promise<() => void> {
    const releaseKey = await this.take('key', s.apiKeyId, this.keys[s.role].budget.concurrent);
    try {
      const releaseOrg = await this.take('org', s.orgId, this.org.budget.concurrent);
      return () => {
        releaseOrg();
        releaseKey();
      };
    } catch (e) {
      releaseKey();
      throw e;
    }
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

  private async spend(s: Spender, kind: 'requests' | 'points', points: (r: Rates) => number): Promise<void> {
    for (const [scope, rates, id] of [
      ['key', this.keys[s.role], s.apiKeyId],
      ['org', this.org, s.orgId],
    ] as const) {
      try {
        await rates[kind].consume(id, points(rates));
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

  private limiter(prefix: string, perSecond: number): RateLimiterAbstract {
    const duration = this.settings.windowSeconds;
    const opts = { keyPrefix: `memory-loop:budget:${prefix}`, points: perSecond * duration, duration };
    if (!this.redis) return new RateLimiterMemory(opts);
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
