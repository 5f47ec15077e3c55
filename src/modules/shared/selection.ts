import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';

/**
 * The names of the fields a selection set selects at its own level, through inline fragments and
 * fragment spreads (`fragment` looks a spread's selection set up; each fragment is walked once).
 */
export function fieldNames(
  sets: readonly (SelectionSetNode | undefined)[],
  fragment: (name: string) => SelectionSetNode | undefined,
): Set<string> {
  const names = new Set<string>();
  const spread = new Set<string>();
  const walk = (set: SelectionSetNode | undefined) => {
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.FIELD) names.add(s.name.value);
      else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet);
      else if (!spread.has(s.name.value)) {
        spread.add(s.name.value);
        walk(fragment(s.name.value));
      }
    }
  };
  for (const set of sets) walk(set);
  return names;
}

// per field of a parsed document: documents are cached and reused, so each is walked once
const cache = new WeakMap<FieldNode, ReadonlySet<string>>();

/** The names of the fields selected under the field being resolved. */
function selectedFields(info: GraphQLResolveInfo): ReadonlySet<string> {
  const key = info.fieldNodes.length === 1 ? info.fieldNodes[0] : null;
  const known = key && cache.get(key);
  if (known) return known;
  const names = fieldNames(
    info.fieldNodes.map((n) => n.selectionSet),
    (name) => info.fragments[name]?.selectionSet,
  );
  if (key) cache.set(key, names);
  return names;
}

/** The column each field of an object type is read from (field name → column name), in the table's order. */
export type FieldColumns = Readonly<Record<string, string>>;

/** The columns of a table whose fields are named as their columns in camel case (`created_at`: `createdAt`), by field. */
export const camelCaseFields = (columns: readonly string[]): FieldColumns =>
  Object.fromEntries(columns.map((c) => [c.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()), c]));

/**
 * The columns a read of objects needs for a selection: those of the fields `selects` picks, and
 * `always` (the id, the parent's id, the columns the read orders by), in the order of `columns`, as
 * one comma-separated key fit for a statement's shape. A list reads only what its selection shows:
 * the database writes, and the server parses, no column that nobody asked for.
 */
export function columnsOf(columns: FieldColumns, always: readonly string[], selects: (field: string) => boolean): string {
  const found: string[] = [];
  for (const [field, column] of Object.entries(columns)) if (always.includes(column) || selects(field)) found.push(column);
  return found.join(',');
}

// per field of a parsed document and table: documents are cached and reused, so each is worked out once
const columnKeys = new WeakMap<FieldNode, Map<FieldColumns, string>>();

/** `columnsOf` the fields selected under the field being resolved. */
export function selectedColumns(info: GraphQLResolveInfo, columns: FieldColumns, always: readonly string[]): string {
  const key = info.fieldNodes.length === 1 ? info.fieldNodes[0] : null;
  const byTable = key ? columnKeys.get(key) : undefined;
  const known = byTable?.get(columns);
  if (known !== undefined) return known;
  const s = selectedFields(info);
  const found = columnsOf(columns, always, (f) => s.has(f));
  if (key) {
    if (byTable) byTable.set(columns, found);
    else columnKeys.set(key, new Map([[columns, found]]));
  }
  return found;
}

// per field of a parsed document: the names selected at the end of each path under it
const namesAt = new WeakMap<FieldNode, Map<string, ReadonlySet<string>>>();

/**
 * The names of the fields selected on the objects reached from the field being resolved by the
 * path of field names `path` (a page's `edges.node`), under a directive or not: every field those
 * objects may be asked for.
 */
export function selectedFieldsAt(info: GraphQLResolveInfo, path: readonly string[]): ReadonlySet<string> {
  const key = info.fieldNodes.length === 1 ? info.fieldNodes[0] : null;
  const known = key && namesAt.get(key)?.get(path.join('.'));
  if (known) return known;
  const fragment = (name: string) => info.fragments[name]?.selectionSet;
  let sets: (SelectionSetNode | undefined)[] = info.fieldNodes.map((n) => n.selectionSet);
  for (const name of path) {
    const next: (SelectionSetNode | undefined)[] = [];
    const spread = new Set<string>();
    const walk = (set: SelectionSetNode | undefined) => {
      for (const s of set?.selections ?? []) {
        if (s.kind === Kind.FIELD) {
          if (s.name.value === name) next.push(s.selectionSet);
        } else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet);
        else if (!spread.has(s.name.value)) {
          spread.add(s.name.value);
          walk(fragment(s.name.value));
        }
      }
    };
    for (const set of sets) walk(set);
    sets = next;
  }
  const names = fieldNames(sets, fragment);
  if (key) {
    const byPath = namesAt.get(key) ?? new Map<string, ReadonlySet<string>>();
    byPath.set(path.join('.'), names);
    namesAt.set(key, byPath);
  }
  return names;
}
