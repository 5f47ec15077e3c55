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

/** True when any of `fields` is selected under the field being resolved. */
export const selectsAny = (info: GraphQLResolveInfo, fields: readonly string[]): boolean => {
  const s = selectedFields(info);
  return fields.some((f) => s.has(f));
};
