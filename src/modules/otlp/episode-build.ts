import type { SpanRecord } from './genai';
import type { Message } from './genai-messages';
import { toolCallQuery, toolResultFactIds } from './memory-tools';

/** A segment of an episode built from a trace. */
interface DraftSegment {
  role: string;
  content: string;
  created_at: string;
}

/** A retrieval span of an episode, with the ids of the documents it returned. */
export interface RetrievalSpan {
  spanId: string;
  query?: string;
  documentIds: string[];
}

/** The episode of one agent invocation of a trace, as its spans so far make it. */
export interface EpisodeDraft {
  /** '' for the trace's first agent invocation (or the whole trace), else the invocation's span id */
  anchor: string;
  agentId: string;
  sessionId: string | null;
  title: string | null;
  task: string | null;
  createdAt: string;
  endedAt: string;
  metadata: Record<string, unknown>;
  segments: DraftSegment[];
  retrievals: RetrievalSpan[];
}

/** Segments one episode takes from a trace; later turns are left out and the cut recorded. */
const MAX_SEGMENTS = 5_000;
/** Items of each metadata list (errors, cut attributes, retrievals) kept. */
const MAX_NOTES = 100;

const byTime = (a: SpanRecord, b: SpanRecord) => a.start - b.start || (a.span < b.span ? -1 : a.span > b.span ? 1 : 0);
const iso = (ms: number) => new Date(Number.isFinite(ms) && ms > 0 ? ms : 0).toISOString();

/** The invocation (`invoke_agent` span) a span belongs to: the nearest one among its known ancestors, or itself. */
function invocationOf(r: SpanRecord, byId: Map<string, SpanRecord>): string | null {
  let at: SpanRecord | undefined = r;
  for (let hops = 0; at && hops < 1000; hops += 1) {
    if (at.op === 'invoke_agent') return at.span;
    at = at.parent ? byId.get(at.parent) : undefined;
  }
  return null;
}

/**
 * The transcript of an invocation's spans in time order: each chat span's input at its start and
 * its output at its end, each tool call at its start. Chat spans repeat the conversation so far,
 * so a message is added only when this span holds it more often than the transcript already does;
 * a tool result in a chat history is left out when the trace has the tool's own span.
 */
function transcript(spans: SpanRecord[], toolCalls: Set<string>): { segments: DraftSegment[]; cut: boolean } {
  type Item = { at: number; order: number; r: SpanRecord; messages: Message[] | null };
  const items: Item[] = [];
  for (const r of spans) {
    if (r.tool) items.push({ at: r.start, order: 1, r, messages: null });
    if (r.input.length > 0) items.push({ at: r.start, order: 0, r, messages: r.input });
    if (r.output.length > 0) items.push({ at: r.end, order: 2, r, messages: r.output });
  }
  items.sort((a, b) => a.at - b.at || a.order - b.order || byTime(a.r, b.r));
  const have = new Map<string, number>();
  const seenIn = new Map<string, Map<string, number>>();
  const segments: DraftSegment[] = [];
  let cut = false;
  const add = (s: DraftSegment) => {
    if (segments.length < MAX_SEGMENTS) segments.push(s);
    else cut = true;
  };
  for (const item of items) {
    if (!item.messages) {
      const t = item.r.tool!;
      add({
        role: 'tool',
        content: JSON.stringify({ tool: t.name, arguments: t.arguments ?? null, result: t.result ?? null }),
        created_at: iso(item.at),
      });
      continue;
    }
    let seen = seenIn.get(item.r.span);
    if (!seen) seenIn.set(item.r.span, (seen = new Map<string, number>()));
    for (const m of item.messages) {
      if (m.content === '' || (m.role === 'tool' && m.callId !== undefined && toolCalls.has(m.callId))) continue;
      const key = `${m.role}\u0000${m.content}`;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      if ((have.get(key) ?? 0) >= n) continue;
      have.set(key, n);
      add({ role: m.role, content: m.content, created_at: iso(item.at) });
    }
  }
  return { segments, cut };
}

const unique = <T>(xs: T[]) => [...new Set(xs)].slice(0, MAX_NOTES);

/** A retrieval span's documents, or a memory tool call's fact ids (see `toolResultFactIds`); null for other spans. */
function retrievalOf(r: SpanRecord, memoryTools: ReadonlySet<string>): RetrievalSpan | null {
  if (r.retrieval)
    return {
      spanId: r.span,
      documentIds: r.retrieval.documentIds,
      ...(r.retrieval.query !== undefined ? { query: r.retrieval.query } : {}),
    };
  if (!r.tool || !memoryTools.has(r.tool.name)) return null;
  const documentIds = toolResultFactIds(r.tool.result);
  if (documentIds.length === 0) return null;
  const query = toolCallQuery(r.tool.arguments);
  return { spanId: r.span, documentIds, ...(query !== undefined ? { query } : {}) };
}

function draftOf(
  traceId: string,
  anchor: string,
  agentSpan: SpanRecord | undefined,
  spans: SpanRecord[],
  memoryTools: ReadonlySet<string>,
): EpisodeDraft {
  spans.sort(byTime);
  const toolCalls = new Set(spans.flatMap((r) => (r.tool?.callId ? [r.tool.callId] : [])));
  const { segments, cut } = transcript(spans, toolCalls);
  const first = agentSpan ?? spans[0];
  const agentId =
    agentSpan?.agent ?? spans.find((r) => r.agent)?.agent ?? first.service ?? spans.find((r) => r.service)?.service ?? 'unknown';
  const conversation = agentSpan?.conversation ?? spans.find((r) => r.conversation)?.conversation ?? null;
  const task = segments.find((s) => s.role === 'user')?.content.slice(0, 20_000) ?? null;
  const inputTokens = spans.reduce((n, r) => n + (r.op !== 'invoke_agent' ? (r.inputTokens ?? 0) : 0), 0);
  const outputTokens = spans.reduce((n, r) => n + (r.op !== 'invoke_agent' ? (r.outputTokens ?? 0) : 0), 0);
  const retrievals = spans.flatMap((r) => retrievalOf(r, memoryTools) ?? []);
  const truncated = spans.flatMap((r) => (r.cut ? [{ spanId: r.span, attributes: r.cut }] : []));
  if (cut) truncated.push({ spanId: '', attributes: [`segments beyond ${MAX_SEGMENTS}`] });
  const metadata: Record<string, unknown> = {
    source: 'otlp',
    traceId,
    spanCount: spans.length,
    models: unique(spans.flatMap((r) => (r.model ? [r.model] : []))),
    usage: { inputTokens, outputTokens },
    finishReasons: unique(spans.flatMap((r) => r.finishReasons ?? [])),
    errors: spans.flatMap((r) => (r.error ? [{ spanId: r.span, name: r.name, ...r.error }] : [])).slice(0, MAX_NOTES),
  };
  if (truncated.length > 0) metadata.truncated = truncated.slice(0, MAX_NOTES);
  const raw = spans.flatMap((r) => (r.raw ? [{ spanId: r.span, attributes: r.raw }] : []));
  if (raw.length > 0) metadata.rawText = raw.slice(0, MAX_NOTES);
  if (retrievals.length > 0) metadata.retrievals = retrievals.slice(0, MAX_NOTES);
  return {
    anchor,
    agentId: agentId.slice(0, 200),
    sessionId: conversation,
    title: first.name ? first.name.slice(0, 500) : null,
    task,
    createdAt: iso(Math.min(...spans.map((r) => r.start))),
    endedAt: iso(Math.max(...spans.map((r) => Math.max(r.end, r.start)))),
    metadata,
    segments,
    retrievals,
  };
}

/**
 * The episodes of one trace, from all of its GenAI spans known so far: one per agent invocation
 * (`invoke_agent` span). The first invocation (by start time, then span id) takes the anchor ''
 * together with every span not under a known invocation; a trace without invocations is one
 * episode under ''. The result depends only on the set of spans, never on their arrival order,
 * and an anchor once made is never dropped by more spans (the first invocation can only be
 * replaced by an earlier one, which then takes '' while the other gets its own span id).
 * `execute_tool` spans of the organization's `memoryTools` count as retrievals.
 */
export function buildEpisodes(traceId: string, records: SpanRecord[], memoryTools: ReadonlySet<string> = new Set()): EpisodeDraft[] {
  const byId = new Map(records.map((r) => [r.span, r]));
  const agents = records.filter((r) => r.op === 'invoke_agent').sort(byTime);
  const primary = agents[0]?.span ?? null;
  const groups = new Map<string, SpanRecord[]>();
  for (const r of records) {
    const inv = invocationOf(r, byId);
    const anchor = inv === null || inv === primary ? '' : inv;
    const g = groups.get(anchor);
    if (g) g.push(r);
    else groups.set(anchor, [r]);
  }
  return [...groups.entries()].map(([anchor, spans]) =>
    draftOf(traceId, anchor, byId.get(anchor === '' ? (primary ?? '') : anchor), spans, memoryTools),
  );
}
