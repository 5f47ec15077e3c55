import { type GraphQLFieldResolver, type GraphQLResolveInfo, OperationTypeNode } from 'graphql';
import { turns } from '../core/turns';
import type { Config } from '../config';
import type { Context } from './context.type';

/** Where one execution stands: the objects its current slice completed, and the turn the next slice waits for. */
interface Meter {
  /** the root value of the execution the count belongs to */
  root: unknown;
  orgId: string;
  /** objects per slice (SLICE_OBJECTS) */
  per: number;
  objects: number;
  /** resolves when the latest slice may run (null: the first slice, running now) */
  gate: Promise<void> | null;
}
const meters = new WeakMap<object, Meter>();

const isPromise = (v: unknown): v is Promise<unknown> => typeof (v as Promise<unknown> | null)?.then === 'function';

function meterOf(context: unknown, info: GraphQLResolveInfo): Meter | null {
  // a query reads only: the order its values complete in changes nothing but when they do
  if (info.operation.operation !== OperationTypeNode.QUERY) return null;
  const { orgId, services } = (context ?? {}) as Partial<Context>;
  // a context made without the settings (a test's own schema) is not paced
  const per = (services?.config as Partial<Config> | undefined)?.slices?.objects;
  if (typeof orgId !== 'string' || !per || typeof context !== 'object' || context === null) return null;
  let m = meters.get(context);
  if (!m || m.root !== info.rootValue) meters.set(context, (m = { root: info.rootValue, orgId, per, objects: 0, gate: null }));
  return m;
}

/** The value now, or once its slice's turn has come when the current slice is full. */
function inTurn<T>(m: Meter, value: T): T | Promise<T> {
  const n = Array.isArray(value) ? value.length : 1;
  m.objects += n;
  if (m.objects > m.per) {
    // this value starts the next slice
    m.objects = n;
    const after = m.gate;
    m.gate = after ? after.then(() => turns.next(m.orgId)) : turns.next(m.orgId);
  }
  return m.gate ? m.gate.then(() => value) : value;
}

/**
 * A resolver of an object-typed field of a query whose value completes in the execution's current
 * slice while it has room, else at the execution's next turn (`../core/turns.ts`): a query that
 * completes thousands of objects (a page of 100 episodes with their lists, 12,000 objects) lets the
 * event loop serve other requests every SLICE_OBJECTS objects, and its answer is the same.
 * Completing an object costs a microsecond or two of one core, so the default slice of 1,000 is a
 * millisecond or two.
 */
export function paced(resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => {
    const value = resolve(source, args, context, info);
    const m = meterOf(context, info);
    if (!m || value === null || value === undefined) return value;
    return isPromise(value) ? value.then((v) => (v === null || v === undefined ? v : inTurn(m, v))) : inTurn(m, value);
  };
}
