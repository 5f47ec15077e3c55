import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { templateRows } from '../../db/typed-sql';

/** Memory tools an organization may name, and the longest name. */
const MAX_MEMORY_TOOLS = 50;
const MAX_TOOL_NAME = 200;
/** Fact ids read from one tool result. */
const MAX_IDS = 1000;

/** Checks a list of memory tool names; returns the message of the first problem. */
export function memoryToolsProblem(names: string[]): string | null {
  if (names.length > MAX_MEMORY_TOOLS) return `at most ${MAX_MEMORY_TOOLS} memory tools`;
  for (const n of names) {
    if (n.trim() === '') return 'a memory tool name must not be blank';
    if (n.length > MAX_TOOL_NAME) return `a memory tool name is at most ${MAX_TOOL_NAME} characters`;
  }
  return null;
}

/** Sets an organization's memory tools (an empty list: none); returns them as stored. */
export async function setMemoryTools(em: EntityManager, orgId: string, names: string[]): Promise<string[]> {
  const problem = memoryToolsProblem(names);
  if (problem) throw new RangeError(problem);
  const unique = [...new Set(names)];
  const [row] = await templateRows(
    em,
    raw<{ memory_tools: string[] }>`INSERT INTO org_otlp_settings (org_id, memory_tools) VALUES (${orgId}::uuid, ${unique}::text[])
      ON CONFLICT (org_id) DO UPDATE SET memory_tools = excluded.memory_tools RETURNING memory_tools`,
  );
  return row.memory_tools;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
/** Fields of a result object that may hold its list of items, in the order they are looked at. */
const LIST_FIELDS = ['facts', 'results', 'documents', 'memories', 'items'];
/** Fields of an item that may hold its fact id, in the order they are looked at. */
const ID_FIELDS = ['factId', 'fact_id', 'id', 'externalId', 'external_id'];

const idOf = (item: unknown): string | null => {
  if (typeof item === 'string') return item.trim() === '' ? null : item;
  if (typeof item === 'number' && Number.isFinite(item)) return String(item);
  if (!isObj(item)) return null;
  if (isObj(item.fact)) return idOf(item.fact);
  for (const f of ID_FIELDS) {
    const v = item[f];
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return null;
};

/**
 * The fact ids a memory tool's result carries, in order, duplicates removed (at most 1,000). The
 * result is read as JSON: its items are the value itself when it is an array, else the first array
 * among its fields `facts`, `results`, `documents`, `memories`, `items`. An item that is a string (or
 * a number) is an id; an object item gives its `fact` object's id, else the first of `factId`,
 * `fact_id`, `id`, `externalId`, `external_id` that it has. A result that is not JSON, or has no
 * such list, carries no ids.
 */
export function toolResultFactIds(result: string | undefined): string[] {
  if (result === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(result);
  } catch {
    return [];
  }
  let items: unknown[] | null = Array.isArray(parsed) ? parsed : null;
  if (!items && isObj(parsed)) {
    const field = LIST_FIELDS.find((f) => Array.isArray(parsed[f]));
    items = field ? (parsed[field] as unknown[]) : null;
  }
  if (!items) return [];
  const ids = new Set<string>();
  for (const item of items) {
    const id = idOf(item);
    if (id !== null) ids.add(id.slice(0, 500));
    if (ids.size >= MAX_IDS) break;
  }
  return [...ids];
}

/**
 * The query of a memory tool call, for its memory trace: the arguments' `query` (or `question`,
 * `text`) when they are a JSON object with such a string, else the arguments as sent.
 */
export function toolCallQuery(args: string | undefined): string | undefined {
  if (args === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(args);
    if (isObj(parsed)) for (const f of ['query', 'question', 'text']) if (typeof parsed[f] === 'string') return parsed[f];
  } catch {
    // not JSON: the arguments as they are
  }
  return args;
}
