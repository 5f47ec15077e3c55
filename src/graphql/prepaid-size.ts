import {
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  getNullableType,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  isAbstractType,
  isListType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import { budgetOf, COUNTED, isPromise, jsonSize, spend, tooLarge } from './response-size';

/**
 * What a field's value carries that no resolver of its own counts: the fields of its object type
 * that are read straight off the value (no resolver), string-like ones by their size and
 * object-typed ones by walking into them, one entry per response key.
 */
interface Plan {
  leaves: string[];
  children: { name: string; type: GraphQLOutputType; plan: Plan }[];
}

/** Thrown when a value cannot be counted without resolving it (a promise or a method read as a field). */
class Uncountable extends Error {}

const plans = new WeakMap<readonly FieldNode[], Plan | null>();

/** Groups the selections that apply to `type` by response key, as execution does (conditions aside). */
function collect(
  schema: GraphQLSchema,
  type: GraphQLObjectType,
  sets: readonly SelectionSetNode[],
  fragments: Record<string, FragmentDefinitionNode>,
): Map<string, FieldNode[]> {
  const groups = new Map<string, FieldNode[]>();
  const applies = (condition: string | undefined) => {
    if (condition === undefined || condition === type.name) return true;
    const t = schema.getType(condition);
    return !!t && isAbstractType(t) && schema.isSubType(t, type);
  };
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode) => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const key = sel.alias?.value ?? sel.name.value;
        const group = groups.get(key);
        if (group) group.push(sel);
        else groups.set(key, [sel]);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        if (applies(sel.typeCondition?.name.value)) visit(sel.selectionSet);
      } else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        const fragment = fragments[sel.name.value];
        if (fragment && applies(fragment.typeCondition.name.value)) visit(fragment.selectionSet);
      }
    }
  };
  for (const set of sets) visit(set);
  return groups;
}

/** The plan of a selection on an object type; null when a part of it has an abstract type (not walked). */
function planOf(
  schema: GraphQLSchema,
  type: GraphQLObjectType,
  sets: readonly SelectionSetNode[],
  fragments: Record<string, FragmentDefinitionNode>,
): Plan | null {
  const plan: Plan = { leaves: [], children: [] };
  const fields = type.getFields();
  for (const group of collect(schema, type, sets, fragments).values()) {
    const field = fields[group[0].name.value];
    if (!field || field.resolve) continue; // meta fields count nothing; resolved fields count themselves
    const named = getNamedType(field.type);
    if (COUNTED.has(named.name)) plan.leaves.push(field.name);
    else if (isAbstractType(named)) return null;
    else if (isObjectType(named)) {
      const child = planOf(
        schema,
        named,
        group.flatMap((n) => (n.selectionSet ? [n.selectionSet] : [])),
        fragments,
      );
      if (!child) return null;
      plan.children.push({ name: field.name, type: field.type, plan: child });
    }
  }
  return plan;
}

const isIterable = (v: unknown): v is Iterable<unknown> =>
  typeof v === 'object' && v !== null && typeof (v as Iterable<unknown>)[Symbol.iterator] === 'function';

/** Bytes of the values `plan` reads off `value`, walking lists as execution completes them. */
function sizeOf(value: unknown, type: GraphQLOutputType, plan: Plan): number {
  if (value === null || value === undefined) return 0;
  if (isPromise(value)) throw new Uncountable();
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    let n = 0;
    if (isIterable(value)) for (const item of value) n += sizeOf(item, nullable.ofType, plan);
    return n;
  }
  const source = value as Record<string, unknown>;
  let n = 0;
  for (const name of plan.leaves) {
    const v = source[name];
    if (typeof v === 'function' || isPromise(v)) throw new Uncountable();
    n += jsonSize(v);
  }
  for (const c of plan.children) {
    const v = source[c.name];
    if (typeof v === 'function') throw new Uncountable();
    n += sizeOf(v, c.type, c.plan);
  }
  return n;
}

/**
 * A resolver of an object-typed field that, once its value is there, counts every string-like
 * value that will be read off it (and off the objects under it) without a resolver, before they
 * are completed; once the budget is over, it stops resolving. Counts at least what the per-field
 * counting of the same execution would.
 */
export function prepaid(resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => {
    const b = budgetOf(context, info);
    if (!b) return resolve(source, args, context, info);
    if (b.budget.over) throw tooLarge(b.max);
    const plan = planFor(info);
    const pay = (value: unknown) => {
      if (plan === null) throw new Uncountable();
      spend(b, sizeOf(value, info.returnType, plan));
      return value;
    };
    const value = resolve(source, args, context, info);
    return isPromise(value) ? value.then(pay) : pay(value);
  };
}

function planFor(info: GraphQLResolveInfo): Plan | null {
  let plan = plans.get(info.fieldNodes);
  if (plan === undefined) {
    const named = getNamedType(info.returnType);
    const sets = info.fieldNodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
    plan = isObjectType(named) ? planOf(info.schema, named, sets, info.fragments) : null;
    plans.set(info.fieldNodes, plan);
  }
  return plan;
}
