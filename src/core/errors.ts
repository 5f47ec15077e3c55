/** The error codes clients can rely on (`extensions.code`). */
export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'BAD_USER_INPUT'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'RESPONSE_TOO_LARGE'
  | 'SERVICE_UNAVAILABLE'
  | 'EMBEDDINGS_UNAVAILABLE'
  | 'INTERNAL_SERVER_ERROR';

const HTTP_STATUS: Partial<Record<ErrorCode, number>> = {
  UNAUTHENTICATED: 401,
  RESPONSE_TOO_LARGE: 400,
  SERVICE_UNAVAILABLE: 503,
};

/** The HTTP status a response with an error of this code answers with (200 when none is set). */
export const httpStatusOf = (code: unknown): number | undefined => HTTP_STATUS[code as ErrorCode];

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
    return httpStatusOf(this.code);
  }
}

export const badInput = (field: string, message: string) => new AppError('BAD_USER_INPUT', message, field);
export const notFound = (what: string, field?: string) => new AppError('NOT_FOUND', `${what} not found`, field);
export const forbidden = (message = 'your API key role may not do this') => new AppError('FORBIDDEN', message);
export const conflict = (message: string, field?: string) => new AppError('CONFLICT', message, field);

/** The service cannot start for a reason a person can fix (a busy port): one sentence, exit code 2. */
export class StartupError extends Error {
  override name = 'StartupError';
}
