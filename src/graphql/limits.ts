import {
  type ASTVisitor,
  type DocumentNode,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  type GraphQLSchema,
  Lexer,
  Source,
  TokenKind,
  type ValidationContext,
} from 'graphql';
import { LIMITS } from '../core/limits';
import { checkComplexity } from './complexity';
import { badInputError, fieldOf, limitError } from './errors';
import { checkArguments } from './input-guard';
import { depthsOf } from './walk';

export { LIMITS };

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.PAREN_L, TokenKind.BRACKET_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.PAREN_R, TokenKind.BRACKET_R]);

/**
 * Checks the text of a document before it is parsed: at most `LIMITS.tokens` tokens and
 * `LIMITS.nesting` open brackets. The parser and the validation rules recurse on nesting and on
 * fragment chains; these bounds keep both far from the stack limit and their work small.
 */
export function checkSource(query: string): void {
  const lexer = new Lexer(new Source(query));
  let tokens = 0;
  let depth = 0;
  try {
    for (let t = lexer.advance(); t.kind !== TokenKind.EOF; t = lexer.advance()) {
      tokens += 1;
      if (tokens > LIMITS.tokens) throw limitError(`the document has more than ${LIMITS.tokens} tokens; pass large values as variables`);
      if (OPENING.has(t.kind) && ++depth > LIMITS.nesting) throw limitError(`the document nests brackets more than ${LIMITS.nesting} deep`);
      if (CLOSING.has(t.kind)) depth -= 1;
    }
  } catch (e) {
    if (e instanceof GraphQLError && e.extensions.code === 'GRAPHQL_VALIDATION_FAILED') throw e;
    // a syntax error: the parser reports it
  }
}

/** Refuses operations nested deeper than `max` fields. */
const depthLimit =
  (max: number) =>
  (context: ValidationContext): ASTVisitor => ({
    Document(doc) {
      for (const [name, depth] of depthsOf(doc).value) {
        if (depth > max)
          context.reportError(limitError(`query depth ${depth} exceeds the limit of ${max}`, getOperationAST(doc, name) ?? undefined));
      }
    },
  });

/** Refuses documents with more than `max` aliased fields. */
const aliasLimit =
  (max: number) =>
  (context: ValidationContext): ASTVisitor => {
    let count = 0;
    let reported = false;
    return {
      Field(node) {
        if (!node.alias) return;
        count += 1;
        if (count > max && !reported) {
          reported = true;
          context.reportError(limitError(`the document uses more than ${max} aliases`, node));
        }
      },
    };
  };

export const limitRules = [depthLimit(LIMITS.depth), aliasLimit(LIMITS.aliases)];

/**
 * What every operation goes through after validation, on HTTP and WebSocket alike: its variables
 * are coerced (a bad one is `BAD_USER_INPUT` naming it), every argument is checked (input
 * hygiene), and its cost is held to the limit. Throws a GraphQL error carrying its HTTP status;
 * returns the cost. Nothing has run yet, so a refused operation changes nothing.
 */
export function checkOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  rawVariables: Record<string, unknown> | null | undefined,
  operationName?: string | null,
): number {
  const operation = getOperationAST(document, operationName);
  if (!operation) return 0; // execution reports the missing or ambiguous operation
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables ?? {}, { maxErrors: 1 });
  if (coerced.errors) throw badInputError(fieldOf(coerced.errors[0].message), coerced.errors[0].message);
  try {
    checkArguments(schema, document, operation, coerced.coerced);
  } catch (e) {
    // an argument graphql-js itself cannot coerce (e.g. a required variable given null)
    if (e instanceof GraphQLError && e.extensions.code === undefined) throw badInputError(fieldOf(e.message), e.message);
    throw e;
  }
  return checkComplexity(schema, document, operation, coerced.coerced);
}
