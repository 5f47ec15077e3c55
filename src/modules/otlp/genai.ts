import { asText, eventMessages, indexedMessages, instructionsOf, type Message, messagesOf, Notes } from './genai-messages';
import type { Attrs, AttrValue, SpanIn } from './otlp-decode';

/**
 * What the episode mapping keeps of one GenAI span (stored in `otlp_spans.record` while the trace
 * is open): short keys, no attribute that the mapping does not read.
 */
export interface SpanRecord {
  span: string;
  parent: string;
  name: string;
  start: number;
  end: number;
  /** invoke_agent, chat, execute_tool, retrieval, or another GenAI operation */
  op: string;
  agent?: string;
  conversation?: string;
  service?: string;
  input: Message[];
  output: Message[];
  tool?: { name: string; callId?: string; arguments?: string; result?: string };
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  finishReasons?: string[];
  error?: { type: string; message: string };
  /** a retrieval's query and the ids of the documents it returned */
  retrieval?: { query?: string; documentIds: string[] };
  /** attributes cut to MAX_TEXT or MAX_MESSAGES */
  cut?: string[];
  /** message attributes that were not JSON, kept as raw text */
  raw?: string[];
}

const OPENINFERENCE_OPS = new Map([
  ['AGENT', 'invoke_agent'],
  ['LLM', 'chat'],
  ['TOOL', 'execute_tool'],
  ['RETRIEVER', 'retrieval'],
  ['EMBEDDING', 'embeddings'],
  ['CHAIN', 'chain'],
]);

const str = (v: AttrValue | undefined): string | undefined =>
  v === undefined || v === null ? undefined : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
const int = (v: AttrValue | undefined): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Whether a span follows the GenAI conventions or OpenInference: any `gen_ai.*`, `llm.*` or `openinference.*` attribute or `gen_ai.*` event. */
export function isGenAi(s: SpanIn): boolean {
  for (const key in s.attributes) if (key.startsWith('gen_ai.') || key.startsWith('llm.') || key.startsWith('openinference.')) return true;
  return s.events.some((e) => e.name.startsWith('gen_ai.'));
}

function operationOf(a: Attrs, hasMessages: boolean): string {
  const op = str(a['gen_ai.operation.name']);
  if (op) return op;
  const kind = OPENINFERENCE_OPS.get(str(a['openinference.span.kind'])?.toUpperCase() ?? '');
  if (kind) return kind;
  if (a['gen_ai.tool.name'] !== undefined) return 'execute_tool';
  return hasMessages ? 'chat' : 'other';
}

/** Document ids of a retrieval: `gen_ai.retrieval.documents` (JSON array of `{id}`) or OpenInference's `retrieval.documents.<i>.document.id`. */
function documentIds(a: Attrs): string[] {
  const ids: string[] = [];
  const docs = a['gen_ai.retrieval.documents'];
  let list: unknown = docs;
  if (typeof docs === 'string') {
    try {
      list = JSON.parse(docs);
    } catch {
      list = [];
    }
  }
  if (Array.isArray(list)) for (const d of list) if (d && typeof d === 'object' && 'id' in d) ids.push(asText((d as { id: unknown }).id));
  for (const [key, value] of Object.entries(a))
    if (/^retrieval\.documents\.\d+\.document\.id$/.test(key) && value !== null) ids.push(asText(value));
  return [...new Set(ids)].slice(0, 1000);
}

/** The record of a GenAI span (see `isGenAi`). */
export function spanRecord(s: SpanIn): SpanRecord {
  const a = s.attributes;
  const notes = new Notes();
  const input: Message[] = [
    ...instructionsOf(a['gen_ai.system_instructions'], notes),
    ...messagesOf('gen_ai.input.messages', a['gen_ai.input.messages'], 'user', notes),
    ...indexedMessages(a, 'gen_ai.prompt', 'user', notes),
    ...indexedMessages(a, 'llm.input_messages', 'user', notes),
  ];
  const output: Message[] = [
    ...messagesOf('gen_ai.output.messages', a['gen_ai.output.messages'], 'assistant', notes),
    ...indexedMessages(a, 'gen_ai.completion', 'assistant', notes),
    ...indexedMessages(a, 'llm.output_messages', 'assistant', notes),
  ];
  const events = eventMessages(s.events, notes);
  input.push(...events.input);
  output.push(...events.output);
  const op = operationOf(a, input.length + output.length > 0);
  const r: SpanRecord = {
    span: s.spanId,
    parent: s.parentSpanId,
    name: notes.text('name', s.name),
    start: s.startMs,
    end: s.endMs,
    op,
    input,
    output,
  };
  const agent = str(a['gen_ai.agent.name']) ?? str(a['gen_ai.agent.id']) ?? str(a['agent.name']);
  if (agent) r.agent = notes.text('gen_ai.agent.name', agent).slice(0, 200);
  const conversation = str(a['gen_ai.conversation.id']) ?? str(a['session.id']);
  if (conversation) r.conversation = conversation.slice(0, 200);
  const service = str(s.resource['service.name']);
  if (service) r.service = service.slice(0, 200);
  if (op === 'execute_tool') {
    const name = str(a['gen_ai.tool.name']) ?? str(a['tool.name']) ?? s.name;
    r.tool = { name: notes.text('gen_ai.tool.name', name).slice(0, 200) };
    const callId = str(a['gen_ai.tool.call.id']);
    if (callId) r.tool.callId = callId;
    const args = str(a['gen_ai.tool.call.arguments']) ?? str(a['tool.parameters']) ?? str(a['input.value']);
    if (args !== undefined) r.tool.arguments = notes.text('gen_ai.tool.call.arguments', args);
    const result = str(a['gen_ai.tool.call.result']) ?? str(a['output.value']);
    if (result !== undefined) r.tool.result = notes.text('gen_ai.tool.call.result', result);
  }
  if (op === 'retrieval') {
    const query = str(a['gen_ai.retrieval.query.text']) ?? str(a['input.value']);
    r.retrieval = { documentIds: documentIds(a), ...(query !== undefined ? { query: notes.text('retrieval query', query) } : {}) };
  }
  const model = str(a['gen_ai.response.model']) ?? str(a['gen_ai.request.model']) ?? str(a['llm.model_name']);
  if (model) r.model = model.slice(0, 200);
  const inTokens = int(a['gen_ai.usage.input_tokens']) ?? int(a['gen_ai.usage.prompt_tokens']) ?? int(a['llm.token_count.prompt']);
  if (inTokens !== undefined) r.inputTokens = inTokens;
  const outTokens =
    int(a['gen_ai.usage.output_tokens']) ?? int(a['gen_ai.usage.completion_tokens']) ?? int(a['llm.token_count.completion']);
  if (outTokens !== undefined) r.outputTokens = outTokens;
  const finish = a['gen_ai.response.finish_reasons'];
  if (Array.isArray(finish)) r.finishReasons = finish.map(String).slice(0, 20);
  else if (typeof finish === 'string') r.finishReasons = [finish];
  const errorType = str(a['error.type']);
  if (s.statusCode === 2 || errorType) r.error = { type: errorType ?? 'error', message: notes.text('status.message', s.statusMessage) };
  if (notes.cut.size > 0) r.cut = [...notes.cut];
  if (notes.raw.size > 0) r.raw = [...notes.raw];
  return r;
}
