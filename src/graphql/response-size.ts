import {
  defaultFieldResolver,
  type ExecutionResult,
  type GraphQLFieldResolver,
  type GraphQLFormattedError,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  isUnionType,
} from 'graphql';
import { AppError } from '../core/errors';
import type { Context } from './context.type';
import { paced } from './paced';

/** Scalars whose values can be large: their bytes are counted as they resolve. */
export const COUNTED = new Set(['String', 'ID', 'JSON', 'JSONObject']);

/** Bytes of a value written as JSON, near enough: strings by their UTF-8 length, 8 for a number. */
export function jsonSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8') + 2;
  if (value === null || value === undefined || typeof value !== 'object') return 8;
  let n = 2;
  if (Array.isArray(value)) for (const v of value) n += jsonSize(v) + 1;
  else for (const [k, v] of Object.entries(value)) n += Buffer.byteLength(k, 'utf8') + 4 + jsonSize(v);
  return n;
}

/**
 * One budget per execution: per context object and root value. Every transport makes a context per
 * operation, and a subscription event executes with the event as its root value (and, when its
 * stream is shared, on a copy of the context), so each response starts from zero.
 */
export interface Budget {
  /** the root value of the execution the count belongs to (each subscription event is one) */
  root: unknown;
  used: number;
  over: boolean;
}
const budgets = new WeakMap<object, Budget>();

export const tooLarge = (max: number) =>
  new AppError(
    'RESPONSE_TOO_LARGE',
    `the response would carry more than ${max} bytes of values; select fewer or smaller fields, or lower list limits`,
  );

/** The budget of the execution `info` belongs to, or null when the context sets no limit. */
export function budgetOf(context: unknown, info: GraphQLResolveInfo): { budget: Budget; max: number } | null {
  const max = (context as Partial<Context> | undefined)?.services?.config.maxResponseBytes;
  if (!max || typeof context !== 'object' || context === null) return null;
  let budget = budgets.get(context);
  if (!budget || budget.root !== info.rootValue) {
    budget = { root: info.rootValue, used: 0, over: false };
    budgets.set(context, budget);
  }
  return { budget, max };
}

/** Starts the response budget of a context's next execution from zero (an execution run again from the start). */
export function forgetResponseBudget(context: unknown): void {
  if (typeof context === 'object' && context !== null) budgets.delete(context);
}

export const isPromise = (v: unknown): v is Promise<unknown> => typeof (v as Promise<unknown> | null)?.then === 'function';

/** Adds `bytes` to the budget; past its maximum, the budget is over and `RESPONSE_TOO_LARGE` is thrown. */
export function spend(b: { budget: Budget; max: number }, bytes: number): void {
  b.budget.used += bytes;
  if (b.budget.used > b.max) {
    b.budget.over = true;
    throw tooLarge(b.max);
  }
}

/** The resolver a guarded field had before it was guarded (undefined: the default resolver). */
const unguarded = new WeakMap<GraphQLFieldResolver<unknown, unknown>, GraphQLFieldResolver<unknown, unknown> | undefined>();
export const resolverBeforeGuard = (resolve: GraphQLFieldResolver<unknown, unknown> | undefined) =>
  resolve && unguarded.has(resolve) ? unguarded.get(resolve) : resolve;

export function counted(resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => {
    const b = budgetOf(context, info);
    if (!b) return resolve(source, args, context, info);
    if (b.budget.over) throw tooLarge(b.max);
    const add = (value: unknown) => {
      spend(b, jsonSize(value));
      return value;
    };
    const value = resolve(source, args, context, info);
    return isPromise(value) ? value.then(add) : add(value);
  };
}

export function stopped(resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => {
    const b = budgetOf(context, info);
    if (b?.budget.over) throw tooLarge(b.max);
    return resolve(source, args, context, info);
  };
}

/**
 * Holds every response to `maxResponseBytes` of string and JSON values (the rest of a response,
 * keys and numbers, is bounded by the cost limit): fields of those types count their values as they
 * resolve, and once over, they and every list field stop resolving with `RESPONSE_TOO_LARGE`, so an
 * oversized response is never built in full. `collapseTooLarge` then turns the partial result into
 * that one error. Fields with resolvers that return objects are paced (./paced.ts).
 */
export function guardResponseSize(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const before = field.resolve;
      const resolve = before ?? defaultFieldResolver;
      const named = getNamedType(field.type);
      if (COUNTED.has(named.name)) field.resolve = counted(resolve);
      else if (isListType(getNullableType(field.type))) field.resolve = stopped(resolve);
      // objects a resolver returns complete in slices (./paced.ts)
      if (before && (isObjectType(named) || isInterfaceType(named) || isUnionType(named))) field.resolve = paced(field.resolve ?? before);
      if (field.resolve !== before) unguarded.set(field.resolve!, before);
    }
  }
}

/** A result that ran over the response budget becomes that one error, without data. */
export function collapseTooLarge<T extends Pick<ExecutionResult, 'data'> & { errors?: readonly GraphQLFormattedError[] }>(result: T): T {
  const error = result.errors?.find((e) => e.extensions?.code === 'RESPONSE_TOO_LARGE');
  return error ? { ...result, data: null, errors: [error] } : result;
}
