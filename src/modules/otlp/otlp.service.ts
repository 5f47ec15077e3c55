import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { boundTemplateRows, templateRows } from '../../db/typed-sql';
import type { EventBus } from '../../core/event-bus';
import { type Embedder, episodeText, vectorsFor } from '../embeddings';
import { type NewEpisode, publishEpisodes } from '../episodes';
import { segmentTerms } from '../shared';
import { buildEpisodes, type EpisodeDraft } from './episode-build';
import { isGenAi, type SpanRecord, spanRecord } from './genai';
import type { SpanIn } from './otlp-decode';
import { type EpisodeRetrieval, onRetrievals } from './retrievals';

/** What became of an export's spans. */
export interface IngestResult {
  /** GenAI spans stored for the first time */
  stored: number;
  /** GenAI spans already stored (a retried export) */
  repeated: number;
  /** spans without GenAI attributes: accepted and ignored */
  ignored: number;
  /** GenAI spans of a trace already closed (no span of it for the trace window): accepted and ignored */
  late: number;
  /** episodes written (made or rebuilt) */
  episodes: number;
}

/** Episodes are at most 5 minutes in the future, as `occurredAt` allows: a span from a clock ahead is brought back to now. */
const FUTURE_MS = 5 * 60_000;

/** Serialises the writers of each trace of an export for the rest of the transaction, locks taken in one order. */
async function lockTraces(tx: EntityManager, orgId: string, traces: string[]): Promise<void> {
  await templateRows(
    tx,
    raw<{ n: number }>`SELECT count(l) AS n FROM (
        SELECT pg_advisory_xact_lock(k) AS l FROM (
          SELECT DISTINCT hashtextextended(${orgId}::text || t, 0) AS k FROM unnest(${traces}::text[]) AS t
        ) AS keys ORDER BY k
      ) AS locked`,
  );
}

/**
 * Stores the spans not yet stored of open (or new) traces; returns the traces that gained a span
 * (`fresh`: those this export opened, which had no span and no episode before), and what was not stored.
 */
async function storeSpans(
  tx: EntityManager,
  orgId: string,
  spans: { trace_id: string; span_id: string; record: SpanRecord }[],
): Promise<{ changed: string[]; fresh: string[]; stored: number; late: number; memory_tools: string[] | null }> {
  const [row] = await boundTemplateRows(
    tx,
    raw<{ changed: string[]; fresh: string[]; stored: number; late: number; memory_tools: string[] | null }>`WITH x AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(spans)}::jsonb) AS x(trace_id text, span_id text, record jsonb)
      ), closed AS (
        SELECT DISTINCT m.trace_id FROM otlp_episodes m
        WHERE m.org_id = ${orgId}::uuid AND m.trace_id IN (SELECT trace_id FROM x)
          AND NOT EXISTS (SELECT 1 FROM otlp_traces t WHERE t.org_id = m.org_id AND t.trace_id = m.trace_id)
      ), ins AS (
        INSERT INTO otlp_spans (org_id, trace_id, span_id, record)
        SELECT ${orgId}::uuid, x.trace_id, x.span_id, x.record FROM x WHERE x.trace_id NOT IN (SELECT trace_id FROM closed)
        ON CONFLICT DO NOTHING RETURNING trace_id
      ), opened AS (
        INSERT INTO otlp_traces (org_id, trace_id, last_span_at)
        SELECT DISTINCT ${orgId}::uuid, trace_id, now() FROM ins
        ON CONFLICT (org_id, trace_id) DO UPDATE SET last_span_at = excluded.last_span_at
        RETURNING trace_id, xmax = 0 AS fresh
      )
      SELECT array(SELECT trace_id FROM opened) AS changed, array(SELECT trace_id FROM opened WHERE fresh) AS fresh, (SELECT count(*) FROM ins)::int AS stored,
        (SELECT count(*) FROM x WHERE trace_id IN (SELECT trace_id FROM closed))::int AS late,
        (SELECT memory_tools FROM org_otlp_settings WHERE org_id = ${orgId}::uuid) AS memory_tools`,
  );
  return row;
}

/**
 * Writes the drafts: new episodes and their anchors, rebuilt ones in place; returns the ids that
 * exist (a forgotten episode stays forgotten), and whether each wants a server vector: a new one,
 * or a rebuilt one whose title or task changed (its old vector is dropped) or that has none.
 */
async function writeEpisodes(tx: EntityManager, orgId: string, drafts: (EpisodeDraft & { id: string; isNew: boolean; traceId: string })[]) {
  const now = Date.now();
  const values = drafts.map((d) => ({
    id: d.id,
    is_new: d.isNew,
    trace_id: d.traceId,
    anchor: d.anchor,
    agent_id: d.agentId,
    session_id: d.sessionId,
    title: d.title,
    task: d.task,
    created_at: new Date(Math.min(Date.parse(d.createdAt), now + FUTURE_MS)).toISOString(),
    ended_at: new Date(Math.min(Date.parse(d.endedAt), now + FUTURE_MS)).toISOString(),
    metadata: d.metadata,
  }));
  return boundTemplateRows(
    tx,
    raw<{ id: string; embed: boolean }>`WITH d AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS d(id uuid, is_new boolean, trace_id text, anchor text,
          agent_id text, session_id text, title text, task text, created_at timestamptz, ended_at timestamptz, metadata jsonb)
      ), made AS (
        INSERT INTO episodes (id, org_id, created_at, updated_at, agent_id, session_id, title, task, ended_at, execution_ids, metadata)
        SELECT d.id, ${orgId}::uuid, d.created_at, now(), d.agent_id, d.session_id, d.title, d.task, d.ended_at, ARRAY[d.trace_id], d.metadata
        FROM d WHERE d.is_new
        RETURNING id
      ), anchored AS (
        INSERT INTO otlp_episodes (org_id, trace_id, anchor, episode_id)
        SELECT ${orgId}::uuid, d.trace_id, d.anchor, d.id FROM d WHERE d.is_new
      ), rebuilt AS (
        UPDATE episodes e SET agent_id = d.agent_id, session_id = d.session_id, title = d.title, task = d.task,
          created_at = d.created_at, ended_at = d.ended_at, metadata = d.metadata, updated_at = now(),
          embedding = CASE WHEN (e.title, e.task) IS DISTINCT FROM (d.title, d.task) THEN NULL ELSE e.embedding END,
          embedding_model = CASE WHEN (e.title, e.task) IS DISTINCT FROM (d.title, d.task) THEN NULL ELSE e.embedding_model END
        FROM d WHERE e.org_id = ${orgId}::uuid AND e.id = d.id AND NOT d.is_new
        RETURNING e.id, e.embedding IS NULL AS embed
      ), cleared AS (
        DELETE FROM episode_segments s USING rebuilt WHERE s.org_id = ${orgId}::uuid AND s.episode_id = rebuilt.id
      )
      SELECT id, true AS embed FROM made UNION ALL SELECT id, embed FROM rebuilt`,
  );
}

/** Inserts the segments of the written episodes in one statement (a long turn with its distinct words, as every writer does). */
async function insertSegments(tx: EntityManager, orgId: string, drafts: { id: string; segments: EpisodeDraft['segments'] }[]) {
  const values = drafts.flatMap((d) =>
    d.segments.map((s, i) => ({
      e: d.id,
      seq: i + 1,
      role: s.role,
      content: s.content,
      tokens: Math.ceil(s.content.length / 4),
      at: s.created_at,
      terms: segmentTerms(s.content),
    })),
  );
  if (values.length === 0) return;
  await boundTemplateRows(
    tx,
    raw`INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at, terms)
        SELECT gen_random_uuid(), ${orgId}::uuid, x.e, x.seq, x.role, x.content, x.tokens, x.at, array_to_tsvector(x.terms)
        FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
          AS x(e uuid, seq int, role text, content text, tokens int, at timestamptz, terms text[])`,
  );
}

/** What an ingest does after its commit: announce new episodes, embed the written ones (in the background). */
export interface IngestServices {
  bus: EventBus;
  embedder: Embedder;
}

/** Texts of OTLP episodes being embedded at once per embedder; the episodes of an export that would pass it get no vector now. */
const MAX_EMBEDDING_TEXTS = 256;
const embedding = new WeakMap<Embedder, { texts: number }>();

/**
 * Gives the written episodes the server's vectors of their title and task, as `recordEpisode` does,
 * but after the commit and without holding the export's answer (an export's episodes are known only
 * inside its transaction, and the local model's tens of texts per second would hold back ingest). At
 * most MAX_EMBEDDING_TEXTS texts are in flight per process: the episodes of an export past it, and
 * those of a failed call (the embedder logs why), keep no vector; the re-embedding run at the next
 * start gives them one. A vector is stored only while the episode still has the text it was made
 * from, and only when it fits the organization's episode vectors (client vectors of another
 * dimension keep it out).
 */
async function embedEpisodes(
  em: EntityManager,
  embedder: Embedder,
  orgId: string,
  todo: { id: string; title: string | null; task: string | null }[],
) {
  const items = todo.filter((d) => episodeText(d.title, d.task) !== null);
  if (!embedder.enabled || items.length === 0) return;
  let load = embedding.get(embedder);
  if (!load) embedding.set(embedder, (load = { texts: 0 }));
  if (load.texts + items.length > MAX_EMBEDDING_TEXTS) return;
  load.texts += items.length;
  let vectors;
  try {
    vectors = await vectorsFor(
      embedder,
      orgId,
      items.map((d) => ({ text: episodeText(d.title, d.task), given: null })),
      'document',
    );
  } finally {
    load.texts -= items.length;
  }
  const values = items.flatMap((d, i) =>
    vectors[i].embedding ? [{ id: d.id, title: d.title, task: d.task, v: vectors[i].embedding }] : [],
  );
  if (values.length === 0) return;
  await boundTemplateRows(
    em,
    raw`WITH dim AS (
        SELECT array_length(embedding, 1) AS n FROM episodes WHERE org_id = ${orgId}::uuid AND embedding IS NOT NULL ORDER BY created_at LIMIT 1
      )
      UPDATE episodes e SET embedding = x.v, embedding_model = ${embedder.modelId}
        FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS x(id uuid, title text, task text, v double precision[])
        WHERE e.org_id = ${orgId}::uuid AND e.id = x.id AND e.embedding IS NULL
          AND (e.title, e.task) IS NOT DISTINCT FROM (x.title, x.task)
          AND coalesce((SELECT n FROM dim), cardinality(x.v)) = cardinality(x.v)`,
  );
}

/**
 * Turns an export's spans into episodes of the organization, in one transaction. Each span is
 * stored once (by trace and span id), and every trace that gained a span has its episodes rebuilt
 * from all of its stored spans: the result is the same whatever the order and number of exports.
 * Writers of one trace are serialised by an advisory lock per (organization, trace).
 */
export async function ingestSpans(em: EntityManager, orgId: string, spans: SpanIn[], services?: IngestServices): Promise<IngestResult> {
  const unique = new Map<string, { trace_id: string; span_id: string; record: SpanRecord }>();
  let ignored = 0;
  for (const s of spans) {
    if (!isGenAi(s)) ignored += 1;
    else if (!unique.has(s.traceId + s.spanId))
      unique.set(s.traceId + s.spanId, { trace_id: s.traceId, span_id: s.spanId, record: spanRecord(s) });
  }
  const genAi = [...unique.values()];
  if (genAi.length === 0) return { stored: 0, repeated: 0, ignored, late: 0, episodes: 0 };
  const made: NewEpisode[] = [];
  const toEmbed: { id: string; title: string | null; task: string | null }[] = [];
  const result = await em.transactional(async (tx) => {
    await lockTraces(tx, orgId, [...new Set(genAi.map((s) => s.trace_id))]);
    const { changed, fresh, stored, late, memory_tools } = await storeSpans(tx, orgId, genAi);
    const result = { stored, repeated: genAi.length - stored - late, ignored, late, episodes: 0 };
    if (changed.length === 0) return result;
    // a trace this export opened is all here; the others are read back whole, with their episodes
    const opened = new Set(fresh);
    const older = changed.filter((t) => !opened.has(t));
    const known = genAi.filter((s) => opened.has(s.trace_id));
    const anchors: { trace_id: string; anchor: string; episode_id: string }[] = [];
    if (older.length > 0) {
      known.push(
        ...(await templateRows(
          tx,
          raw<{ trace_id: string; span_id: string; record: SpanRecord }>`SELECT trace_id, span_id, record FROM otlp_spans
            WHERE org_id = ${orgId}::uuid AND trace_id = ANY(${older}::text[])`,
        )),
      );
      anchors.push(
        ...(await templateRows(
          tx,
          raw<{ trace_id: string; anchor: string; episode_id: string }>`SELECT trace_id, anchor, episode_id FROM otlp_episodes
            WHERE org_id = ${orgId}::uuid AND trace_id = ANY(${older}::text[])`,
        )),
      );
    }
    const memoryTools = new Set(memory_tools ?? []);
    const idOf = new Map(anchors.map((a) => [`${a.trace_id}/${a.anchor}`, a.episode_id]));
    const byTrace = new Map<string, SpanRecord[]>();
    for (const k of known) {
      const list = byTrace.get(k.trace_id);
      if (list) list.push(k.record);
      else byTrace.set(k.trace_id, [k.record]);
    }
    const drafts = [...byTrace.entries()].flatMap(([traceId, records]) =>
      buildEpisodes(traceId, records, memoryTools).map((d) => {
        const id = idOf.get(`${traceId}/${d.anchor}`);
        return { ...d, traceId, id: id ?? randomUUID(), isNew: id === undefined };
      }),
    );
    const written = new Map((await writeEpisodes(tx, orgId, drafts)).map((r) => [r.id, r.embed]));
    const live = drafts.filter((d) => written.has(d.id));
    for (const d of live) {
      if (d.isNew) made.push({ id: d.id, agentId: d.agentId, sessionId: d.sessionId });
      if (written.get(d.id)) toEmbed.push({ id: d.id, title: d.title, task: d.task });
    }
    await insertSegments(tx, orgId, live);
    const retrievals: EpisodeRetrieval[] = live.flatMap((d) => d.retrievals.map((r) => ({ ...r, episodeId: d.id })));
    await onRetrievals(tx, orgId, retrievals);
    result.episodes = live.length;
    return result;
  });
  if (services) {
    // one event per episode this export created (not per span; a rebuilt episode is not announced again)
    publishEpisodes(services.bus, orgId, made);
    // after the answer's commit, not awaited: a failure leaves the episodes without a vector
    void embedEpisodes(em, services.embedder, orgId, toEmbed).catch(() => {});
  }
  return result;
}

/**
 * Closes the traces of every organization that had no new span for `windowMinutes`: their spans
 * and open rows are deleted (their episodes stay, and late spans of them are ignored). At most
 * `batch` traces a call; returns how many were closed.
 */
export async function closeIdleTraces(em: EntityManager, windowMinutes: number, batch = 1000): Promise<number> {
  return em.transactional(async (tx) => {
    const idle = await templateRows(
      tx,
      raw<{ org_id: string; trace_id: string }>`SELECT org_id, trace_id FROM otlp_traces
        WHERE last_span_at < now() - make_interval(mins => ${windowMinutes}) ORDER BY last_span_at LIMIT ${batch}`,
    );
    if (idle.length === 0) return 0;
    // the same lock as ingest: a trace is never closed while an export of it is being written
    await templateRows(
      tx,
      raw`SELECT count(l) FROM (SELECT pg_advisory_xact_lock(k) AS l FROM (
          SELECT DISTINCT hashtextextended(o || t, 0) AS k FROM unnest(${idle.map((r) => r.org_id)}::text[], ${idle.map((r) => r.trace_id)}::text[]) AS i(o, t)
        ) AS keys ORDER BY k) AS locked`,
    );
    const [row] = await templateRows(
      tx,
      raw<{ n: number }>`WITH closed AS (
          DELETE FROM otlp_traces t USING unnest(${idle.map((r) => r.org_id)}::uuid[], ${idle.map((r) => r.trace_id)}::text[]) AS i(o, t)
          WHERE t.org_id = i.o AND t.trace_id = i.t AND t.last_span_at < now() - make_interval(mins => ${windowMinutes})
          RETURNING t.org_id, t.trace_id
        ), spans AS (
          DELETE FROM otlp_spans s USING closed WHERE s.org_id = closed.org_id AND s.trace_id = closed.trace_id
        )
        SELECT count(*)::int AS n FROM closed`,
    );
    return row.n;
  });
}
