import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import {
  type DocumentNode,
  type ExecutionResult,
  getOperationAST,
  type GraphQLSchema,
  type OperationDefinitionNode,
  OperationTypeNode,
  parse,
  validate,
  type ValidationRule,
} from 'graphql';
import { currentRequestScope } from '../core/request-scope';
import type { CompiledExecution } from '../graphql/compiled-execution';
import type { Context } from '../graphql/context.type';
import { checkOperation } from '../graphql/limits';
import { isPromise } from '../graphql/response-size';
import type { StepAside } from '../core/running';
import type { RunningSlot } from './budgets';
import { chargeHttpOperationNow } from './budget-guard';
import { asGraphqlError, contentTypeFor, errorAnswer, type GraphqlAnswer, resultAnswer, writeAnswer } from './graphql-answer';
import type { Metrics } from './metrics';
import type { Pipeline } from './pipeline';

/** The fields of a POST body the direct path runs. */
export interface DirectRequest {
  query: string;
  variables: Record<string, unknown> | undefined;
  operationName: string | undefined;
  /** of the answer, from the request's Accept */
  contentType: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null;

/**
 * The request as the direct path runs it, or null when Apollo Server answers it: a single operation
 * (not a list) with a non-empty `query`, `variables` an object if given, `operationName` a string
 * if given, no `extensions` (persisted queries are Apollo Server's to refuse), and an Accept value
 * of the common ones (any other is negotiated by Apollo Server).
 */
export function directRequest(req: IncomingMessage, body: unknown): DirectRequest | null {
  const contentType = contentTypeFor(req.headers.accept);
  if (contentType === undefined || !isRecord(body)) return null;
  const { query, variables, operationName, extensions } = body;
  if (typeof query !== 'string' || query === '' || !absent(extensions)) return null;
  if (!absent(variables) && !isRecord(variables)) return null;
  if (!absent(operationName) && typeof operationName !== 'string') return null;
  return {
    query,
    variables: isRecord(variables) ? variables : undefined,
    operationName: typeof operationName === 'string' ? operationName : undefined,
    contentType,
  };
}

/** A document that parsed and passed validation, and the costs of its operations that take no variables. */
interface CheckedSource {
  document: DocumentNode;
  costs: Map<string, number>;
}

/**
 * Documents that parsed and passed validation, by their exact text: a request that sends a text
 * seen before is neither lexed for the limits, parsed nor validated again, and gets the same
 * document object (compiled plans are kept per document). Bounded by the text it holds and by its
 * entries; the least recently used goes first.
 */
export class DocumentCache {
  private readonly entries = new Map<string, CheckedSource>();
  private chars = 0;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly rules: readonly ValidationRule[],
    // a document's tree takes many times the memory of its text: 1 MB of text is tens of MB of trees
    private readonly maxChars = 1024 * 1024,
    private readonly maxEntries = 1000,
  ) {}

  get(source: string): CheckedSource | undefined {
    const entry = this.entries.get(source);
    if (entry) {
      this.entries.delete(source);
      this.entries.set(source, entry);
    }
    return entry;
  }

  /** Parses and validates `source`: the checked document, or null when it does not parse or is not valid. */
  check(source: string): CheckedSource | null {
    let document: DocumentNode;
    try {
      document = parse(source);
    } catch {
      return null;
    }
    if (validate(this.schema, document, this.rules).length > 0) return null;
    const entry = { document, costs: new Map<string, number>() };
    this.entries.set(source, entry);
    this.chars += source.length;
    for (const [text] of this.entries) {
      if (this.chars <= this.maxChars && this.entries.size <= this.maxEntries) break;
      this.entries.delete(text);
      this.chars -= text.length;
    }
    return entry;
  }
}

/** What a direct request needs of the HTTP transport. */
export interface DirectPostHost {
  /** admit: the running slot once admitted at once, else the promise of it; throws or rejects as admission refuses */
  admit(): RunningSlot | Promise<RunningSlot>;
  /** a fresh context for the request's operation, whose waits may give up the slot (`aside`) */
  context(aside: StepAside): Context;
  /** answers the request through Apollo Server with the context given (or its failure) */
  viaApollo(context: () => Promise<Context>): Promise<void>;
  /** answers a document over the token and nesting limits (400), before admission; false when it is within them */
  refuseOverLimits(): boolean;
}

/**
 * A POST of one query or mutation answered by the server's own stages, without Apollo Server's
 * HTTP layer and request pipeline: the same admission, document rules, cost, charge, execution
 * and error shaping, and the same status, headers and bytes. A request it does not take (see
 * `directRequest`), a document that does not parse or is not valid, an operation the document does
 * not have, a subscription and a refused admission go to Apollo Server once admitted, so every
 * refusal keeps Apollo Server's words.
 */
export class DirectPost {
  readonly documents: DocumentCache;
  /** requests answered here so far */
  answered = 0;

  constructor(
    private readonly pipeline: Pipeline,
    private readonly execution: CompiledExecution,
    private readonly metrics: Metrics,
  ) {
    const rules = [...pipeline.wsRules];
    this.documents = new DocumentCache(pipeline.schema, rules);
  }

  async answer(req: IncomingMessage, res: ServerResponse, request: DirectRequest, host: DirectPostHost): Promise<void> {
    let checked = this.documents.get(request.query);
    if (!checked && host.refuseOverLimits()) return;
    let slot: RunningSlot;
    try {
      const admitting = host.admit();
      slot = isPromise(admitting) ? await admitting : admitting;
    } catch (err) {
      return host.viaApollo(() => {
        throw err; // Apollo Server answers the refusal as the failure of its context function
      });
    }
    const context = host.context(slot.aside);
    checked ??= this.documents.check(request.query) ?? undefined;
    const operation = checked && getOperationAST(checked.document, request.operationName);
    if (!checked || !operation || operation.operation === OperationTypeNode.SUBSCRIPTION)
      return host.viaApollo(() => Promise.resolve(context));
    this.answered += 1;
    const started = performance.now();
    const running = this.run(checked, operation, request, context, req.headers.authorization);
    const answer = isPromise(running) ? await running : running;
    const name = operation.name?.value ?? 'anonymous';
    this.metrics.observe(name, 'http', (performance.now() - started) / 1000, answer.ok);
    await writeAnswer(res, answer, this.pipeline.answerText, this.pipeline.services.config.slices.chars);
  }

  /** The operation's cost (remembered for an operation without variables, whose cost is always the same). */
  private cost(checked: CheckedSource, operation: OperationDefinitionNode, variables: DirectRequest['variables']): number {
    const name = operation.name?.value ?? null;
    if (operation.variableDefinitions?.length) return checkOperation(this.pipeline.schema, checked.document, variables, name);
    const key = name ?? '';
    let cost = checked.costs.get(key);
    if (cost === undefined) checked.costs.set(key, (cost = checkOperation(this.pipeline.schema, checked.document, variables, name)));
    return cost;
  }

  /** charge the budget, execute, shape the answer: without a promise when nothing waits */
  private run(
    checked: CheckedSource,
    operation: OperationDefinitionNode,
    request: DirectRequest,
    context: Context,
    authorization: string | undefined,
  ): GraphqlAnswer | Promise<GraphqlAnswer> {
    const { formatError, budgets, door } = this.pipeline;
    const scope = currentRequestScope();
    if (scope) scope.operationName = operation.name?.value ?? 'anonymous';
    const failed = (err: unknown) => errorAnswer([asGraphqlError(err)], formatError, request.contentType);
    const answered = (result: ExecutionResult) => resultAnswer(result, formatError, request.contentType);
    const execute = () => this.execution.run(checked.document, operation, request.variables, request.operationName, context);
    try {
      const cost = this.cost(checked, operation, request.variables);
      if (!chargeHttpOperationNow(budgets, door, context.viewer, cost, authorization))
        return this.pipeline.chargeHttp(context.viewer, cost, authorization).then(execute).then(answered, failed);
      const result = execute();
      return isPromise(result) ? result.then(answered, failed) : answered(result);
    } catch (err) {
      return failed(err);
    }
  }
}
