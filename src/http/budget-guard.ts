import type { IncomingMessage, ServerResponse } from 'node:http';
import { HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { stayInPlace } from '../core/running';
import type { BudgetDoor } from './budget-door';
import { type Budgets, OverBudget, type RunningSlot, type Spender } from './budgets';

/** RATE_LIMITED with `retryAfterMs`, answered over HTTP as 429 with `Retry-After` (whole seconds). */
function rateLimitedError(e: OverBudget): GraphQLError {
  const headers = new HeaderMap([['retry-after', String(Math.max(1, Math.ceil(e.retryAfterMs / 1000)))]]);
  return new GraphQLError(e.message, {
    extensions: { code: 'RATE_LIMITED', retryAfterMs: e.retryAfterMs, http: { status: 429, headers } },
  });
}

/** Runs `run`, turning a refusal into RATE_LIMITED after telling `refused` (the door, over HTTP). */
async function guarded<T>(run: () => Promise<T>, refused: (e: OverBudget) => void = () => {}): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof OverBudget)) throw e;
    refused(e);
    throw rateLimitedError(e);
  }
}

/**
 * Admits an HTTP request of an authenticated caller before its document is even parsed: one
 * request and its body's bytes against the rates, then a running slot, given back when the
 * response is done (resolves with it, for its `aside`). A refused token is kept out at the door
 * until its budget has room.
 */
export function admitHttpRequest(
  budgets: Budgets,
  door: BudgetDoor,
  spender: Spender,
  req: IncomingMessage,
  res: ServerResponse,
  bodyBytes: number,
): Promise<RunningSlot> {
  return guarded(
    async () => {
      if (!budgets.requestNow(spender, bodyBytes)) {
        await budgets.request(spender);
        await budgets.chargeBytes(spender, bodyBytes);
      }
      const release = await budgets.slot(spender);
      if (res.closed) release();
      else res.once('close', release);
      return release;
    },
    (e) => door.close(req.headers.authorization, e),
  );
}

/**
 * `admitHttpRequest` without a promise when the budgets are counted in memory and every slot is
 * free: the slot once admitted, else the promise of it (a slot to wait for, or everything when
 * the budgets are counted in Redis). Throws (or rejects with) RATE_LIMITED.
 */
export function admitHttpRequestNow(
  budgets: Budgets,
  door: BudgetDoor,
  spender: Spender,
  req: IncomingMessage,
  res: ServerResponse,
  bodyBytes: number,
): RunningSlot | Promise<RunningSlot> {
  const refused = (e: OverBudget) => door.close(req.headers.authorization, e);
  try {
    if (!budgets.requestNow(spender, bodyBytes)) return admitHttpRequest(budgets, door, spender, req, res, bodyBytes);
  } catch (e) {
    if (!(e instanceof OverBudget)) throw e;
    refused(e);
    throw rateLimitedError(e);
  }
  const hold = (slot: RunningSlot) => {
    if (res.closed) slot();
    else res.once('close', slot);
    return slot;
  };
  const slot = budgets.slotNow(spender);
  return slot ? hold(slot) : guarded(() => budgets.slot(spender).then(hold), refused);
}

/** `chargeHttpOperation` without a promise when the budgets are counted in memory: true once charged; throws RATE_LIMITED. */
export function chargeHttpOperationNow(
  budgets: Budgets,
  door: BudgetDoor,
  spender: Spender,
  cost: number,
  authorization: string | undefined,
): boolean {
  try {
    return budgets.chargeNow(spender, cost);
  } catch (e) {
    if (!(e instanceof OverBudget)) throw e;
    door.close(authorization, e);
    throw rateLimitedError(e);
  }
}

/** Charges an HTTP operation's cost (known once it passed the limits) to the caller's budgets; throws RATE_LIMITED. */
export function chargeHttpOperation(
  budgets: Budgets,
  door: BudgetDoor,
  spender: Spender,
  cost: number,
  authorization: string | undefined,
): Promise<void> {
  return guarded(
    // counted in memory, a cost within the budgets needs no promise of its own
    () => (budgets.chargeNow(spender, cost) ? Promise.resolve() : budgets.charge(spender, cost)),
    (e) => door.close(authorization, e),
  );
}

/** Counts one WebSocket operation and the bytes of its message against the rates, before its document is parsed; throws RATE_LIMITED. */
export function countWsOperation(budgets: Budgets, spender: Spender, messageBytes: number): Promise<void> {
  return guarded(async () => {
    await budgets.request(spender);
    await budgets.chargeBytes(spender, messageBytes);
  });
}

/**
 * Charges a validated WebSocket operation its cost and, for queries and mutations, waits for a
 * running slot (subscriptions are capped by count instead). Resolves with the function that frees
 * the slot; throws RATE_LIMITED.
 */
export function admitWsOperation(budgets: Budgets, spender: Spender, op: { cost: number; subscription: boolean }): Promise<RunningSlot> {
  return guarded(async () => {
    await budgets.charge(spender, op.cost);
    return op.subscription ? Object.assign(() => {}, { aside: stayInPlace }) : budgets.slot(spender);
  });
}
