import {
  type DocumentNode,
  type FieldNode,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  type GraphQLCompositeType,
  type GraphQLField,
  GraphQLIncludeDirective,
  type GraphQLSchema,
  GraphQLSkipDirective,
  isCompositeType,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  TypeNameMetaFieldDef,
} from 'graphql';
import type { ComplexityEstimator } from 'graphql-query-complexity';
import { LIMITS } from '../core/limits';
import { fragmentsOf, type Walked } from './walk';

type Variables = Record<string, unknown>;

const included = (sel: SelectionNode, variables: Variables): boolean =>
  getDirectiveValues(GraphQLSkipDirective, sel, variables)?.if !== true &&
  getDirectiveValues(GraphQLIncludeDirective, sel, variables)?.if !== false;

function fieldDef(parent: GraphQLCompositeType, node: FieldNode): GraphQLField<unknown, unknown> | undefined {
  if (node.name.value === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
  return isObjectType(parent) ? parent.getFields()[node.name.value] : undefined;
}

/**
 * A field's cost: its `complexity` estimator (a function of its arguments and of the cost of its
 * selection) when it has one; else a list counts as `LIMITS.defaultPage` items of its selection,
 * and anything else as 1 plus its selection.
 */
function fieldCost(
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  parent: GraphQLCompositeType,
  childComplexity: number,
  variables: Variables,
): number {
  const estimator = field.extensions?.complexity as ComplexityEstimator | number | undefined;
  if (typeof estimator === 'number') return estimator + childComplexity;
  if (typeof estimator === 'function') {
    const cost = estimator({ args: getArgumentValues(field, node, variables), childComplexity, field, node, type: parent });
    if (typeof cost === 'number') return cost;
  }
  if (isListType(getNullableType(field.type))) return LIMITS.defaultPage * Math.max(1, childComplexity);
  return 1 + childComplexity;
}

/**
 * The cost of an operation with these (coerced) variables. Each fragment is costed once and
 * remembered, so the work is linear in the document however its fragments spread each other.
 * Fields that appear twice count twice: the cost never underestimates what execution can return.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Variables,
): Walked<number> {
  const fragments = fragmentsOf(document);
  const memo = new Map<string, number>();
  const active = new Set<string>();
  let visits = 0;

  const ofSet = (set: SelectionSetNode, parent: GraphQLCompositeType): number => {
    let total = 0;
    for (const sel of set.selections) {
      visits += 1;
      if (!included(sel, variables)) continue;
      if (sel.kind === Kind.FIELD) {
        const field = fieldDef(parent, sel);
        if (!field) continue; // reported by the standard rules
        const named = getNamedType(field.type);
        const child = sel.selectionSet && isCompositeType(named) ? ofSet(sel.selectionSet, named) : 0;
        total += fieldCost(field, sel, parent, child, variables);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const type = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
        if (type && isCompositeType(type)) total += ofSet(sel.selectionSet, type);
      } else total += ofFragment(sel.name.value);
    }
    return total;
  };

  const ofFragment = (name: string): number => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    const type = fragment && schema.getType(fragment.typeCondition.name.value);
    if (!fragment || !type || !isCompositeType(type) || active.has(name)) return 0; // unknown or cyclic: reported by the standard rules
    active.add(name);
    const cost = ofSet(fragment.selectionSet, type);
    active.delete(name);
    memo.set(name, cost);
    return cost;
  };

  const root = schema.getRootType(operation.operation);
  return { value: root ? ofSet(operation.selectionSet, root) : 0, visits };
}
