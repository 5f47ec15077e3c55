import { type DocumentNode, type FragmentDefinitionNode, Kind, type SelectionSetNode } from 'graphql';

/** What a walk over a document found, and how many selections it visited to find it. */
export interface Walked<T> {
  value: T;
  /** selections visited: at most the number of selections in the document, however fragments nest */
  visits: number;
}

export function fragmentsOf(doc: DocumentNode): Map<string, FragmentDefinitionNode> {
  const map = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) map.set(d.name.value, d);
  return map;
}

/**
 * The field depth of each operation of a document (inline fragments and spreads add none). Each
 * fragment's depth is computed once and remembered, so the work is linear in the document however
 * its fragments spread each other.
 */
export function depthsOf(doc: DocumentNode): Walked<Map<string | undefined, number>> {
  const fragments = fragmentsOf(doc);
  const memo = new Map<string, number>();
  const active = new Set<string>();
  let visits = 0;

  const ofSet = (set: SelectionSetNode): number => {
    let max = 0;
    for (const sel of set.selections) {
      visits += 1;
      if (sel.kind === Kind.FIELD) max = Math.max(max, sel.selectionSet ? 1 + ofSet(sel.selectionSet) : 1);
      else if (sel.kind === Kind.INLINE_FRAGMENT) max = Math.max(max, ofSet(sel.selectionSet));
      else max = Math.max(max, ofFragment(sel.name.value));
    }
    return max;
  };

  const ofFragment = (name: string): number => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    if (!fragment || active.has(name)) return 0; // unknown or cyclic fragments are reported by the standard rules
    active.add(name);
    const depth = ofSet(fragment.selectionSet);
    active.delete(name);
    memo.set(name, depth);
    return depth;
  };

  const depths = new Map<string | undefined, number>();
  for (const d of doc.definitions) if (d.kind === Kind.OPERATION_DEFINITION) depths.set(d.name?.value, ofSet(d.selectionSet));
  return { value: depths, visits };
}
