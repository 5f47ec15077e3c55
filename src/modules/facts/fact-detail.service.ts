import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { limit } from '../../core/validate';
import type { BankCounts } from './bank-counts';
import { rows, sql } from '../../db/typed-sql';
import { FactBank, FactQueryContextRecord, FactSignalRecord } from './fact-detail.type';
import type { SignalType } from './facts.inputs';
import { applySignal, NEUTRAL, usefulnessAt } from './usefulness';

const date = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));

/**
 * The organization's banks with their fact counts, the largest first: from the instance's counts when
 * the facts change log shows no change since they were taken, counted again otherwise (`BankCounts`).
 */
export async function factBanks(
  em: EntityManager,
  counts: BankCounts,
  orgId: string,
  first: number | null | undefined,
): Promise<FactBank[]> {
  const n = limit(first, 100, 1000, 'first');
  const banks = await counts.banks(em, orgId);
  return banks.slice(0, n).map((b) => Object.assign(new FactBank(), { bankId: b.bankId, facts: b.facts, lastFactAt: b.lastFactAt }));
}

/**
 * The newest `limit` signals of a fact, oldest first, each with the global usefulness after it: all
 * of the fact's signals are replayed from 0.5 in order (the same steps submitSignals takes).
 */
export async function factSignals(em: EntityManager, orgId: string, factId: string, max: number | null | undefined) {
  const n = limit(max, 100, 1000);
  const found = await rows(
    em,
    sql
      .selectFrom('fact_signals as s')
      .select(['s.id', 's.signal_type', 's.confidence', 's.delta', 's.query', 's.context', 's.created_at'])
      .select(['s.source', 's.feedback_id', 's.episode_id', 's.trace_id'])
      .where('s.org_id', '=', orgId)
      .where('s.fact_id', '=', factId)
      .orderBy('s.created_at')
      // the order signals were applied in: a batch shares its time and numbers its signals
      .orderBy('s.ord')
      .orderBy('s.id'),
  );
  let score = NEUTRAL;
  let last: Date | null = null;
  const all = found.map((r) => {
    const at = date(r.created_at);
    score = applySignal(score, last ? (at.getTime() - last.getTime()) / 86_400_000 : 0, Number(r.delta));
    last = at;
    return Object.assign(new FactSignalRecord(), {
      id: r.id,
      signalType: r.signal_type as SignalType,
      confidence: Number(r.confidence),
      delta: Number(r.delta),
      query: r.query,
      context: r.context,
      createdAt: at,
      source: r.source,
      feedbackId: r.feedback_id,
      episodeId: r.episode_id,
      traceId: r.trace_id,
      usefulnessAfter: score,
    });
  });
  return all.slice(-n);
}

/** A fact's query contexts, the most signalled first. */
export async function factQueryContexts(em: EntityManager, orgId: string, factId: string, max: number | null | undefined) {
  const n = limit(max, 20, 100);
  const found = await rows(
    em,
    sql
      .selectFrom('fact_query_contexts as c')
      .select(['c.query', 'c.usefulness', 'c.signal_count', 'c.last_signal_at', raw<boolean>`c.query_embedding IS NOT NULL`.as('embedded')])
      .where('c.org_id', '=', orgId)
      .where('c.fact_id', '=', factId)
      .orderBy('c.signal_count', 'desc')
      .orderBy('c.query')
      .limit(n),
  );
  const now = new Date();
  return found.map((r) => {
    const lastSignalAt = r.last_signal_at === null ? null : date(r.last_signal_at);
    return Object.assign(new FactQueryContextRecord(), {
      query: r.query,
      usefulness: usefulnessAt(Number(r.usefulness), lastSignalAt, now),
      signalCount: Number(r.signal_count),
      lastSignalAt,
      embedded: Boolean(r.embedded),
    });
  });
}
