import type { ServerResponse } from 'node:http';
import { type ExecutionResult, GraphQLError, type GraphQLFormattedError, Kind } from 'graphql';
import { responseStatus } from '../graphql/errors';
import { collapseTooLarge } from '../graphql/response-size';
import { endWithText } from './answer-write';

/**
 * The answer to a GraphQL request over HTTP, shaped as Apollo Server shapes it (status, headers in
 * their order, body), for the requests the server answers without it (./direct-post.ts).
 */
export interface GraphqlAnswer {
  status: number;
  /** lower-case names, in the order they are written; `content-length` is added when written */
  headers: [string, string][];
  /** the body's value, written as JSON with a newline */
  payload: { errors?: readonly GraphQLFormattedError[]; data?: unknown; extensions?: unknown };
  /** the answer carries no error */
  ok: boolean;
}

type Format = (error: unknown) => GraphQLFormattedError;

/** What Apollo Server answers a single result with, by the request's Accept value: the common values only. */
const JSON_TYPE = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json; charset=utf-8';
const CONTENT_TYPES = new Map<string, string>([
  ['', JSON_TYPE],
  ['*/*', JSON_TYPE],
  ['application/json', JSON_TYPE],
  ['application/json, */*', JSON_TYPE],
  ['application/json, text/plain, */*', JSON_TYPE],
  ['application/graphql-response+json', GRAPHQL_RESPONSE_TYPE],
  ['application/graphql-response+json, application/json', GRAPHQL_RESPONSE_TYPE],
  ['application/graphql-response+json, application/json;q=0.9', GRAPHQL_RESPONSE_TYPE],
]);

/** The content type of a single result for an Accept value, or undefined for a value not in the table. */
export const contentTypeFor = (accept: string | undefined): string | undefined => CONTENT_TYPES.get(accept ?? '');

/** Any thrown value as a GraphQL error (an Error's message kept, anything else described). */
export function asGraphqlError(err: unknown): GraphQLError {
  if (err instanceof GraphQLError) return err;
  if (err instanceof Error) return new GraphQLError(err.message, { originalError: err });
  return new GraphQLError(`Unexpected error value: ${String(err)}`);
}

interface HttpHead {
  status?: number;
  headers?: Map<string, string>;
}
const isHttpHead = (x: unknown): x is HttpHead =>
  !!x && typeof x === 'object' && (!('status' in x) || typeof x.status === 'number') && (!('headers' in x) || x.headers instanceof Map);

/** Errors in the API's shape, and the status and headers their `extensions.http` ask for. */
function formatErrors(errors: readonly unknown[], format: Format) {
  let status: number | undefined;
  const headers = new Map<string, string>();
  const formatted = errors.map((error): GraphQLFormattedError => {
    try {
      const http = asGraphqlError(error).extensions.http;
      if (isHttpHead(http)) {
        if (http.status) status = http.status;
        for (const [name, value] of http.headers ?? []) headers.set(name, value);
      }
      return format(error);
    } catch {
      return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    }
  });
  return { formatted, status, headers };
}

/** A variable's value graphql-js could not coerce, without a code of its own: BAD_USER_INPUT. */
function withInputCode(e: GraphQLError): GraphQLError {
  const node = e.nodes?.length === 1 ? e.nodes[0] : undefined;
  if (node?.kind !== Kind.VARIABLE_DEFINITION || e.extensions.code != null) return e;
  const v = `Variable "$${node.variable.name.value}"`;
  const coercion = [' has invalid value', ' got invalid value ', ' of required type ', ' of non-null type '];
  if (!coercion.some((words) => e.message.startsWith(v + words))) return e;
  const extensions = { ...e.extensions, code: 'BAD_USER_INPUT' };
  return new GraphQLError(e.message, { nodes: e.nodes, originalError: e.originalError ?? e, extensions });
}

function answer(
  result: { errors?: readonly GraphQLFormattedError[]; data?: unknown; extensions?: unknown },
  status: number | undefined,
  headers: Map<string, string>,
  contentType: string,
): GraphqlAnswer {
  const shaped = collapseTooLarge(result as ExecutionResult & { errors?: readonly GraphQLFormattedError[] });
  return {
    status: status ?? (shaped.errors ? responseStatus(shaped.errors) : undefined) ?? 200,
    headers: [...headers, ['content-type', contentType]],
    payload: { errors: shaped.errors, data: shaped.data, extensions: shaped.extensions },
    ok: !shaped.errors?.length,
  };
}

/** The answer to an executed operation: its errors formatted, a variable that could not be coerced 400. */
export function resultAnswer(result: ExecutionResult, format: Format, contentType: string): GraphqlAnswer {
  if (!result.errors) return answer(result, undefined, new Map(), contentType);
  const errors = result.errors.map(withInputCode);
  const { formatted, status, headers } = formatErrors(errors, format);
  const coercion = errors.length > 0 && result.data === undefined && !status;
  return answer({ ...result, errors: formatted }, coercion ? 400 : status, headers, contentType);
}

/** The answer to a request refused or failed before or while executing: its errors, 500 unless they say otherwise. */
export function errorAnswer(errors: readonly unknown[], format: Format, contentType: string): GraphqlAnswer {
  const { formatted, status, headers } = formatErrors(errors, format);
  return answer({ errors: formatted }, status || 500, headers, contentType);
}

/**
 * Writes an answer with its length: its text from `text` (JSON with a newline, a large answer in
 * slices, see ../core/json-in-turns.ts) and written `charsPerTurn` characters at a time (./answer-write.ts).
 */
export async function writeAnswer(
  res: ServerResponse,
  a: GraphqlAnswer,
  text: (payload: GraphqlAnswer['payload']) => Promise<string>,
  charsPerTurn: number,
): Promise<void> {
  const body = await text(a.payload);
  for (const [name, value] of a.headers) res.setHeader(name, value);
  res.statusCode = a.status;
  await endWithText(res, body, charsPerTurn);
}
