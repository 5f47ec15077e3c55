import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Logger } from '../core/logger';
import { currentRequestScope } from '../core/request-scope';

/** Codes of a request stream (or its socket) that the client closed: not a fault of the server. */
const ABORT_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/** The error a body reader gives when the client went away before the body was whole. */
export const clientAbort = () =>
  Object.assign(new Error('the client closed the request before its body arrived'), { code: 'ECONNABORTED' });

/**
 * Whether `err`, met while reading a request or writing its answer, means the client went away
 * (reset the connection, aborted the request): logged at info, never answered.
 */
export function isClientAbort(err: unknown, req: IncomingMessage): boolean {
  const e = err as { code?: unknown; type?: unknown } | null;
  if (e?.type === 'request.aborted') return true; // Express's body reader
  return typeof e?.code === 'string' && ABORT_CODES.has(e.code) && (req.destroyed || req.socket.destroyed || req.readableAborted);
}

/** Whether a request announces a body (a length above zero, or chunks). */
export const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * Holds a request's body to a deadline: a body that has not arrived whole `ms` after the request's
 * headers did is answered 408 (when nothing was answered yet) and its connection is closed, so a
 * client that trickles a body, or stops sending one, holds neither memory nor a socket for longer.
 * A body that is never read (the request was answered first) stops the clock as the answer ends.
 */
export function bodyDeadline(req: IncomingMessage, res: ServerResponse, ms: number): void {
  if (!hasBody(req) || req.complete) return;
  const timer = setTimeout(() => {
    if (req.complete) return;
    if (res.headersSent) return void req.socket.destroy();
    const message = `the request body did not arrive within ${ms} ms (BODY_TIMEOUT_MS)`;
    answerAndClose(res, 408, { errors: [{ message, extensions: { code: 'REQUEST_TIMEOUT', requestId: res.getHeader('x-request-id') } }] });
  }, ms);
  const stop = () => clearTimeout(timer);
  req.once('end', stop);
  res.once('close', stop);
}

/** Writes a JSON answer after which the connection is closed: the request's body, unread, is not waited for. */
export function answerAndClose(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.shouldKeepAlive = false;
  res.setHeader('Connection', 'close');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  // destroyed once written: whatever the client still sends is never read
  res.end(text, () => res.socket?.destroy());
}

/**
 * The answer to a caller refused before its body was read (no token, an unknown or revoked one, the
 * database unreachable to tell): the error as `format` shows it, with its HTTP status (401, 503; 500
 * for anything unexpected, which `format` logs).
 */
export function refusalBeforeBody(err: unknown, format: (e: unknown) => GraphQLFormattedError): { status: number; body: unknown } {
  const http = err instanceof GraphQLError ? (err.extensions.http as { status?: number } | undefined) : undefined;
  return { status: http?.status ?? 500, body: { errors: [format(err)] } };
}

/** A client that went away mid-body or mid-answer is no fault of the server's: at most one info line, no answer. */
export function logClientLeft(log: Logger, err: unknown, req: IncomingMessage, res: ServerResponse): void {
  const requestId = currentRequestScope()?.requestId;
  // after an answer of the server's own (408 for a body too slow) the closed request is no news
  if (!res.writableEnded)
    log.info({ requestId, method: req.method, path: req.url, reason: (err as { code?: string } | null)?.code }, 'client went away');
  res.destroy();
}
