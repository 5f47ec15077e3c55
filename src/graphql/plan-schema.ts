import {
  defaultFieldResolver,
  getNamedType,
  getNullableType,
  type GraphQLFieldConfigMap,
  GraphQLInterfaceType,
  GraphQLList,
  type GraphQLNamedType,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLSchema,
  GraphQLUnionType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
} from 'graphql';
import { paced } from './paced';
import { prepaid } from './prepaid-size';
import { COUNTED, counted, resolverBeforeGuard, stopped } from './response-size';

/**
 * The schema compiled plans run on: the same types, fields and resolvers as the guarded schema,
 * with the response budget counted per object instead of per field. A field read straight off its
 * parent value keeps no resolver of its own (a compiled plan then reads it inline); every field
 * with a resolver that returns objects counts, as soon as its value is there, all the string-like
 * values that will be read off those objects without a resolver. Fields with resolvers of
 * string-like types count their own values, as on the guarded schema. The count is never smaller
 * than the guarded schema's for the same execution, so a plan that stays within the budget would
 * have stayed within it field by field too; one that goes over fails and is run again field by
 * field. Every field with a resolver that returns objects is also paced (./paced.ts): a query that
 * completes thousands of objects does it in slices, with turns on the event loop between them; a
 * value is counted in the slice it completes in, so no slice counts the whole page.
 */
export function planSchemaOf(guarded: GraphQLSchema): GraphQLSchema {
  let made = twinsOf.get(guarded);
  if (!made) twinsOf.set(guarded, (made = twinOf(guarded)));
  return made;
}

const twinsOf = new WeakMap<GraphQLSchema, GraphQLSchema>();

function twinOf(guarded: GraphQLSchema): GraphQLSchema {
  const twins = new Map<string, GraphQLNamedType>();
  const named = <T extends GraphQLNamedType>(t: T): T => (twins.get(t.name) as T | undefined) ?? t;
  const ref = (t: GraphQLOutputType): GraphQLOutputType =>
    isNonNullType(t) ? new GraphQLNonNull(ref(t.ofType)) : isListType(t) ? new GraphQLList(ref(t.ofType)) : named(t);
  const roots = new Set(
    [guarded.getQueryType(), guarded.getMutationType(), guarded.getSubscriptionType()].filter(Boolean).map((t) => t!.name),
  );

  const fieldsOf = (typeName: string, fields: GraphQLFieldConfigMap<unknown, unknown>) => () => {
    const out: GraphQLFieldConfigMap<unknown, unknown> = {};
    for (const [name, f] of Object.entries(fields)) {
      const own = resolverBeforeGuard(f.resolve);
      const resolve = own ?? defaultFieldResolver;
      const type = getNamedType(f.type);
      // fields of the root types resolve from no parent value, so nothing walks into them
      const inline = own === undefined && !roots.has(typeName);
      let sized = own;
      if (COUNTED.has(type.name)) sized = inline ? undefined : counted(resolve);
      else if (isObjectType(type) || isInterfaceType(type) || isUnionType(type)) sized = inline ? undefined : prepaid(paced(resolve));
      else if (isListType(getNullableType(f.type)) && !inline) sized = stopped(resolve);
      out[name] = { ...f, type: ref(f.type), resolve: sized };
    }
    return out;
  };

  for (const type of Object.values(guarded.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isObjectType(type)) {
      const c = type.toConfig();
      twins.set(
        type.name,
        new GraphQLObjectType({ ...c, interfaces: () => c.interfaces.map(named), fields: fieldsOf(type.name, c.fields) }),
      );
    } else if (isInterfaceType(type)) {
      const c = type.toConfig();
      twins.set(
        type.name,
        new GraphQLInterfaceType({ ...c, interfaces: () => c.interfaces.map(named), fields: fieldsOf(type.name, c.fields) }),
      );
    } else if (isUnionType(type)) {
      const c = type.toConfig();
      twins.set(type.name, new GraphQLUnionType({ ...c, types: () => c.types.map(named) }));
    }
  }
  const c = guarded.toConfig();
  const root = (t: GraphQLObjectType | null | undefined) => (t ? named(t) : t);
  return new GraphQLSchema({
    ...c,
    query: root(c.query),
    mutation: root(c.mutation),
    subscription: root(c.subscription),
    types: c.types.map(named),
  });
}
