import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ApolloServerPlugin, HeaderMap } from '@apollo/server';
import { type DocumentNode, GraphQLError, type GraphQLSchema } from 'graphql';
import type { Context } from '../graphql/context.type';
import { checkOperation } from '../graphql/limits';
import type { BudgetDoor } from './budget-door';
import { type Budgets, OverBudget, type Spender } from './budgets';

/** RATE_LIMITED with `retryAfterMs`, answered over HTTP as 429 with `Retry-After` (whole seconds). */
export function rateLimitedError(e: OverBudget): GraphQLError {
  const headers = new HeaderMap([['retry-after', String(Math.max(1, Math.ceil(e.retryAfterMs / 1000)))]]);
  return new GraphQLError(e.message, { extensions: { code: 'RATE_LIMITED', retryAfterMs: e.retryAfterMs, http: { status: 429, headers } } });
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

/** The cost of an operation, or null when the complexity limit refuses it (that refusal is reported elsewhere). */
function costOf(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | undefined, operationName?: string | null): number | null {
  try {
    return checkOperation(schema, document, variables, operationName);
  } catch {
    return null;
  }
}

/**
 * Admits an HTTP request of an authenticated caller before its document is even parsed: one
 * request against the rates, then a running slot, given back when the response is done. A
 * refused token is kept out at the door until its budget has room.
 */
export function admitHttpRequest(budgets: Budgets, door: BudgetDoor, spender: Spender, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return guarded(
    async () => {
      await budgets.request(spender);
      const release = await budgets.slot(spender);
      if (res.closed) release();
      else res.once('close', release);
    },
    (e) => door.close(req.headers.authorization, e),
  );
}

/** Apollo plugin: charges each operation's cost, once it is known, to the caller's budgets. */
export function budgetPlugin(budgets: Budgets, door: BudgetDoor): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, schema, operationName, contextValue }) {
          const cost = costOf(schema, document, request.variables, operationName);
          if (cost !== null) await guarded(() => budgets.charge(contextValue.viewer, cost), (e) => door.close(request.http?.headers.get('authorization'), e));
        },
      };
    },
  };
}

/** Counts one WebSocket operation against the request rates, before its document is parsed; throws RATE_LIMITED. */
export function countWsOperation(budgets: Budgets, spender: Spender): Promise<void> {
  return guarded(() => budgets.request(spender));
}

/**
 * Charges a validated WebSocket operation its cost and, for queries and mutations, waits for a
 * running slot (subscriptions are capped by count instead). Resolves with the function that frees
 * the slot; throws RATE_LIMITED.
 */
export function admitWsOperation(
  budgets: Budgets,
  spender: Spender,
  op: { schema: GraphQLSchema; document: DocumentNode; variables?: Record<string, unknown> | null; operationName?: string | null; subscription: boolean },
): Promise<() => void> {
  return guarded(async () => {
    const cost = costOf(op.schema, op.document, op.variables ?? undefined, op.operationName);
    if (cost !== null) await budgets.charge(spender, cost);
    return op.subscription ? () => {} : budgets.slot(spender);
  });
}
