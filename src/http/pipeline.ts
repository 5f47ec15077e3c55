import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type DocumentNode,
  getOperationAST,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type ValidationRule,
} from 'graphql';
import { Gauge } from 'prom-client';
import { jsonInTurns } from '../core/json-in-turns';
import { currentRequestScope } from '../core/request-scope';
import { type StepAside, stayInPlace } from '../core/running';
import type { Context } from '../graphql/context.type';
import { cachedViewer, makeContext, viewerFor } from '../graphql/context';
import { formatGraphQLError } from '../graphql/errors';
import { checkOperation, checkSource, limitRules } from '../graphql/limits';
import type { Services } from '../graphql/services';
import type { Viewer } from '../modules/orgs';
import { BudgetDoor } from './budget-door';
import { admitHttpRequest, chargeHttpOperation } from './budget-guard';
import { Budgets, budgetStore, type OverBudget, type RunningSlot, type Spender } from './budgets';
import type { Metrics } from './metrics';

/** A document checked for running: parsed, valid, naming one operation, within the limits, and its cost. */
export interface CheckedDocument {
  document: DocumentNode;
  cost: number;
}

const refusal = (message: string, code: string) => [new GraphQLError(message, { extensions: { code } })];

/**
 * The stages a GraphQL request passes, the same over HTTP (./server.ts, through Apollo Server) and
 * WebSocket (./ws.ts, through graphql-ws), in this order:
 * 1. admit: the door (a token refused recently waits outside), then one request and its bytes
 *    against the rates (`admitHttp`; over WebSocket `./ws-caps.ts` with the key's operation cap);
 * 2. authenticate: the caller of the Authorization value (`authenticate`);
 * 3. check the document: its tokens and nesting before parsing, then parsing, validation with the
 *    limits, the operation it names and its cost (`checkDocument`; Apollo runs the same rules);
 * 4. charge the budget: the cost in points, then a running slot (per key, per organization, and
 *    the instance's, shared fairly by organizations; `chargeHttp`, `./ws-caps.ts`);
 * 5. execute with a fresh context (`context`);
 * 6. shape the answer: errors in one shape with the request id (`formatError`), an answer over
 *    the response-size budget collapsed to one error, its text written in slices (`answerText`).
 * Long synchronous work (completing thousands of objects, writing a large answer) runs in slices
 * with turns on the event loop between them, shared fairly by organizations (../core/turns.ts).
 * Over HTTP the slot is taken at admission (it guards the body's parsing too) and held until the
 * response is written; over WebSocket it is taken once the operation is known to be a query or a
 * mutation, and freed when its result is ready.
 */
export class Pipeline {
  readonly budgets: Budgets;
  readonly door: BudgetDoor;
  /** the validation rules of a WebSocket operation (over HTTP Apollo adds the specified rules itself) */
  readonly wsRules: readonly ValidationRule[];

  constructor(
    readonly services: Services,
    readonly schema: GraphQLSchema,
    metrics: Metrics,
  ) {
    const { config, log } = services;
    const refused = (e: OverBudget) => metrics.budgetRefusals.inc({ scope: e.scope, budget: e.kind });
    this.budgets = new Budgets(config.budgets, budgetStore(config.redisUrl, log), refused, config.runningSlots);
    this.door = new BudgetDoor(refused);
    this.wsRules = [...specifiedRules, ...limitRules, ...(config.production ? [NoSchemaIntrospectionCustomRule] : [])];
    const budgets = this.budgets;
    new Gauge({
      name: 'graphql_running_slots',
      help: "Requests holding one of the instance's fair running slots (active) and waiting for one (waiting)",
      labelNames: ['state'],
      registers: [metrics.registry],
      collect() {
        const { active, waiting } = budgets.running();
        this.set({ state: 'active' }, active);
        this.set({ state: 'waiting' }, waiting);
      },
    });
  }

  /** 1 (HTTP): the rates and a running slot, held until the response is done; throws RATE_LIMITED. */
  admitHttp(viewer: Viewer, req: IncomingMessage, res: ServerResponse, bodyBytes: number): Promise<RunningSlot> {
    return admitHttpRequest(this.budgets, this.door, viewer, req, res, bodyBytes);
  }

  /** 2: the caller; throws UNAUTHENTICATED, or SERVICE_UNAVAILABLE when the database cannot tell. */
  authenticate(authorization: unknown): Promise<Viewer> {
    return viewerFor(this.services, authorization);
  }

  /** 2, without a promise: the caller when the key cache knows the Authorization value, else undefined. */
  authenticateNow(authorization: unknown): Viewer | undefined {
    return cachedViewer(this.services, authorization);
  }

  /** 3 (WebSocket): the checked document, or the errors refusing it (nothing charged yet). */
  checkDocument(payload: {
    query: string;
    variables?: Record<string, unknown> | null;
    operationName?: string | null;
  }): CheckedDocument | readonly GraphQLError[] {
    let document: DocumentNode;
    try {
      checkSource(payload.query);
      document = parse(payload.query);
    } catch (e) {
      if (e instanceof GraphQLError && e.extensions.code) return [e];
      return refusal(e instanceof GraphQLError ? e.message : 'the document cannot be parsed', 'GRAPHQL_PARSE_FAILED');
    }
    const errors = validate(this.schema, document, this.wsRules);
    if (errors.length > 0) return errors;
    // the same refusal as over HTTP, before anything is charged
    if (!getOperationAST(document, payload.operationName))
      return refusal(
        payload.operationName
          ? `Unknown operation named "${payload.operationName}".`
          : 'Must provide operation name if query contains multiple operations.',
        'OPERATION_RESOLUTION_FAILURE',
      );
    try {
      return { document, cost: checkOperation(this.schema, document, payload.variables, payload.operationName) };
    } catch (e) {
      if (e instanceof GraphQLError) return [e];
      throw e;
    }
  }

  /** 4 (HTTP): the operation's cost against the points budgets; throws RATE_LIMITED. */
  chargeHttp(spender: Spender, cost: number, authorization: string | undefined): Promise<void> {
    return chargeHttpOperation(this.budgets, this.door, spender, cost, authorization);
  }

  /**
   * 5: a fresh context for one operation; the request's long work takes its organization's turns
   * (../core/turns.ts), and `aside` gives up its running slot during a wait (see StepAside).
   */
  context(viewer: Viewer, requestId: string, aside: StepAside = stayInPlace): Context {
    const scope = currentRequestScope();
    if (scope) scope.orgId = viewer.orgId;
    return makeContext(this.services, viewer, requestId, aside);
  }

  /** 6 (HTTP): the answer's text, as JSON.stringify writes it with a newline, a large one in slices with turns between them. */
  readonly answerText = async (result: unknown): Promise<string> =>
    (await jsonInTurns(result, currentRequestScope()?.orgId ?? '', this.services.config.slices.chars)) + '\n';

  /** 6: an error in the API's shape; the request's log line names the code of its first error. */
  readonly formatError = (error: unknown): GraphQLFormattedError => {
    const formatted = formatGraphQLError(error, { production: this.services.config.production, log: this.services.log });
    const scope = currentRequestScope();
    if (scope) scope.errorCode ??= formatted.extensions?.code as string | undefined;
    return formatted;
  };

  /** 6 (WebSocket): errors in the API's shape with the operation's request id. */
  formatErrors(errors: readonly unknown[], requestId: string): GraphQLFormattedError[] {
    const options = { production: this.services.config.production, log: this.services.log };
    return errors.map((e) => formatGraphQLError(e, options, requestId));
  }
}
