import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { templateRows } from '../../db/typed-sql';
import type { RetrievalSpan } from './episode-build';

/** A retrieval span of a trace's episode, once the episode's id is known. */
export interface EpisodeRetrieval extends RetrievalSpan {
  episodeId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The hook where a retrieval span's document ids are known, inside the transaction that wrote its
 * episode. Today it links the organization's facts among those ids (by id or external id) to the
 * episode as used, as `recordEpisode`'s `factIds` do; unknown ids are left alone. Every retrieval
 * is also kept in the episode's metadata (`retrievals`): a memory trace of the retrieval is made
 * from here once memory traces exist.
 */
export async function onRetrievals(tx: EntityManager, orgId: string, retrievals: EpisodeRetrieval[]): Promise<void> {
  const pairs = retrievals.flatMap((r) => r.documentIds.map((d) => ({ e: r.episodeId, d, u: UUID.test(d) ? d.toLowerCase() : null })));
  if (pairs.length === 0) return;
  await templateRows(
    tx,
    raw`INSERT INTO episode_facts (episode_id, fact_id, org_id, created_at)
        SELECT DISTINCT p.e, f.id, f.org_id, now()
        FROM jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) AS p(e uuid, d text, u uuid)
        JOIN facts f ON f.org_id = ${orgId}::uuid AND (f.id = p.u OR f.external_id = p.d)
        JOIN episodes ep ON ep.org_id = ${orgId}::uuid AND ep.id = p.e
        ON CONFLICT DO NOTHING`,
  );
}
