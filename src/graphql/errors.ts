import { type ASTNode, GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError, httpStatusOf } from '../core/errors';
import type { Logger } from '../core/logger';
import { currentRequestScope } from '../core/request-scope';
import { quotaRefusalOf } from '../db/quota';
import { isDatabaseUnavailable } from '../db/unavailable';

/** A broken query limit: `GRAPHQL_VALIDATION_FAILED`, HTTP 400 (the same as the standard rules). */
export const limitError = (message: string, node?: ASTNode) =>
  new GraphQLError(message, { nodes: node, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } } });

/** The HTTP status of a response from its errors' codes (`SERVICE_UNAVAILABLE` 503, ...); undefined leaves it as it is. */
export function responseStatus(errors: readonly GraphQLFormattedError[] | undefined): number | undefined {
  const statuses = (errors ?? []).map((e) => httpStatusOf(e.extensions?.code)).filter((s): s is number => s !== undefined);
  return statuses.length ? Math.max(...statuses) : undefined;
}

const UNAVAILABLE = 'the database is unavailable right now; retry with backoff (writes with the same idempotencyKey)';

/** The database cannot be reached: `SERVICE_UNAVAILABLE`, HTTP 503, safe to retry. */
export const unavailableError = () => new GraphQLError(UNAVAILABLE, { extensions: { code: 'SERVICE_UNAVAILABLE', http: { status: 503 } } });

/** Bad input found before execution: `BAD_USER_INPUT` naming the input path, HTTP 400. */
export const badInputError = (field: string | undefined, message: string) =>
  new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', ...(field ? { field } : {}), http: { status: 400 } } });

/** Codes that GraphQL itself (parse, validate, coerce) produces and that are safe to show. */
const PASS_THROUGH = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'ROLE_CHANGED',
  'FELL_BEHIND',
  'SERVICE_UNAVAILABLE',
]);

// `Variable "$input" got invalid value 7 at "input.rating"; ...` -> input.rating
const VARIABLE_AT = /^Variable "\$([A-Za-z_]\w*)" got invalid value .*? at "([^"]+)"/s;
const VARIABLE = /^Variable "\$([A-Za-z_]\w*)"/;
// `Field "FeedbackInput.rating" ...` or `Argument "first" ...` in literal validation messages
const ARGUMENT = /^Argument "([A-Za-z_]\w*)"/;
const SUGGESTION = /\s*Did you mean [^?]*\?/g;

/** The input path a coercion or validation message names, if any. */
export function fieldOf(message: string): string | undefined {
  const at = VARIABLE_AT.exec(message);
  if (at) return at[2];
  return VARIABLE.exec(message)?.[1] ?? ARGUMENT.exec(message)?.[1];
}

function originalOf(error: unknown): unknown {
  let e = error;
  while (e instanceof GraphQLError && e.originalError && e.originalError !== e) e = e.originalError;
  return e;
}

export interface ErrorFormatting {
  production: boolean;
  log: Logger;
}

/**
 * One error as clients see it: `extensions.code` always, `extensions.field` for bad input,
 * `extensions.requestId` always. Unexpected errors are logged in full and masked.
 */
export function formatGraphQLError(
  error: unknown,
  opts: ErrorFormatting,
  requestId = currentRequestScope()?.requestId,
): GraphQLFormattedError {
  const gql = error instanceof GraphQLError ? error : null;
  const base: GraphQLFormattedError = {
    message: '',
    ...(gql?.locations ? { locations: gql.locations } : {}),
    ...(gql?.path ? { path: gql.path } : {}),
  };
  const original = originalOf(error);

  if (original instanceof AppError) {
    return {
      ...base,
      message: original.message,
      extensions: { code: original.code, ...(original.field ? { field: original.field } : {}), requestId },
    };
  }

  const code = gql?.extensions?.code;
  if (gql && original instanceof GraphQLError && typeof code === 'string' && PASS_THROUGH.has(code)) {
    const message = opts.production ? gql.message.replace(SUGGESTION, '') : gql.message;
    const field =
      (gql.extensions.field as string | undefined) ??
      (code === 'BAD_USER_INPUT' || code === 'GRAPHQL_VALIDATION_FAILED' ? fieldOf(gql.message) : undefined);
    const retryAfterMs = code === 'RATE_LIMITED' ? gql.extensions.retryAfterMs : undefined;
    return {
      ...base,
      message,
      extensions: { code, ...(field ? { field } : {}), ...(typeof retryAfterMs === 'number' ? { retryAfterMs } : {}), requestId },
    };
  }

  // graphql-js errors before execution (coercion, validation on WebSocket) carry no code and no path
  if (gql && original === gql && code === undefined && !gql.path) {
    const message = opts.production ? gql.message.replace(SUGGESTION, '') : gql.message;
    const field = fieldOf(gql.message);
    return {
      ...base,
      message,
      extensions: { code: field ? 'BAD_USER_INPUT' : 'GRAPHQL_VALIDATION_FAILED', ...(field ? { field } : {}), requestId },
    };
  }

  // a storage quota trigger refused a write: the transaction rolled back, nothing was written
  const quota = quotaRefusalOf(original);
  if (quota) {
    const { message, ...extensions } = quota;
    return {
      ...base,
      message: `${message}; delete data or ask for a larger quota`,
      extensions: { code: 'QUOTA_EXCEEDED', ...extensions, requestId },
    };
  }

  if (isDatabaseUnavailable(original)) {
    opts.log.warn({ err: original, path: gql?.path }, 'database unavailable');
    return { ...base, message: UNAVAILABLE, extensions: { code: 'SERVICE_UNAVAILABLE', requestId } };
  }

  opts.log.error({ err: original, path: gql?.path }, 'unexpected error');
  return {
    ...base,
    message: `Unexpected error; quote request id ${requestId} when reporting it`,
    extensions: { code: 'INTERNAL_SERVER_ERROR', requestId },
  };
}
