/**
 * Errors as they are logged: never a bound value, a token or a token hash. Database errors carry
 * their statement with the values written in (MikroORM inlines parameters, the driver prefixes the
 * statement to the message) and details such as `Key (token_hash)=(...)`; they are logged as the
 * statement text with every literal replaced by `?`, the server's message with quoted values
 * replaced, and the SQLSTATE and names of the table, column and constraint. Other errors keep their
 * message and stack.
 */

// a string literal ('' escapes, optional E prefix) or a number not part of a name
const SQL_LITERAL = /(?:\b[Ee])?'(?:[^']|'')*'|(?<![\w$.])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b/g;
// `invalid input syntax for type uuid: "abc"`: the value after a colon
const QUOTED_VALUE = /: "(?:[^"\\]|\\.)*"/g;
const KEPT = ['code', 'sqlState', 'severity', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'] as const;

const isDatabaseError = (err: Record<string, unknown>) =>
  (typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code)) ||
  typeof err.sqlState === 'string' ||
  /Exception$/.test(String(err.name));

/** `<statement> - <server message>` (the driver's format) into its parts, values taken out. */
function splitStatement(message: string): { statement?: string; message: string } {
  const head = message.split('\n - ')[0]; // MikroORM appends `\n - detail: ...` and `\n - hint: ...`
  const at = head.lastIndexOf(' - ');
  const server = (at >= 0 ? head.slice(at + 3) : head).replace(QUOTED_VALUE, ': "?"');
  return at >= 0 ? { statement: head.slice(0, at).replace(SQL_LITERAL, '?'), message: server } : { message: server };
}

export function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const e = err as unknown as Record<string, unknown>;
  const stackFrames = (err.stack ?? '').split('\n').filter((l) => l.trimStart().startsWith('at '));
  if (!isDatabaseError(e)) return { type: err.name, message: err.message, stack: err.stack };
  const { statement, message } = splitStatement(err.message);
  const out: Record<string, unknown> = { type: err.name, message, ...(statement ? { statement } : {}) };
  for (const k of KEPT) if (typeof e[k] === 'string' || typeof e[k] === 'number') out[k] = e[k];
  out.stack = [`${err.name}: ${message}`, ...stackFrames].join('\n');
  return out;
}
