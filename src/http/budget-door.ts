import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { currentRequestScope } from '../core/request-scope';
import { bearerToken } from '../graphql/context';
import { type BudgetKind, type BudgetScope, OverBudget } from './budgets';

/** Past this many closed tokens, the ones whose window has ended are swept out. */
const SWEEP_AT = 10_000;
/** The longest a request is held at the door before it is answered. */
const DOOR_HOLD_MS = 1000;

const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest('base64');

/**
 * The door of `/graphql`: a token refused for a request or points budget is refused here again
 * until that budget has room, before its body is read or its key looked up in the database. Such
 * a request, sent against the Retry-After it was given, is held until the budget has room (at most
 * DOOR_HOLD_MS) before it is answered: a client that ignores Retry-After gets one answer per
 * connection and window instead of thousands, and a flood costs the instance next to nothing.
 * Per instance; the budgets it remembers are counted on every instance.
 */
export class BudgetDoor {
  private readonly closed = new Map<string, { until: number; scope: BudgetScope; kind: BudgetKind }>();

  constructor(private readonly onRefused: (e: OverBudget) => void = () => {}) {}

  /** Keeps the bearer of `authorization` out until `e` has room again (not for a full line: lines move at once). */
  close(authorization: unknown, e: OverBudget): void {
    const token = bearerToken(authorization);
    if (token === null || e.kind === 'concurrency') return;
    if (this.closed.size >= SWEEP_AT) {
      const now = Date.now();
      for (const [k, v] of this.closed) if (v.until <= now) this.closed.delete(k);
    }
    this.closed.set(digest(token), { until: Date.now() + e.retryAfterMs, scope: e.scope, kind: e.kind });
  }

  /** Whether the bearer of `authorization` may pass: no refusal of theirs is still running here. */
  admits(authorization: unknown): boolean {
    if (this.closed.size === 0) return true;
    const token = bearerToken(authorization);
    const entry = token === null ? undefined : this.closed.get(digest(token));
    return !entry || entry.until <= Date.now();
  }

  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    if (this.closed.size === 0) return next();
    const token = bearerToken(req.headers.authorization);
    const key = token === null ? null : digest(token);
    const entry = key === null ? undefined : this.closed.get(key);
    const ms = entry ? entry.until - Date.now() : 0;
    if (!entry || ms <= 0) {
      if (entry) this.closed.delete(key!);
      return next();
    }
    const hold = Math.min(ms, DOOR_HOLD_MS);
    const e = new OverBudget(entry.scope, entry.kind, Math.max(1, Math.ceil(ms - hold)));
    this.onRefused(e);
    const requestId = currentRequestScope()?.requestId;
    setTimeout(() => {
      res.status(429).set('retry-after', String(Math.ceil(e.retryAfterMs / 1000)));
      res.json({ errors: [{ message: e.message, extensions: { code: 'RATE_LIMITED', retryAfterMs: e.retryAfterMs, requestId } }] });
    }, hold);
  };
}
