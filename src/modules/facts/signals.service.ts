import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput, notFound } from '../../core/errors';
import { CLIENT_MODEL_ID, type Embedder, vectorsFor } from '../embeddings';
import { idempotent } from '../../core/idempotency';
import { isUuid } from '../../core/ids';
import { sql as raw, type Selectable } from 'kysely';
import type { FactQueryContextsTable, FactSignalsTable } from '../../db/tables';
import { type Row, rows as runRows, sql, templateRows } from '../../db/typed-sql';
import { numberIn, text } from '../../core/validate';
import { checkDimensions, factEmbedding } from './embedding-dimension';
import type { SignalInput } from './facts.inputs';
import { contextMatches, normalizeQuery } from './usefulness';
import { float8ArrayOfJson, jsonRecords } from './json-records';
import { applyInOrder, type SignalStep } from './signals.sql';
import { sqlSignalDelta } from './usefulness.sql';

const MAX_SIGNALS = 500;
const MAX_TEXT = 2000;

export interface Signal {
  factId: string;
  signalType: string;
  confidence: number;
  query: string;
  normalizedQuery: string;
  queryEmbedding: number[] | null;
  /** the model of queryEmbedding ('client' when the caller sent it) */
  embeddingModel: string | null;
  context: string | null;
  /** set when the server credited the signal (see src/modules/traces) */
  credit?: CreditSource;
}

/** Where a credited signal came from: what it records, and the key that makes it happen once. */
export interface CreditSource {
  source: 'USAGE' | 'FEEDBACK' | 'VERDICT';
  feedbackId: string | null;
  episodeId: string;
  traceId: string | null;
  creditKey: string;
}

/** Checks the whole batch before anything is written: one bad signal refuses all of them. */
function validateSignals(signals: SignalInput[]): Signal[] {
  if (signals.length > MAX_SIGNALS) throw badInput('signals', `at most ${MAX_SIGNALS} signals per call`);
  return signals.map((s, i) => {
    const p = `signals.${i}`;
    if (!isUuid(s.factId)) throw badInput(`${p}.factId`, `${p}.factId is not a valid id`);
    const confidence = numberIn(`${p}.confidence`, s.confidence, 0, 1) ?? 1;
    text(`${p}.query`, s.query, MAX_TEXT, { required: true });
    const normalizedQuery = normalizeQuery(s.query);
    if (normalizedQuery === '') throw badInput(`${p}.query`, `${p}.query must contain letters or digits`);
    return {
      factId: s.factId.toLowerCase(),
      signalType: s.signalType,
      confidence,
      query: s.query,
      normalizedQuery,
      queryEmbedding: factEmbedding(`${p}.queryEmbedding`, s.queryEmbedding),
      embeddingModel: null,
      context: text(`${p}.context`, s.context, MAX_TEXT),
    };
  });
}

/** The query contexts stored for these facts. */
const storedContexts = (orgId: string, factIds: string[]) =>
  sql
    .selectFrom('fact_query_contexts as c')
    .select(['c.id', 'c.fact_id', 'c.normalized_query', 'c.query_embedding'])
    .where('c.org_id', '=', orgId)
    .where('c.fact_id', '=', raw<string>`any(${factIds}::uuid[])`);

type StoredContext = Row<ReturnType<typeof storedContexts>>;
type NewContext = Pick<
  Selectable<FactQueryContextsTable>,
  'id' | 'fact_id' | 'query' | 'normalized_query' | 'query_embedding' | 'embedding_model'
>;
type NewSignal = Pick<
  Selectable<FactSignalsTable>,
  | 'id'
  | 'fact_id'
  | 'context_id'
  | 'signal_type'
  | 'confidence'
  | 'query'
  | 'context'
  | 'ord'
  | 'source'
  | 'feedback_id'
  | 'episode_id'
  | 'trace_id'
  | 'credit_key'
>;

/** Creates the new query contexts at the neutral score, without signals yet. */
function insertContexts(orgId: string, created: NewContext[]) {
  const x = jsonRecords<Omit<NewContext, 'query_embedding'> & { query_embedding: unknown }, 'x'>(
    created,
    'x',
    'id uuid, fact_id uuid, query text, normalized_query text, query_embedding jsonb, embedding_model text',
  );
  return sql
    .insertInto('fact_query_contexts')
    .columns([
      'id',
      'org_id',
      'created_at',
      'fact_id',
      'query',
      'normalized_query',
      'query_embedding',
      'embedding_model',
      'usefulness',
      'signal_count',
    ])
    .expression(
      sql
        .selectFrom(x)
        .select([
          'x.id',
          raw<string>`${orgId}::uuid`.as('org_id'),
          raw<string>`now()`.as('created_at'),
          'x.fact_id',
          'x.query',
          'x.normalized_query',
          float8ArrayOfJson(raw.ref('x.query_embedding')).as('query_embedding'),
          'x.embedding_model',
          raw<number>`0.5`.as('usefulness'),
          raw<number>`0`.as('signal_count'),
        ]),
    );
}

/** Records the signals, each with the delta its type and confidence make. */
function insertSignals(orgId: string, actorId: string | null, signals: NewSignal[]) {
  const columns =
    'id uuid, fact_id uuid, context_id uuid, signal_type text, confidence float8, query text, context text, ord int, source text, feedback_id uuid, episode_id uuid, trace_id uuid, credit_key text';
  const x = jsonRecords<NewSignal, 'x'>(signals, 'x', columns);
  return sql
    .insertInto('fact_signals')
    .columns([
      'id',
      'org_id',
      'created_at',
      'fact_id',
      'context_id',
      'signal_type',
      'confidence',
      'delta',
      'query',
      'context',
      'actor_id',
      'ord',
      'source',
      'feedback_id',
      'episode_id',
      'trace_id',
      'credit_key',
    ])
    .expression(
      sql
        .selectFrom(x)
        .select([
          'x.id',
          raw<string>`${orgId}::uuid`.as('org_id'),
          raw<string>`now()`.as('created_at'),
          'x.fact_id',
          'x.context_id',
          'x.signal_type',
          'x.confidence',
          raw<number>`${raw.raw(sqlSignalDelta('x.signal_type', 'x.confidence'))}`.as('delta'),
          'x.query',
          'x.context',
          raw<string | null>`${actorId}::uuid`.as('actor_id'),
          'x.ord',
          'x.source',
          'x.feedback_id',
          'x.episode_id',
          'x.trace_id',
          'x.credit_key',
        ]),
    );
}

/** Picks the stored (or earlier in this batch created) context of each signal; unmatched ones get a new context. */
function assignContexts(signals: Signal[], stored: StoredContext[]) {
  const byFact = new Map<string, { id: string; normalizedQuery: string; queryEmbedding: number[] | null }[]>();
  for (const c of stored) {
    const list = byFact.get(c.fact_id) ?? [];
    list.push({ id: c.id, normalizedQuery: c.normalized_query, queryEmbedding: c.query_embedding ? c.query_embedding.map(Number) : null });
    byFact.set(c.fact_id, list);
  }
  const created: NewContext[] = [];
  const contextIds = signals.map((s) => {
    const list = byFact.get(s.factId) ?? [];
    let best: { id: string; sim: number } | null = null;
    for (const c of list) {
      const sim = contextMatches(c, s);
      if (sim !== null && (best === null || sim > best.sim)) best = { id: c.id, sim };
    }
    if (best) return best.id;
    const fresh = { id: randomUUID(), normalizedQuery: s.normalizedQuery, queryEmbedding: s.queryEmbedding };
    list.push(fresh);
    byFact.set(s.factId, list);
    created.push({
      id: fresh.id,
      fact_id: s.factId,
      query: s.query,
      normalized_query: s.normalizedQuery,
      query_embedding: s.queryEmbedding,
      embedding_model: s.embeddingModel,
    });
    return fresh.id;
  });
  return { contextIds, created };
}

/**
 * Applies a batch of usefulness signals. The facts are locked (in id order, so
 * concurrent batches cannot deadlock); every score change is computed by PostgreSQL from the
 * locked row, signal after signal in input order. Returns the distinct fact ids in input order.
 */
export async function submitSignals(
  em: EntityManager,
  embedder: Embedder,
  orgId: string,
  actorId: string | null,
  input: SignalInput[],
  idempotencyKey?: string | null,
): Promise<string[]> {
  const signals = validateSignals(input);
  if (signals.length === 0) return [];
  // a query without a vector gets the server's, before the transaction opens, so query contexts match by meaning
  const vectors = await vectorsFor(
    embedder,
    orgId,
    signals.map((s) => ({ text: s.query, given: s.queryEmbedding })),
    'query',
  );
  signals.forEach((s, i) => Object.assign(s, { queryEmbedding: vectors[i].embedding, embeddingModel: vectors[i].model }));
  const factIds = [...new Set(signals.map((s) => s.factId))];
  return idempotent(em, { orgId, key: idempotencyKey, operation: 'submitSignals', input }, async (tx) => {
    const embedded = signals.flatMap((s, i) => (s.queryEmbedding ? [i] : []));
    const misfits = await checkDimensions(
      tx,
      orgId,
      embedded.map((i) => ({
        field: `signals.${i}.queryEmbedding`,
        length: signals[i].queryEmbedding!.length,
        serverMade: signals[i].embeddingModel !== CLIENT_MODEL_ID,
      })),
    );
    // a server vector that does not fit the organization's space is left out: the query matches by its text
    for (const k of misfits) Object.assign(signals[embedded[k]], { queryEmbedding: null, embeddingModel: null });
    await applySignals(tx, orgId, actorId, signals, 'refuse');
    return factIds;
  });
}

/**
 * Writes a batch of signals while their facts are locked (in id order, so concurrent batches cannot
 * deadlock): query contexts matched or created, the signals recorded, every score change computed by
 * PostgreSQL from the locked rows, signal after signal in batch order. A fact that is not the
 * organization's refuses the batch (`refuse`) or drops its signals (`skip`, for credit). A credited
 * signal whose key is already recorded is dropped: credit for the same event happens once (a repeat
 * waits for the fact lock, then sees the first one's signals). Returns the signals written.
 */
export async function applySignals(
  tx: EntityManager,
  orgId: string,
  actorId: string | null,
  batch: Signal[],
  unknownFacts: 'refuse' | 'skip',
): Promise<Signal[]> {
  const factIds = [...new Set(batch.map((s) => s.factId))];
  const locked = await runRows(
    tx,
    sql
      .selectFrom('facts as f')
      .select('f.id')
      .where('f.org_id', '=', orgId)
      .where('f.id', '=', raw<string>`any(${factIds}::uuid[])`)
      .orderBy('f.id')
      .forUpdate(),
  );
  const found = new Set(locked.map((r) => r.id));
  const missing = batch.findIndex((s) => !found.has(s.factId));
  if (missing >= 0 && unknownFacts === 'refuse') throw notFound('fact', `signals.${missing}.factId`);
  let signals = batch.filter((s) => found.has(s.factId));
  const keys = signals.flatMap((s) => (s.credit ? [s.credit.creditKey] : []));
  if (keys.length > 0) {
    const done = sql
      .selectFrom('fact_signals')
      .select('credit_key')
      .where('org_id', '=', orgId)
      .where('credit_key', '=', raw<string>`any(${keys}::text[])`);
    const seen = new Set((await runRows(tx, done)).map((r) => r.credit_key));
    signals = signals.filter((s) => !s.credit || !seen.has(s.credit.creditKey));
  }
  if (signals.length === 0) return [];

  const stored = await runRows(
    tx,
    storedContexts(
      orgId,
      factIds.filter((id) => found.has(id)),
    ),
  );
  const { contextIds, created } = assignContexts(signals, stored);
  if (created.length) await runRows(tx, insertContexts(orgId, created));
  const records = signals.map((s, i) => ({
    id: randomUUID(),
    fact_id: s.factId,
    context_id: contextIds[i],
    signal_type: s.signalType,
    confidence: s.confidence,
    query: s.query,
    context: s.context,
    ord: i,
    source: s.credit?.source ?? null,
    feedback_id: s.credit?.feedbackId ?? null,
    episode_id: s.credit?.episodeId ?? null,
    trace_id: s.credit?.traceId ?? null,
    credit_key: s.credit?.creditKey ?? null,
  }));
  await runRows(tx, insertSignals(orgId, actorId, records));
  const steps = (target: (s: Signal, i: number) => string): SignalStep[] =>
    signals.map((s, i) => ({ target: target(s, i), ord: i, signal_type: s.signalType, confidence: s.confidence }));
  await templateRows(
    tx,
    applyInOrder(
      'facts',
      orgId,
      steps((s) => s.factId),
    ),
  );
  await templateRows(
    tx,
    applyInOrder(
      'fact_query_contexts',
      orgId,
      steps((_s, i) => contextIds[i]),
    ),
  );
  return signals;
}
