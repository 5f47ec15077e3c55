// Credit: usefulness signals the server derives from what an episode was served (its memory traces),
// what it used (`useFacts`, `factIds` of recordEpisode) and how it went (scored feedback, a judge's
// verdict). The rule is in docs/algorithms.md ("Credit"); the signals are written by the facts
// module like any other, with their source, and removed with `removeCredit`.
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { templateRows } from '../../db/typed-sql';
import { applySignals, type CreditSource, normalizeQuery, type Signal, SignalType } from '../facts';
import { type CreditSettings, creditSettingsOf, type StoredCreditSettings } from './credit-settings';

/** What earned credit: a usage report, or a scored feedback or verdict on the episode. */
export interface CreditEvent {
  kind: 'USAGE' | 'FEEDBACK' | 'VERDICT';
  episodeId: string;
  /** the feedback or verdict (null for a usage report) */
  feedbackId: string | null;
  /** its score on -1..1 (null or 0: no HELPFUL / NOT_HELPFUL) */
  score: number | null;
}

/** A fact the episode used or was served: the latest traced recall that served it, if one did. */
interface Planned {
  fact_id: string;
  used: boolean;
  trace_id: string | null;
  query: string | null;
  query_embedding: number[] | null;
}

/** Everything the credit of one event needs, in one statement: the settings, the episode's task, its used and served facts. */
const plan = (orgId: string, episodeId: string) =>
  raw<{ settings: StoredCreditSettings | null; task: string | null; plan: Planned[] | null }>`WITH served AS (
      SELECT DISTINCT ON (i.fact_id) i.fact_id, t.id AS trace_id, t.query, t.query_embedding
      FROM memory_traces t CROSS JOIN LATERAL (
        SELECT (x->>'factId')::uuid AS fact_id FROM jsonb_array_elements(t.items) AS x WHERE x->>'factId' IS NOT NULL) i
      WHERE t.org_id = ${orgId} AND t.episode_id = ${episodeId} AND t.operation = 'RECALL'
      ORDER BY i.fact_id, t.created_at DESC, t.id DESC),
    used AS (SELECT ef.fact_id, ef.created_at FROM episode_facts ef WHERE ef.org_id = ${orgId} AND ef.episode_id = ${episodeId}),
    p AS (
      SELECT coalesce(u.fact_id, s.fact_id) AS fact_id, u.fact_id IS NOT NULL AS used, u.created_at AS used_at,
        s.trace_id, s.query, s.query_embedding
      FROM used u FULL JOIN served s ON s.fact_id = u.fact_id
      ORDER BY u.fact_id IS NULL, u.created_at, coalesce(u.fact_id, s.fact_id) LIMIT 1000)
    SELECT (SELECT row_to_json(c) FROM org_credit_settings c WHERE c.org_id = ${orgId}) AS settings,
      (SELECT coalesce(e.task, e.title) FROM episodes e WHERE e.org_id = ${orgId} AND e.id = ${episodeId}) AS task,
      (SELECT json_agg(json_build_object('fact_id', p.fact_id, 'used', p.used, 'trace_id', p.trace_id, 'query', p.query,
         'query_embedding', p.query_embedding)) FROM p) AS plan`;

const CONFIDENCE_STEPS = 1e12;
/** Confidences are rounded to 12 decimals so a repeat computes the same number. */
const confidence = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * CONFIDENCE_STEPS) / CONFIDENCE_STEPS;

/** The signals one event earns, at most `maxFactsPerEvent` facts (used facts first, in the order they were used). */
export function creditSignals(settings: CreditSettings, event: CreditEvent, task: string | null, planned: Planned[]): Signal[] {
  if (!settings.enabled) return [];
  const out: Signal[] = [];
  const signal = (p: Planned, type: SignalType, conf: number, query: string, credit: Omit<CreditSource, 'episodeId'>) => {
    const normalizedQuery = normalizeQuery(query);
    if (normalizedQuery === '' || conf <= 0) return;
    const fromTrace = p.trace_id !== null && query === p.query;
    out.push({
      factId: p.fact_id,
      signalType: type,
      confidence: confidence(conf),
      query,
      normalizedQuery,
      queryEmbedding: fromTrace ? p.query_embedding : null,
      embeddingModel: fromTrace && p.query_embedding ? 'client' : null,
      context: null,
      credit: { ...credit, episodeId: event.episodeId },
    });
  };
  const judged = event.kind !== 'USAGE';
  const score = event.score ?? 0;
  for (const p of planned.slice(0, settings.maxFactsPerEvent)) {
    const served = p.trace_id !== null && p.query !== null;
    if (p.used && served)
      signal(p, SignalType.USED, settings.usedConfidence, p.query!, {
        source: 'USAGE',
        feedbackId: null,
        traceId: p.trace_id,
        creditKey: `used:${event.episodeId}:${p.fact_id}`,
      });
    if (!judged) continue;
    if (p.used && score !== 0) {
      const query = served ? p.query! : task;
      if (query)
        signal(p, score > 0 ? SignalType.HELPFUL : SignalType.NOT_HELPFUL, Math.abs(score) * settings.feedbackConfidence, query, {
          source: event.kind,
          feedbackId: event.feedbackId,
          traceId: served ? p.trace_id : null,
          creditKey: `feedback:${event.feedbackId}:${p.fact_id}`,
        });
    }
    if (!p.used && served)
      signal(p, SignalType.IGNORED, settings.ignoredConfidence, p.query!, {
        source: event.kind,
        feedbackId: event.feedbackId,
        traceId: p.trace_id,
        creditKey: `ignored:${event.episodeId}:${p.fact_id}`,
      });
  }
  return out;
}

/**
 * Credits the facts of the episode for the event, in the caller's transaction (so the event and its
 * credit commit together, and a refused event credits nothing). Returns the signals written; a
 * repeat of the same event writes none.
 */
export async function creditEpisode(tx: EntityManager, orgId: string, actorId: string | null, event: CreditEvent): Promise<Signal[]> {
  const [row] = await templateRows(tx, plan(orgId, event.episodeId));
  const settings = creditSettingsOf(row?.settings);
  const signals = creditSignals(settings, event, row?.task ?? null, row?.plan ?? []);
  if (signals.length === 0) return [];
  return applySignals(tx, orgId, actorId, signals, 'skip');
}
