import { type DocumentNode, getOperationAST, GraphQLError, OperationTypeNode } from 'graphql';
import { WebSocket } from 'ws';
import { admitWsOperation, countWsOperation } from './budget-guard';
import type { Budgets, RunningSlot, Spender } from './budgets';

/**
 * Close code of a socket refused because its API key already has as many sockets open as it may
 * (1013 Try Again Later: clients that retry back off, and a slot frees when one of them closes).
 */
const CLOSE_TOO_MANY_SOCKETS = 1013;

const bump = (counts: Map<string, number>, key: string, by: number) => {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
};

/** Per API key counts of open sockets and open operations (over all its sockets) on this instance. */
export class KeyCaps {
  private readonly sockets = new Map<string, number>();
  private readonly operations = new Map<string, number>();

  constructor(private readonly limits: { socketsPerKey: number; operationsPerKey: number }) {}

  /**
   * Counts an authenticated socket of the key. False, counting nothing, when it closed meanwhile,
   * or when the key has as many open as it may: that socket is closed with CLOSE_TOO_MANY_SOCKETS.
   */
  admitSocket(socket: WebSocket, key: string): boolean {
    if (socket.readyState !== WebSocket.OPEN) return false;
    if ((this.sockets.get(key) ?? 0) >= this.limits.socketsPerKey) {
      socket.close(CLOSE_TOO_MANY_SOCKETS, 'too many sockets are open for this API key');
      return false;
    }
    bump(this.sockets, key, 1);
    return true;
  }

  /** A counted socket closed with `openOperations` of its operations still open. */
  closeSocket(key: string, openOperations: number): void {
    bump(this.sockets, key, -1);
    bump(this.operations, key, -openOperations);
  }

  /** The error refusing one more operation of the key, or null when it may open one. */
  refuseOperation(key: string): GraphQLError | null {
    if ((this.operations.get(key) ?? 0) < this.limits.operationsPerKey) return null;
    // no retryAfterMs: waiting does not help, closing one of the key's subscriptions does
    return new GraphQLError(`at most ${this.limits.operationsPerKey} subscriptions may be open at once for one API key`, {
      extensions: { code: 'RATE_LIMITED' },
    });
  }

  openOperation(key: string): void {
    bump(this.operations, key, 1);
  }

  closeOperation(key: string): void {
    bump(this.operations, key, -1);
  }
}

/** A validated operation and its cost (from the limits check). */
type Op = { document: DocumentNode; operationName?: string | null; cost: number };

/** `run`'s result, or the RATE_LIMITED error it threw as the errors to answer the operation with. */
async function asErrors<T>(run: () => Promise<T>): Promise<T | GraphQLError[]> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof GraphQLError) return [e];
    throw e;
  }
}

/** The errors refusing a new operation of the key before its document is parsed (its cap, then its request rates), or null. */
export async function refuseOperation(
  caps: KeyCaps,
  budgets: Budgets,
  spender: Spender,
  messageBytes: number,
): Promise<GraphQLError[] | null> {
  const overCap = caps.refuseOperation(spender.apiKeyId);
  if (overCap) return [overCap];
  return (await asErrors(() => countWsOperation(budgets, spender, messageBytes))) ?? null;
}

/**
 * Admits a validated WebSocket operation of a socket's key: its cost and running slot, then the
 * key's cap and the socket's room (`noRoom`) again, as other operations may have opened during the
 * wait. Resolves with the errors to answer it with, or with the function that frees its running
 * slot once it has ended; an admitted operation is counted as open until `closeOperation`.
 */
export async function admitOperation(
  caps: KeyCaps,
  budgets: Budgets,
  spender: Spender,
  op: Op,
  noRoom: () => GraphQLError[] | null,
): Promise<GraphQLError[] | RunningSlot> {
  const subscription = getOperationAST(op.document, op.operationName)?.operation === OperationTypeNode.SUBSCRIPTION;
  const release = await asErrors(() => admitWsOperation(budgets, spender, { cost: op.cost, subscription }));
  if (Array.isArray(release)) return release;
  const overCap = caps.refuseOperation(spender.apiKeyId);
  const refusal = noRoom() ?? (overCap ? [overCap] : null);
  if (refusal) {
    release();
    return refusal;
  }
  caps.openOperation(spender.apiKeyId);
  return release;
}
