import { performance } from 'node:perf_hooks';
import type { ApolloServerPlugin } from '@apollo/server';
import { getOperationAST, GraphQLError, type GraphQLFormattedError, OperationTypeNode } from 'graphql';
import { currentRequestScope } from '../core/request-scope';
import type { Context } from '../graphql/context.type';
import { responseStatus } from '../graphql/errors';
import { collapseTooLarge } from '../graphql/response-size';
import { checkOperation } from '../graphql/limits';
import type { Metrics } from './metrics';
import type { Spender } from './budgets';

/** What a subscription sent over HTTP is told: subscriptions are served over WebSocket only. */
const SUBSCRIPTION_OVER_HTTP =
  'subscriptions are served over WebSocket only: open a graphql-ws (graphql-transport-ws) connection to /graphql';

/**
 * The document names no operation to run: an unknown `operationName`, or none given for a document
 * of several. A caller's mistake (HTTP 400), said in graphql-js's words; logged at info.
 */
function unresolvedOperation(operationName: string | null | undefined): GraphQLError {
  const message = operationName
    ? `Unknown operation named "${operationName}".`
    : 'Must provide operation name if query contains multiple operations.';
  return new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400 } } });
}

/** Marks the request's log line as a caller's ordinary mistake, which needs no operator's attention. */
const callerMistake = () => {
  const scope = currentRequestScope();
  if (scope) scope.callerMistake = true;
};

/**
 * Apollo plugin: the document and operation limits, the operation's cost charged to the caller's
 * budgets (`charge`), and per-operation metrics. An operation the document does not have, and a
 * subscription (served over WebSocket only), are refused with a code before anything runs.
 */
export function operationPlugin(
  metrics: Metrics,
  charge: (viewer: Spender, cost: number, authorization: string | undefined) => Promise<void>,
  formatError: (error: unknown) => GraphQLFormattedError,
): ApolloServerPlugin<Context> {
  return {
    requestDidStart() {
      const started = performance.now();
      let operation = 'anonymous';
      return Promise.resolve({
        async didResolveOperation({ request, document, schema, operationName, contextValue }) {
          operation = operationName ?? 'anonymous';
          const scope = currentRequestScope();
          if (scope) scope.operationName = operation;
          const op = getOperationAST(document, request.operationName);
          if (!op) {
            callerMistake();
            throw unresolvedOperation(request.operationName);
          }
          if (op.operation === OperationTypeNode.SUBSCRIPTION) {
            callerMistake();
            throw new GraphQLError(SUBSCRIPTION_OVER_HTTP, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
          }
          const cost = checkOperation(schema, document, request.variables, operationName);
          await charge(contextValue.viewer, cost, request.http?.headers.get('authorization'));
        },
        willSendResponse({ response, operation: op }) {
          if (response.body.kind === 'single') {
            // a subscription over GET is refused by Apollo Server itself (405) before the hook above runs
            if (op?.operation === OperationTypeNode.SUBSCRIPTION && response.body.singleResult.data === undefined) {
              callerMistake();
              const refusal = new GraphQLError(SUBSCRIPTION_OVER_HTTP, { extensions: { code: 'BAD_REQUEST' } });
              response.body.singleResult = { errors: [formatError(refusal)] };
            }
            response.body.singleResult = collapseTooLarge(response.body.singleResult);
            response.http.status ??= responseStatus(response.body.singleResult.errors);
          }
          const ok = response.body.kind === 'single' && !response.body.singleResult.errors?.length;
          metrics.observe(operation, 'http', (performance.now() - started) / 1000, ok);
          return Promise.resolve();
        },
      });
    },
  };
}
