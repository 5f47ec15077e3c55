import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { templateRows } from '../../db/typed-sql';
import { creditEpisode } from '../traces';
import type { RetrievalSpan } from './episode-build';

/** A retrieval span of a trace's episode, once the episode's id is known. */
export interface EpisodeRetrieval extends RetrievalSpan {
  episodeId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a retrieval span's document ids become, inside the transaction that wrote its episode: the
 * organization's facts among those ids (by id or external id; unknown ids are left alone) are
 * linked to the episode as used, as `recordEpisode`'s `factIds` do; the retrieval becomes a memory
 * trace of the episode (operation RECALL, its query, the facts in the order the span returned them,
 * without scores), written once per span however often the span is exported; and the episode's
 * usage is credited as `useFacts` credits it (USED for each fact the retrieval served and the
 * episode used, once). Every retrieval is also kept in the episode's metadata (`retrievals`).
 */
export async function onRetrievals(tx: EntityManager, orgId: string, retrievals: EpisodeRetrieval[]): Promise<void> {
  const spans = retrievals
    .map((r) => ({
      e: r.episodeId,
      s: r.spanId,
      q: r.query ?? null,
      docs: r.documentIds.map((d) => ({ d, u: UUID.test(d) ? d.toLowerCase() : null })),
    }))
    .filter((r) => r.docs.length > 0);
  if (spans.length === 0) return;
  const found = await templateRows<{ episode_id: string }>(
    tx,
    raw`WITH span AS (
        SELECT p.e, p.s, p.q, d.ord, f.id AS fact_id
          FROM jsonb_to_recordset(${JSON.stringify(spans)}::jsonb) AS p(e uuid, s text, q text, docs jsonb)
          JOIN episodes ep ON ep.org_id = ${orgId}::uuid AND ep.id = p.e
          CROSS JOIN LATERAL ROWS FROM (jsonb_to_recordset(p.docs) AS (d text, u uuid)) WITH ORDINALITY AS d(d, u, ord)
          JOIN facts f ON f.org_id = ${orgId}::uuid AND (f.id = d.u OR f.external_id = d.d)),
      links AS (
        INSERT INTO episode_facts (episode_id, fact_id, org_id, created_at)
        SELECT DISTINCT e, fact_id, ${orgId}::uuid, now() FROM span
        ON CONFLICT DO NOTHING),
      firsts AS (SELECT DISTINCT ON (e, s, fact_id) e, s, q, fact_id, ord FROM span ORDER BY e, s, fact_id, ord),
      ranked AS (SELECT e, s, q, fact_id, row_number() OVER (PARTITION BY e, s ORDER BY ord) AS n FROM firsts),
      traces AS (
        INSERT INTO memory_traces (id, org_id, episode_id, created_at, operation, query, items, span_id)
        SELECT gen_random_uuid(), ${orgId}::uuid, e, clock_timestamp(), 'RECALL', q,
               jsonb_agg(jsonb_build_object(
                 'rank', n, 'factId', fact_id, 'episodeId', NULL, 'segmentId', NULL, 'zone', NULL, 'semanticScore', NULL, 'lexicalScore', NULL,
                 'relevance', NULL, 'usefulnessScore', NULL, 'usefulnessSource', NULL, 'finalScore', NULL) ORDER BY n), s
          FROM ranked GROUP BY e, s, q
        ON CONFLICT (org_id, episode_id, span_id) DO NOTHING)
      SELECT DISTINCT e AS episode_id FROM span`,
  );
  // a later statement of the same transaction sees the links and traces written above
  for (const { episode_id } of found)
    await creditEpisode(tx, orgId, null, { kind: 'USAGE', episodeId: episode_id, feedbackId: null, score: null });
}
