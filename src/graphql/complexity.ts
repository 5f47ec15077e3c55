import {
  type ASTNode,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { LIMITS } from '../core/limits';
import { operationCost } from './cost';
import { limitError } from './errors';

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
/** Costs per document (documents are cached and reused by Apollo, and by the WebSocket path). */
const costCache = new WeakMap<DocumentNode, CostCache>();
const COSTS_PER_DOCUMENT = 256;

const shown = (cost: number) => (cost > 1e12 ? 'beyond 10^12' : String(cost));

/** Throws a validation error (HTTP 400) when the operation costs more than the limit; returns the cost. */
export function checkComplexity(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): number {
  let cache = costCache.get(document);
  if (!cache) {
    cache = { variables: costVariables(schema, document), costs: new Map() };
    costCache.set(document, cache);
  }
  const key = JSON.stringify([operation.name?.value ?? null, ...cache.variables.map((v) => variables[v] ?? null)]);
  let cost = cache.costs.get(key);
  if (cost === undefined) {
    cost = operationCost(schema, document, operation, variables).value;
    if (cache.costs.size >= COSTS_PER_DOCUMENT) cache.costs.clear();
    cache.costs.set(key, cost);
  }
  // NaN (an estimator gone wrong) is refused as well
  if (!(cost <= LIMITS.complexity)) throw limitError(`query complexity ${shown(cost)} exceeds the limit of ${LIMITS.complexity}`);
  return cost;
}
