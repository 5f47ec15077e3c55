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

interface Signal {
  factId: string;
  signalType: string;
  confidence: number;
  query: string;
  normalizedQuery: string;
  queryEmbedding: number[] | null;
  /** the model of queryEmbedding ('client' when the caller sent it) */
  embeddingModel: string | null;
  context: string | null;
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
type NewSignal = Pick<Selectable<FactSignalsTable>, 'id' | 'fact_id' | 'context_id' | 'signal_type' | 'confidence' | 'query' | 'context'>;

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
  const columns = 'id uuid, fact_id uuid, context_id uuid, signal_type text, confidence float8, query text, context text';
  const x = jsonRecords<NewSignal, 'x'>(signals, 'x', columns);
  return sql
    .insertInto('fact_signals')
    .columns(['id', 'org_id', 'created_at', 'fact_id', 'context_id', 'signal_type', 'confidence', 'delta', 'query', 'context', 'actor_id'])
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
    await checkDimensions(
      tx,
      orgId,
      signals.flatMap((s, i) =>
        s.queryEmbedding
          ? [{ field: `signals.${i}.queryEmbedding`, length: s.queryEmbedding.length, serverMade: s.embeddingModel !== CLIENT_MODEL_ID }]
          : [],
      ),
    );
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
    const missing = signals.findIndex((s) => !found.has(s.factId));
    if (missing >= 0) throw notFound('fact', `signals.${missing}.factId`);

    const stored = await runRows(tx, storedContexts(orgId, factIds));
    const { contextIds, created } = assignContexts(signals, stored);
    if (created.length) await runRows(tx, insertContexts(orgId, created));
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
    const records = signals.map((s, i) => ({
      id: randomUUID(),
      fact_id: s.factId,
      context_id: contextIds[i],
      signal_type: s.signalType,
      confidence: s.confidence,
      query: s.query,
      context: s.context,
    }));
    await runRows(tx, insertSignals(orgId, actorId, records));
    return factIds;
  });
}
