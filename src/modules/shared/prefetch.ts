import { type FieldNode, getArgumentValues, type GraphQLResolveInfo, type GraphQLObjectType, Kind, type SelectionSetNode } from 'graphql';
import type { Context } from '../../graphql/context.type';
import { fieldNames } from './selection';

/** True when this field is selected under the field. */
type Selects = (field: string) => boolean;

/**
 * Starts the read a field of an object will need, before the object itself is read: the field's
 * loader is asked for the object's id with the arguments the field resolver will compute from the
 * same values, so its batch goes to PostgreSQL together with the object's own read.
 */
export type Prefetch = (ctx: Context, args: Record<string, unknown>, selects: Selects, id: string) => unknown;

const registry = new Map<string, Map<string, Prefetch>>();

/** Declares how field `field` of object type `type` starts its read ahead of its object. */
export function prefetchField(type: string, field: string, prefetch: Prefetch): void {
  let fields = registry.get(type);
  if (!fields) registry.set(type, (fields = new Map<string, Prefetch>()));
  fields.set(field, prefetch);
}

interface Planned {
  node: FieldNode;
  prefetch: Prefetch;
  /** the names selected under the field */
  selected: ReadonlySet<string>;
}

// per field node of a parsed document: documents are cached and reused, so each is walked once
const plans = new WeakMap<FieldNode, Planned[]>();

/** The fields under `fieldNodes` with a prefetch, written without directives (a field under @skip or @include waits for its object). */
function plan(info: GraphQLResolveInfo, type: string): Planned[] {
  const key = info.fieldNodes.length === 1 ? info.fieldNodes[0] : null;
  const known = key && plans.get(key);
  if (known) return known;
  const fields = registry.get(type);
  const found: Planned[] = [];
  const fragment = (name: string) => info.fragments[name]?.selectionSet;
  const spread = new Set<string>();
  const walk = (set: SelectionSetNode | undefined) => {
    for (const s of set?.selections ?? []) {
      if (s.directives?.length) continue;
      if (s.kind === Kind.FIELD) {
        const prefetch = fields?.get(s.name.value);
        if (prefetch) found.push({ node: s, prefetch, selected: fieldNames([s.selectionSet], fragment) });
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        if (!s.typeCondition || s.typeCondition.name.value === type) walk(s.selectionSet);
      } else if (!spread.has(s.name.value)) {
        spread.add(s.name.value);
        const f = info.fragments[s.name.value];
        if (f && f.typeCondition.name.value === type) walk(f.selectionSet);
      }
    }
  };
  for (const n of info.fieldNodes) walk(n.selectionSet);
  if (key) plans.set(key, found);
  return found;
}

/**
 * Starts the reads of the selected fields of the object of type `type` with this id that declare a
 * prefetch. Nothing it starts is awaited here, and nothing it does is seen: a field whose arguments
 * are refused, or whose read fails, reports that when it is resolved itself, as without this.
 */
export function prefetchSelected(ctx: Context, info: GraphQLResolveInfo, type: GraphQLObjectType | string, id: string): void {
  const name = typeof type === 'string' ? type : type.name;
  const planned = plan(info, name);
  if (planned.length === 0) return;
  const fields = info.schema.getType(name) as GraphQLObjectType;
  for (const p of planned) {
    try {
      const def = fields.getFields()[p.node.name.value];
      const args = getArgumentValues(def, p.node, info.variableValues);
      const started = p.prefetch(ctx, args, (name) => p.selected.has(name), id);
      if (started instanceof Promise) started.catch(() => {});
    } catch {
      // the field reports it when it is resolved
    }
  }
}
