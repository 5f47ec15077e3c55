import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { NextFunction, Request, Response } from 'express';
import { newRequestId, runInRequestScope, type RequestScope } from '../core/request-scope';
import type { Logger } from '../core/logger';
import type { Metrics } from './metrics';

const ROUTES = new Set(['/graphql', '/healthz', '/readyz', '/metrics', '/v1/traces']);
/** Codes that say the service, not the caller, failed. */
const SERVER_FAULTS = new Set(['INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE']);

/**
 * The level of a request's log line: error for a server fault, warn for a refused or failed request,
 * info otherwise (and for a caller's ordinary mistake, such as an unknown operation name).
 */
function requestLogLevel(status: number, code: string | undefined, callerMistake = false): 'error' | 'warn' | 'info' {
  if (callerMistake && status < 500) return 'info';
  if (status >= 500 || (code !== undefined && SERVER_FAULTS.has(code))) return 'error';
  if (status >= 400 || code !== undefined) return 'warn';
  return 'info';
}

/**
 * Gives a request its id (the caller's `x-request-id` when it looks like one) and, when it is
 * answered, one log line with its status, operation, the code of its first error and its time.
 * Returns the request's scope, which the caller runs the request's work in.
 */
export function logRequest(log: Logger, metrics: Metrics, req: IncomingMessage, res: ServerResponse, path: string): RequestScope {
  const requestId = newRequestId(req.headers['x-request-id']);
  res.setHeader('x-request-id', requestId);
  const started = performance.now();
  const scope: RequestScope = { requestId };
  res.on('finish', () => {
    metrics.httpRequests.inc({ route: ROUTES.has(path) ? path : 'other', status: String(res.statusCode) });
    const { operationName: operation, errorCode: code } = scope;
    const level = requestLogLevel(res.statusCode, code, scope.callerMistake);
    // the line's fields are gathered only when its level is written
    if (!log.isLevelEnabled(level)) return;
    log[level](
      { requestId, method: req.method, path, status: res.statusCode, operation, code, ms: Math.round(performance.now() - started) },
      'request',
    );
  });
  return scope;
}

/** `logRequest` as Express middleware: the rest of the request runs in its scope. */
export function requestLog(log: Logger, metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction) => {
    // routers rewrite req.path on the way down
    const scope = logRequest(log, metrics, req, res, req.path);
    runInRequestScope(scope, () => next());
  };
}
