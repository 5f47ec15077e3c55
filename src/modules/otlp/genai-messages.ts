import type { Attrs, AttrValue } from './otlp-decode';

/** One turn read from a span: a role of the segment vocabulary, the text, and the tool call it answers. */
export interface Message {
  role: string;
  content: string;
  /** a tool result's call id, matched against `execute_tool` spans of the trace */
  callId?: string;
}

/** Longest text kept of one attribute or message; longer ones are cut and the cut recorded. */
const MAX_TEXT = 32_768;
/** Messages read from one span's input or output; more are left out and the cut recorded. */
const MAX_MESSAGES = 500;

const ROLES = new Map([
  ['user', 'user'],
  ['human', 'user'],
  ['assistant', 'assistant'],
  ['ai', 'assistant'],
  ['model', 'assistant'],
  ['system', 'system'],
  ['developer', 'system'],
  ['tool', 'tool'],
  ['function', 'tool'],
  ['ipython', 'tool'],
]);

/** A value as text: a string as it is, nothing as '', anything else as JSON. */
export const asText = (v: unknown): string => {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return v === null || v === undefined ? '' : (JSON.stringify(v) ?? '');
};

/** A message role as a segment role (an unknown one becomes `event`). */
const segmentRole = (role: unknown): string => ROLES.get(asText(role).toLowerCase()) ?? 'event';

/** Collects what was cut or kept raw while reading one span. */
export class Notes {
  readonly cut = new Set<string>();
  readonly raw = new Set<string>();

  text(what: string, v: unknown): string {
    const s = typeof v === 'string' ? v : v === null || v === undefined ? '' : JSON.stringify(v);
    if (s.length <= MAX_TEXT) return s;
    this.cut.add(what);
    return s.slice(0, MAX_TEXT);
  }

  list<T>(what: string, items: T[]): T[] {
    if (items.length <= MAX_MESSAGES) return items;
    this.cut.add(what);
    return items.slice(0, MAX_MESSAGES);
  }
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The text of one message part of the current conventions (`text`, `tool_call`, `tool_call_response`, others as JSON). */
function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  if (!isObj(part)) return '';
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return typeof part.content === 'string' ? part.content : JSON.stringify(part.content ?? '');
    case 'tool_call':
      return `[tool call ${asText(part.name)}] ${typeof part.arguments === 'string' ? part.arguments : JSON.stringify(part.arguments ?? {})}`;
    case 'tool_call_response':
      return typeof part.response === 'string' ? part.response : JSON.stringify(part.response ?? null);
    default:
      return typeof part.content === 'string' ? part.content : JSON.stringify(part);
  }
}

/** One message object: current (`parts`), OpenAI-like (`content`, `tool_calls`) or an older event body. */
function messageOf(m: unknown, fallbackRole: string, notes: Notes, what: string): Message | null {
  if (!isObj(m)) return typeof m === 'string' ? { role: fallbackRole, content: notes.text(what, m) } : null;
  const inner = isObj(m.message) ? m.message : m;
  const role = segmentRole(inner.role ?? fallbackRole);
  const parts = Array.isArray(inner.parts) ? inner.parts : null;
  let content: string;
  let callId: string | undefined;
  if (parts) {
    content = parts
      .map(partText)
      .filter((t) => t !== '')
      .join('\n');
    const response = parts.find((p) => isObj(p) && p.type === 'tool_call_response') as Json | undefined;
    if (response?.id !== undefined) callId = asText(response.id);
  } else {
    content =
      typeof inner.content === 'string'
        ? inner.content
        : inner.content === undefined || inner.content === null
          ? ''
          : JSON.stringify(inner.content);
    const calls = Array.isArray(inner.tool_calls) ? inner.tool_calls : [];
    for (const c of calls) {
      const fn = isObj(c) && isObj(c.function) ? c.function : (c as Json);
      content += `${content ? '\n' : ''}[tool call ${asText(fn?.name)}] ${typeof fn?.arguments === 'string' ? fn.arguments : JSON.stringify(fn?.arguments ?? {})}`;
    }
    const id = inner.tool_call_id ?? inner.id;
    if (role === 'tool' && id !== undefined) callId = asText(id);
  }
  return { role, content: notes.text(what, content), ...(callId ? { callId } : {}) };
}

/**
 * The messages of an attribute holding a JSON array of messages (or a structured array). Text that
 * is not JSON is kept raw, as one message of `fallbackRole`, and the attribute noted.
 */
export function messagesOf(key: string, v: AttrValue | undefined, fallbackRole: string, notes: Notes): Message[] {
  if (v === undefined || v === null || v === '') return [];
  let parsed: unknown = v;
  if (typeof v === 'string') {
    try {
      parsed = JSON.parse(v);
    } catch {
      notes.raw.add(key);
      return [{ role: fallbackRole, content: notes.text(key, v) }];
    }
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return notes.list(key, list).flatMap((m) => messageOf(m, fallbackRole, notes, key) ?? []);
}

/** Instructions (`gen_ai.system_instructions`): one system message of their parts. */
export function instructionsOf(v: AttrValue | undefined, notes: Notes): Message[] {
  if (v === undefined || v === null || v === '') return [];
  let parsed: unknown = v;
  if (typeof v === 'string') {
    try {
      parsed = JSON.parse(v);
    } catch {
      return [{ role: 'system', content: notes.text('gen_ai.system_instructions', v) }];
    }
  }
  const parts = Array.isArray(parsed) ? parsed : [parsed];
  return [{ role: 'system', content: notes.text('gen_ai.system_instructions', parts.map(partText).join('\n')) }];
}

/**
 * Messages flattened into indexed attributes: `<prefix>.<i>.role` and `.content` (OpenLLMetry's
 * `gen_ai.prompt.0.role`) or `<prefix>.<i>.message.role` (OpenInference's `llm.input_messages.0.message.role`).
 */
export function indexedMessages(attrs: Attrs, prefix: string, fallbackRole: string, notes: Notes): Message[] {
  const byIndex = new Map<number, { role?: AttrValue; content?: AttrValue; callId?: AttrValue }>();
  const head = `${prefix}.`;
  for (const [key, value] of Object.entries(attrs)) {
    if (!key.startsWith(head)) continue;
    const m = /^(\d+)\.(?:message\.)?(role|content|tool_call_id)$/.exec(key.slice(head.length));
    if (!m) continue;
    const i = Number(m[1]);
    const entry = byIndex.get(i) ?? {};
    if (m[2] === 'role') entry.role = value;
    else if (m[2] === 'content') entry.content = value;
    else entry.callId = value;
    byIndex.set(i, entry);
  }
  const ordered = [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, e]) => e);
  return notes.list(prefix, ordered).map((e) => ({
    role: segmentRole(e.role ?? fallbackRole),
    content: notes.text(prefix, e.content ?? ''),
    ...(e.callId !== undefined && e.callId !== null ? { callId: asText(e.callId) } : {}),
  }));
}

const EVENT_ROLES = new Map([
  ['gen_ai.system.message', 'system'],
  ['gen_ai.user.message', 'user'],
  ['gen_ai.assistant.message', 'assistant'],
  ['gen_ai.tool.message', 'tool'],
  ['gen_ai.choice', 'assistant'],
]);

/**
 * The messages of the older conventions (v1.36 and earlier), sent as span events: one event per
 * input message (`gen_ai.user.message` ...) and `gen_ai.choice` per output, their body in the
 * event's attributes (`content`, `message`, or the whole body as JSON in `gen_ai.event.content`);
 * and the still older `gen_ai.content.prompt` / `gen_ai.content.completion` events.
 */
export function eventMessages(events: { name: string; attributes: Attrs }[], notes: Notes): { input: Message[]; output: Message[] } {
  const input: Message[] = [];
  const output: Message[] = [];
  for (const e of events) {
    const a = e.attributes;
    if (e.name === 'gen_ai.content.prompt') input.push(...messagesOf('gen_ai.prompt', a['gen_ai.prompt'], 'user', notes));
    else if (e.name === 'gen_ai.content.completion')
      output.push(...messagesOf('gen_ai.completion', a['gen_ai.completion'], 'assistant', notes));
    else if (EVENT_ROLES.has(e.name)) {
      const role = EVENT_ROLES.get(e.name)!;
      let body: unknown = a;
      if (typeof a['gen_ai.event.content'] === 'string') {
        try {
          body = JSON.parse(a['gen_ai.event.content']);
        } catch {
          notes.raw.add(e.name);
          body = { content: a['gen_ai.event.content'] };
        }
      } else if (typeof a.message === 'string') {
        try {
          body = { message: JSON.parse(a.message) as unknown };
        } catch {
          notes.raw.add(e.name);
          body = { content: a.message };
        }
      }
      const m = messageOf(isObj(body) && !('role' in body) && !isObj(body.message) ? { ...body, role } : body, role, notes, e.name);
      if (m) (e.name === 'gen_ai.choice' ? output : input).push(m);
    }
  }
  return { input: notes.list('events', input), output: notes.list('events', output) };
}
