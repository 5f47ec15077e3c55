import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput, notFound } from '../../core/errors';
import { idempotent } from '../../core/idempotency';
import { isUuid } from '../../core/ids';
import { pgArray } from '../../core/sql';
import { numberIn, text } from '../../core/validate';
import { checkDimensions, factEmbedding } from './embedding-dimension';
import type { SignalInput } from './facts.inputs';
import { contextMatches, normalizeQuery } from './usefulness';
import { sqlApplyInOrder } from './signals.sql';
import { sqlSignalDelta } from './usefulness.sql';

export const MAX_SIGNALS = 500;
const MAX_TEXT = 2000;

interface Signal {
  factId: string;
  signalType: string;
  confidence: number;
  query: string;
  normalizedQuery: string;
  queryEmbedding: number[] | null;
  context: string | null;
}

/** Checks the whole batch before anything is written: one bad signal refuses all of them. */
export function validateSignals(signals: SignalInput[]): Signal[] {
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
      context: text(`${p}.context`, s.context, MAX_TEXT),
    };
  });
}

interface StoredContext {
  id: string;
  fact_id: string;
  normalized_query: string;
  query_embedding: number[] | null;
}

/** Picks the stored (or earlier in this batch created) context of each signal; unmatched ones get a new context. */
function assignContexts(signals: Signal[], stored: StoredContext[]) {
  const byFact = new Map<string, { id: string; normalizedQuery: string; queryEmbedding: number[] | null }[]>();
  for (const c of stored) {
    const list = byFact.get(c.fact_id) ?? [];
    list.push({ id: c.id, normalizedQuery: c.normalized_query, queryEmbedding: c.query_embedding ? c.query_embedding.map(Number) : null });
    byFact.set(c.fact_id, list);
  }
  const created: { id: string; fact_id: string; query: string; normalized_query: string; query_embedding: number[] | null }[] = [];
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
    created.push({ id: fresh.id, fact_id: s.factId, query: s.query, normalized_query: s.normalizedQuery, query_embedding: s.queryEmbedding });
    return fresh.id;
  });
  return { contextIds, created };
}

/**
 * Applies a batch of usefulness signals. The facts are locked (in id order, so
 * concurrent batches cannot deadlock); every score change is computed by PostgreSQL from the
 * locked row, signal after signal in input order. Returns the distinct fact ids in input order.
 */
export async function submitSignals(em: EntityManager, orgId: string, actorId: string | null, input: SignalInput[], idempotencyKey?: string | null): Promise<string[]> {
  const signals = validateSignals(input);
  if (signals.length === 0) return [];
  const factIds = [...new Set(signals.map((s) => s.factId))];
  return idempotent(em, { orgId, key: idempotencyKey, operation: 'submitSignals', input }, async (tx) => {
    await checkDimensions(
      tx,
      orgId,
      signals.flatMap((s, i) => (s.queryEmbedding ? [{ field: `signals.${i}.queryEmbedding`, length: s.queryEmbedding.length }] : [])),
    );
    const locked = await tx.execute<{ id: string }[]>('SELECT id FROM facts WHERE org_id = ? AND id = ANY(?::uuid[]) ORDER BY id FOR UPDATE', [
      orgId,
      pgArray(factIds),
    ]);
    const found = new Set(locked.map((r) => r.id));
    const missing = signals.findIndex((s) => !found.has(s.factId));
    if (missing >= 0) throw notFound('fact', `signals.${missing}.factId`);

    const stored = await tx.execute<StoredContext[]>(
      'SELECT id, fact_id, normalized_query, query_embedding FROM fact_query_contexts WHERE org_id = ? AND fact_id = ANY(?::uuid[])',
      [orgId, pgArray(factIds)],
    );
    const { contextIds, created } = assignContexts(signals, stored);
    if (created.length) {
      await tx.execute(
        `INSERT INTO fact_query_contexts (id, org_id, created_at, fact_id, query, normalized_query, query_embedding, usefulness, signal_count)
         SELECT x.id, ?, now(), x.fact_id, x.query, x.normalized_query,
           CASE WHEN jsonb_typeof(x.query_embedding) = 'array'
             THEN ARRAY(SELECT e::float8 FROM jsonb_array_elements_text(x.query_embedding) WITH ORDINALITY AS a(e, n) ORDER BY n) END,
           0.5, 0
         FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, fact_id uuid, query text, normalized_query text, query_embedding jsonb)`,
        [orgId, JSON.stringify(created)],
      );
    }
    const steps = (target: (s: Signal, i: number) => string) =>
      JSON.stringify(signals.map((s, i) => ({ target: target(s, i), ord: i, signal_type: s.signalType, confidence: s.confidence })));
    await tx.execute(sqlApplyInOrder('facts', true), [steps((s) => s.factId), orgId, orgId]);
    await tx.execute(sqlApplyInOrder('fact_query_contexts', false), [steps((_s, i) => contextIds[i]), orgId, orgId]);
    await tx.execute(
      `INSERT INTO fact_signals (id, org_id, created_at, fact_id, context_id, signal_type, confidence, delta, query, context, actor_id)
       SELECT x.id, ?, now(), x.fact_id, x.context_id, x.signal_type, x.confidence, ${sqlSignalDelta('x.signal_type', 'x.confidence')},
         x.query, x.context, ?::uuid
       FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, fact_id uuid, context_id uuid, signal_type text, confidence float8, query text, context text)`,
      [
        orgId,
        actorId,
        JSON.stringify(
          signals.map((s, i) => ({
            id: randomUUID(),
            fact_id: s.factId,
            context_id: contextIds[i],
            signal_type: s.signalType,
            confidence: s.confidence,
            query: s.query,
            context: s.context,
          })),
        ),
      ],
    );
    return factIds;
  });
}
