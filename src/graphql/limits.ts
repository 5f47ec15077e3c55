import {
  type ASTNode,
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type SelectionSetNode,
  TypeInfo,
  type ValidationContext,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { LIMITS } from '../core/limits';

export { LIMITS };

const limitError = (message: string, node?: ASTNode) =>
  new GraphQLError(message, { nodes: node, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });

function fragmentsOf(doc: DocumentNode): Map<string, FragmentDefinitionNode> {
  const map = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) map.set(d.name.value, d);
  return map;
}

function depthOf(set: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>, seen: Set<string>): number {
  if (!set) return 0;
  let max = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      max = Math.max(max, sel.selectionSet ? 1 + depthOf(sel.selectionSet, fragments, seen) : 1);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      max = Math.max(max, depthOf(sel.selectionSet, fragments, seen));
    } else {
      const name = sel.name.value;
      const frag = fragments.get(name);
      if (!frag || seen.has(name)) continue; // unknown or cyclic fragments are reported by the standard rules
      seen.add(name);
      max = Math.max(max, depthOf(frag.selectionSet, fragments, seen));
      seen.delete(name);
    }
  }
  return max;
}

/** Refuses operations nested deeper than `max` fields. */
export const depthLimit =
  (max: number) =>
  (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(node) {
      const depth = depthOf(node.selectionSet, fragmentsOf(context.getDocument()), new Set());
      if (depth > max) context.reportError(limitError(`query depth ${depth} exceeds the limit of ${max}`, node));
    },
  });

/** Refuses documents with more than `max` aliased fields. */
export const aliasLimit =
  (max: number) =>
  (context: ValidationContext): ASTVisitor => {
    let count = 0;
    let reported = false;
    return {
      Field(node) {
        if (!node.alias) return;
        count += 1;
        if (count > max && !reported) {
          reported = true;
          context.reportError(limitError(`the document uses more than ${max} aliases`, node));
        }
      },
    };
  };

export const limitRules = [depthLimit(LIMITS.depth), aliasLimit(LIMITS.aliases)];

/**
 * The variables a document's cost can depend on: those passed to arguments of fields that have a
 * complexity estimator (page sizes) and to directives (`@include`, `@skip`). Other variables
 * (ids, texts, inputs of fields without an estimator) never change the cost.
 */
function costVariables(schema: GraphQLSchema, document: DocumentNode): string[] {
  const names = new Set<string>();
  const typeInfo = new TypeInfo(schema);
  const collect = (node: ASTNode) =>
    visit(node, {
      Variable(v) {
        names.add(v.name.value);
      },
    });
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        if (typeInfo.getFieldDef()?.extensions?.complexity !== undefined) for (const a of node.arguments ?? []) collect(a);
      },
      Directive(node) {
        collect(node);
      },
    }),
  );
  return [...names].sort();
}

interface CostCache {
  variables: string[];
  costs: Map<string, number>;
}
/** Costs per document (documents are cached and reused by Apollo, and by the WebSocket path below). */
const costCache = new WeakMap<DocumentNode, CostCache>();
const COSTS_PER_DOCUMENT = 256;

/** Throws a validation error when the operation costs more than the limit; returns the cost. */
export function checkComplexity(schema: GraphQLSchema, query: DocumentNode, variables: Record<string, unknown> | undefined, operationName?: string | null): number {
  let cache = costCache.get(query);
  if (!cache) {
    cache = { variables: costVariables(schema, query), costs: new Map() };
    costCache.set(query, cache);
  }
  const key = JSON.stringify([operationName ?? null, ...cache.variables.map((v) => variables?.[v] ?? null)]);
  let cost = cache.costs.get(key);
  if (cost === undefined) {
    cost = getComplexity({
      schema,
      query,
      variables: variables ?? {},
      operationName: operationName ?? undefined,
      estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
    });
    if (cache.costs.size >= COSTS_PER_DOCUMENT) cache.costs.clear();
    cache.costs.set(key, cost);
  }
  if (cost > LIMITS.complexity) throw limitError(`query complexity ${cost} exceeds the limit of ${LIMITS.complexity}`);
  return cost;
}
