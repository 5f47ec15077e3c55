import { type FieldNode, getArgumentValues, type GraphQLResolveInfo, type GraphQLObjectType, Kind, type SelectionSetNode } from 'graphql';
import type { Context } from '../../graphql/context.type';
import type { ListLoader } from './list-loader';
import type { IdsOfRows } from '../../db/statement-batch';
import { fieldNames } from './selection';

/** True when this field is selected under the field. */
type Selects = (field: string) => boolean;

/**
 * The loader a field of an object reads through, with the arguments the field resolver will
 * compute from the same values: asked for the object's id before the object itself is read, so
 * its batch goes to PostgreSQL together with the object's own read (or, for the objects of a page,
 * with the page's). It may throw: the field then reports it when it is resolved.
 */
export type Prefetch = (ctx: Context, args: Record<string, unknown>, selects: Selects) => ListLoader<unknown>;

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

/** The fields under `nodes` with a prefetch, written without directives (a field under @skip or @include waits for its object). */
function plan(nodes: readonly FieldNode[], fragments: GraphQLResolveInfo['fragments'], type: string): Planned[] {
  const key = nodes.length === 1 ? nodes[0] : null;
  const known = key && plans.get(key);
  if (known) return known;
  const fields = registry.get(type);
  const found: Planned[] = [];
  const fragment = (name: string) => fragments[name]?.selectionSet;
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
        const f = fragments[s.name.value];
        if (f && f.typeCondition.name.value === type) walk(f.selectionSet);
      }
    }
  };
  for (const n of nodes) walk(n.selectionSet);
  if (key) plans.set(key, found);
  return found;
}

/** The loaders of the planned fields, each with the arguments of its field; none for a field whose arguments are refused. */
function loadersOf(ctx: Context, info: GraphQLResolveInfo, type: string, planned: Planned[]): ListLoader<unknown>[] {
  const fields = (info.schema.getType(type) as GraphQLObjectType).getFields();
  const found: ListLoader<unknown>[] = [];
  for (const p of planned) {
    try {
      const args = getArgumentValues(fields[p.node.name.value], p.node, info.variableValues);
      found.push(p.prefetch(ctx, args, (name) => p.selected.has(name)));
    } catch {
      // the field reports it when it is resolved
    }
  }
  return found;
}

/**
 * Starts the reads of the selected fields of the object of type `type` with this id that declare a
 * prefetch. Nothing it starts is awaited here, and nothing it does is seen: a field whose arguments
 * are refused, or whose read fails, reports that when it is resolved itself, as without this.
 */
export function prefetchSelected(ctx: Context, info: GraphQLResolveInfo, type: GraphQLObjectType | string, id: string): void {
  const name = typeof type === 'string' ? type : type.name;
  const planned = plan(info.fieldNodes, info.fragments, name);
  if (planned.length === 0) return;
  for (const loader of loadersOf(ctx, info, name, planned)) loader.load(id).catch(() => {});
}

// per field node of a parsed document: the fields found under a path of it
const paths = new WeakMap<FieldNode, Map<string, FieldNode[]>>();

/** The fields reached from the field being resolved by the path of field names `path` (without directives). */
function fieldsAt(info: GraphQLResolveInfo, path: readonly string[]): FieldNode[] {
  const key = info.fieldNodes.length === 1 ? info.fieldNodes[0] : null;
  const known = key && paths.get(key)?.get(path.join('.'));
  if (known) return known;
  let nodes: readonly FieldNode[] = info.fieldNodes;
  for (const name of path) {
    const next: FieldNode[] = [];
    const spread = new Set<string>();
    const walk = (set: SelectionSetNode | undefined) => {
      for (const s of set?.selections ?? []) {
        if (s.directives?.length) continue;
        if (s.kind === Kind.FIELD) {
          if (s.name.value === name) next.push(s);
        } else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet);
        else if (!spread.has(s.name.value)) {
          spread.add(s.name.value);
          walk(info.fragments[s.name.value]?.selectionSet);
        }
      }
    };
    for (const n of nodes) walk(n.selectionSet);
    nodes = next;
  }
  const found = [...nodes];
  if (key) {
    const byPath = paths.get(key) ?? new Map<string, FieldNode[]>();
    byPath.set(path.join('.'), found);
    paths.set(key, byPath);
  }
  return found;
}

/**
 * Starts the reads of the selected fields that declare a prefetch, of the objects of type `type`
 * at `path` under the field being resolved (a page's `edges.node`), for the objects whose ids
 * `ids` will hold once the page's own read, in the same statement, has run. The promise settles
 * when the lists are kept in their loaders; it never fails: a field whose read failed reads again,
 * and reports it, when it is resolved.
 */
export function readAheadSelected(
  ctx: Context,
  info: GraphQLResolveInfo,
  path: readonly string[],
  type: string,
  ids: IdsOfRows,
): Promise<unknown> | null {
  const nodes = fieldsAt(info, path);
  if (nodes.length === 0) return null;
  const planned = plan(nodes, info.fragments, type);
  if (planned.length === 0) return null;
  const loaders = loadersOf(ctx, info, type, planned);
  if (loaders.length === 0) return null;
  return Promise.allSettled(loaders.map((l) => l.readAhead(ids)));
}
