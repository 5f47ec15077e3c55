import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import {
  type DocumentNode,
  execute,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
  OperationTypeNode,
} from 'graphql';
import { compileQuery, type CompiledQuery, isCompiledQuery } from 'graphql-jit';
import { planSchemaOf } from './plan-schema';
import { forgetResponseBudget, isPromise } from './response-size';

type PromiseOrValue<T> = T | Promise<T>;

/** How an operation was executed, for the metrics. */
export type ExecutionPlan = 'compiled' | 'interpreted' | 'interpreted_after_error';

/** A document seen once: compiled when it comes again. */
const SEEN_ONCE = 'seen once';

/**
 * Executes queries through plans compiled once per document (graphql-jit generates one function
 * per operation that resolves and completes the whole selection, instead of graphql-js walking the
 * document field by field on every request), and everything else with graphql-js.
 *
 * graphql-js stays the reference for every answer that is not plain data: a compiled query whose
 * answer carries any error (bad variables, a refused field, a resolver failure, a null in a
 * non-null field) is executed again by graphql-js, so error messages, paths, null propagation and
 * input coercion are exactly graphql-js's. Queries record nothing, and the request's loaders
 * remember what the first run read, so the second run reads little or nothing. Mutations and
 * subscriptions always run on graphql-js: their order of effects is graphql-js's.
 */
export class CompiledExecution {
  private readonly plans = new WeakMap<DocumentNode, Map<string, CompiledQuery | null | typeof SEEN_ONCE>>();
  /** the schema plans are compiled against: the response budget counted per object, not per field */
  private readonly planSchema: GraphQLSchema;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly enabled: boolean,
    private readonly onExecuted: (plan: ExecutionPlan) => void = () => {},
  ) {
    this.planSchema = planSchemaOf(schema);
  }

  /**
   * The plan of an operation of a document (parsed documents are cached and reused by the server),
   * or null when it does not compile or has been seen only once. Compiling takes milliseconds, so
   * an operation is compiled when it comes a second time: a client that sends every request as a
   * new document (values written into the text) is served by graphql-js and never pays for plans
   * it would not reuse.
   */
  private planFor(document: DocumentNode, operationName: string | undefined): CompiledQuery | null {
    let byName = this.plans.get(document);
    if (!byName) this.plans.set(document, (byName = new Map<string, CompiledQuery | null | typeof SEEN_ONCE>()));
    const key = operationName ?? '';
    const plan = byName.get(key);
    if (plan === undefined) {
      byName.set(key, SEEN_ONCE);
      return null;
    }
    if (plan !== SEEN_ONCE) return plan;
    const compiled = compileQuery(this.planSchema, document, operationName, { disablingCapturingStackErrors: true });
    const made = isCompiledQuery(compiled) ? compiled : null;
    byName.set(key, made);
    return made;
  }

  /**
   * Executes one operation of a checked document: through its plan when it has one, else graphql-js.
   * An answer made without waiting for anything (such as `{ __typename }`) comes without a promise.
   */
  run(
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Record<string, unknown> | undefined,
    operationName: string | undefined,
    context: unknown,
  ): PromiseOrValue<ExecutionResult> {
    const interpreted = (plan: ExecutionPlan) => {
      this.onExecuted(plan);
      return execute({ schema: this.schema, document, contextValue: context, variableValues: variables, operationName });
    };
    if (!this.enabled || operation.operation !== OperationTypeNode.QUERY) return interpreted('interpreted');
    const plan = this.planFor(document, operationName);
    if (!plan) return interpreted('interpreted');
    const completed = (result: ExecutionResult) => {
      if (!result.errors?.length) {
        this.onExecuted('compiled');
        return result;
      }
      forgetResponseBudget(context);
      return interpreted('interpreted_after_error');
    };
    const result = plan.query(undefined, context, variables ?? {}) as PromiseOrValue<ExecutionResult>;
    return isPromise(result) ? result.then(completed) : completed(result);
  }

  readonly executor: GatewayExecutor = async ({ document, operation, request, context }) =>
    this.run(document, operation, request.variables, request.operationName ?? undefined, context);

  /**
   * Apollo Server's hook for replacing execution: a "gateway" that serves this one schema, never
   * changes it, and executes through this object. Parsing, validation and every plugin stay
   * Apollo Server's.
   */
  gateway(): GatewayInterface {
    return {
      onSchemaLoadOrUpdate: (callback) => {
        callback({ apiSchema: this.schema, coreSupergraphSdl: '' });
        return () => {};
      },
      load: () => Promise.resolve({ executor: this.executor }),
      stop: async () => {},
    };
  }
}
