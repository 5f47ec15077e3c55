import {
  type DocumentNode,
  type FieldNode,
  getArgumentValues,
  getNamedType,
  getNullableType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLSchema,
  isInputObjectType,
  isListType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { decodeCursor } from '../core/cursor';
import { AppError } from '../core/errors';
import { INPUT_LIMITS } from '../core/input-limits';
import { badInputError } from './errors';

// an unpaired surrogate: a high one not followed by a low one, or a low one not after a high one
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function checkString(value: string, path: string, maxLength: number): void {
  if (value.includes('\u0000')) throw badInputError(path, `${path} must not contain NUL characters`);
  if (LONE_SURROGATE.test(value)) throw badInputError(path, `${path} must be well-formed Unicode (it holds an unpaired surrogate)`);
  if (value.length > maxLength) throw badInputError(path, `${path} must be at most ${maxLength} characters`);
}

function checkNumber(value: number, path: string): void {
  if (!Number.isFinite(value) || Math.abs(value) > INPUT_LIMITS.floatMagnitude) {
    throw badInputError(path, `${path} must be a finite number of magnitude at most ${INPUT_LIMITS.floatMagnitude}`);
  }
}

/** A JSON value: depth, well-formed strings (keys too), finite numbers. Recursion stops at the depth limit. */
function checkJson(value: unknown, path: string, depth: number): void {
  if (typeof value === 'string') return checkString(value, path, Infinity);
  if (typeof value === 'number') return checkNumber(value, path);
  if (value === null || typeof value !== 'object') return;
  if (depth >= INPUT_LIMITS.jsonDepth) throw badInputError(path, `${path} nests JSON more than ${INPUT_LIMITS.jsonDepth} deep`);
  for (const [k, v] of Object.entries(value)) {
    if (!Array.isArray(value)) checkString(k, path, Infinity);
    checkJson(v, path, depth + 1);
  }
}

/** One coerced value against its input type; `path` names it as `extensions.field` does. */
function checkValue(value: unknown, type: GraphQLInputType, path: string, maxLength: number): void {
  if (value === null || value === undefined) return;
  const t = getNullableType(type);
  if (isListType(t)) {
    // a list of numbers (an embedding) is one value: its path names the list
    const numbers = getNamedType(t).name === 'Float' || getNamedType(t).name === 'Int';
    (value as unknown[]).forEach((v, i) => checkValue(v, t.ofType, numbers ? path : `${path}.${i}`, maxLength));
  } else if (isInputObjectType(t)) {
    for (const field of Object.values(t.getFields()))
      checkValue((value as Record<string, unknown>)[field.name], field.type, `${path}.${field.name}`, maxLengthOf(field));
  } else if (isScalarType(t)) {
    if (t.name === 'JSON' || t.name === 'JSONObject') checkJson(value, path, 0);
    else if (typeof value === 'string') checkString(value, path, maxLength);
    else if (typeof value === 'number') checkNumber(value, path);
  }
}

/** The `after` of a connection field must be a cursor this API wrote (it reaches SQL as a time and an id). */
function checkCursor(field: GraphQLField<unknown, unknown>, arg: GraphQLArgument, value: unknown): void {
  if (arg.name !== 'after' || typeof value !== 'string' || !getNamedType(field.type).name.endsWith('Connection')) return;
  try {
    decodeCursor(value, arg.name);
  } catch (e) {
    if (e instanceof AppError) throw badInputError(e.field, e.message);
    throw e;
  }
}

const maxLengthOf = (def: GraphQLArgument | GraphQLInputField): number =>
  (def.extensions?.maxLength as number | undefined) ?? INPUT_LIMITS.stringLength;

interface FieldWithArguments {
  field: GraphQLField<unknown, unknown>;
  node: FieldNode;
  /** the operation or fragment it is written in */
  definition: string;
}

/** The fields of a document that take arguments, found once per document (a linear visit). */
const argumentFields = new WeakMap<DocumentNode, FieldWithArguments[]>();

function fieldsWithArguments(schema: GraphQLSchema, document: DocumentNode): FieldWithArguments[] {
  let found = argumentFields.get(document);
  if (found) return found;
  found = [];
  const typeInfo = new TypeInfo(schema);
  let definition = '';
  const list = found;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      OperationDefinition: (node) => void (definition = `operation ${node.name?.value ?? ''}`),
      FragmentDefinition: (node) => void (definition = `fragment ${node.name.value}`),
      Field(node) {
        const field = typeInfo.getFieldDef();
        if (field && node.arguments?.length) list.push({ field, node, definition });
      },
    }),
  );
  argumentFields.set(document, found);
  return found;
}

/** What `reachable` found, per operation node of a cached document. */
const reached = new WeakMap<OperationDefinitionNode, Set<string>>();

/** The operation and the fragments it reaches, as `fieldsWithArguments` names them; found once per operation of a document. */
function reachable(document: DocumentNode, operation: OperationDefinitionNode): Set<string> {
  let names = reached.get(operation);
  if (!names) reached.set(operation, (names = reach(document, operation)));
  return names;
}

function reach(document: DocumentNode, operation: OperationDefinitionNode): Set<string> {
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const names = new Set([`operation ${operation.name?.value ?? ''}`]);
  const queue = [operation.selectionSet];
  while (queue.length) {
    visit(queue.pop()!, {
      FragmentSpread(spread) {
        const key = `fragment ${spread.name.value}`;
        const fragment = fragments.get(spread.name.value);
        if (fragment && !names.has(key)) {
          names.add(key);
          queue.push(fragment.selectionSet);
        }
      },
    });
  }
  return names;
}

/**
 * Every argument of the operation, written in the document or passed as a variable, checked in
 * this one place before anything runs: strings without NUL or unpaired surrogates and within their
 * length cap (`INPUT_LIMITS.stringLength` unless the input field sets a larger one), JSON within
 * its depth, numbers finite and within range, and the `after` of a connection a cursor this API wrote. Throws `BAD_USER_INPUT` naming the input path.
 */
export function checkArguments(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): void {
  const fields = fieldsWithArguments(schema, document);
  if (fields.length === 0) return;
  const names = reachable(document, operation);
  for (const { field, node, definition } of fields) {
    if (!names.has(definition)) continue;
    const values = getArgumentValues(field, node, variables);
    for (const arg of field.args) {
      checkValue(values[arg.name], arg.type, arg.name, maxLengthOf(arg));
      checkCursor(field, arg, values[arg.name]);
    }
  }
}
