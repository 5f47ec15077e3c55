import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid, parseId } from '../../core/ids';
import { prepared, sql } from '../../db/typed-sql';
import { keysetPage } from '../shared';
import { since } from '../../core/time-range';
import { numberIn } from '../../core/validate';
import { canvasType } from '../shared';
import { EPISODE_COLUMNS, episodeFromRow, type EpisodeRow } from './episode.rows';
import type { Episode } from './episode.type';
import type { EpisodeFilter } from './episodes.inputs';
import { aggregateFeedbackScoreOf } from '../shared';
import { sql as raw } from 'kysely';

const episodeStatement = prepared((v: { orgId: string; id: string }) =>
  sql.selectFrom('episodes as e').select(EPISODE_COLUMNS).where('e.org_id', '=', v.orgId).where('e.id', '=', v.id),
);

export async function getEpisode(em: EntityManager, orgId: string, id: string): Promise<Episode | null> {
  if (!isUuid(id)) return null;
  const [row] = await episodeStatement.rows(em, {}, { orgId, id: id.toLowerCase() });
  return row ? episodeFromRow(row) : null;
}

/** The episodes (alias `e`) of an organization that a filter keeps; every condition is served by an index led by org_id. */
function filteredEpisodes(orgId: string, filter: EpisodeFilter | null | undefined, field = 'filter') {
  const f = filter ?? {};
  let q = sql.selectFrom('episodes as e').where('e.org_id', '=', orgId);
  if (f.agentId !== null && f.agentId !== undefined) q = q.where('e.agent_id', '=', f.agentId);
  if (f.sessionId !== null && f.sessionId !== undefined) q = q.where('e.session_id', '=', f.sessionId);
  if (f.topic !== null && f.topic !== undefined) q = q.where('e.topic', '=', f.topic);
  if (f.intent !== null && f.intent !== undefined) q = q.where('e.intent', '=', f.intent);
  if (f.accepted !== null && f.accepted !== undefined) q = q.where('e.accepted', '=', f.accepted);
  const min = numberIn(`${field}.minFeedbackScore`, f.minFeedbackScore, -1, 1);
  const max = numberIn(`${field}.maxFeedbackScore`, f.maxFeedbackScore, -1, 1);
  if (min !== null) q = q.where(aggregateFeedbackScoreOf('e'), '>=', min);
  if (max !== null) q = q.where(aggregateFeedbackScoreOf('e'), '<=', max);
  if (f.createdAfter) q = q.where('e.created_at', '>=', f.createdAfter.toISOString());
  if (f.createdBefore) q = q.where('e.created_at', '<', f.createdBefore.toISOString());
  if (f.timeRange !== null && f.timeRange !== undefined)
    q = q.where('e.created_at', '>=', since(f.timeRange, `${field}.timeRange`).toISOString());
  if (f.hasCanvas === true) q = q.where('e.canvas_action_count', '>', 0);
  if (f.hasCanvas === false) q = q.where('e.canvas_action_count', '=', 0);
  const type = f.canvasType ? canvasType(`${field}.canvasType`, f.canvasType) : null;
  const action = f.canvasAction ?? null;
  if (type !== null || action !== null) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('canvas_audits as c')
          .select(raw.lit(1).as('one'))
          .whereRef('c.org_id', '=', 'e.org_id')
          .whereRef('c.episode_id', '=', 'e.id')
          .$if(type !== null, (c) => c.where('c.canvas_type', '=', type!))
          .$if(action !== null, (c) => c.where('c.action', '=', action!)),
      ),
    );
  }
  if (f.factId) {
    const factId = parseId(`${field}.factId`, f.factId);
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('episode_facts as ef')
          .select(raw.lit(1).as('one'))
          .whereRef('ef.org_id', '=', 'e.org_id')
          .whereRef('ef.episode_id', '=', 'e.id')
          .where('ef.fact_id', '=', factId),
      ),
    );
  }
  return q;
}

/** A page of episodes, newest first, by keyset (created_at, id). */
export async function listEpisodes(
  em: EntityManager,
  orgId: string,
  filter: EpisodeFilter | null | undefined,
  first?: number | null,
  after?: string | null,
) {
  const query = filteredEpisodes(orgId, filter).select(EPISODE_COLUMNS);
  return keysetPage(em, query, {
    alias: 'e',
    sortColumn: 'created_at',
    first,
    after,
    toNodes: (rows: EpisodeRow[]) => rows.map(episodeFromRow),
  });
}
