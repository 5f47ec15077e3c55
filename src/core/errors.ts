/** The error codes clients can rely on (SPEC 5). */
export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'BAD_USER_INPUT'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'INTERNAL_SERVER_ERROR';

const HTTP_STATUS: Partial<Record<ErrorCode, number>> = {
  UNAUTHENTICATED: 401,
};

/**
 * An expected failure. Services throw these; the GraphQL layer turns them into errors with
 * `extensions.code` (and `extensions.field` for bad input). Anything else is masked.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get httpStatus(): number | undefined {
    return HTTP_STATUS[this.code];
  }
}

export const badInput = (field: string, message: string) => new AppError('BAD_USER_INPUT', message, field);
export const notFound = (what: string, field?: string) => new AppError('NOT_FOUND', `${what} not found`, field);
export const forbidden = (message = 'your API key role may not do this') => new AppError('FORBIDDEN', message);
export const unauthenticated = (message: string) => new AppError('UNAUTHENTICATED', message);
export const conflict = (message: string, field?: string) => new AppError('CONFLICT', message, field);
