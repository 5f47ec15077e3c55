import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid, parseId } from '../../core/ids';
import { firstRow, sql } from '../../db/typed-sql';
import { keysetPage } from '../shared/keyset-page';
import { since } from '../../core/time-range';
import { numberIn } from '../../core/validate';
import { canvasType } from '../shared/canvas-vocabulary';
import { EPISODE_COLUMNS, episodeFromRow, type EpisodeRow } from './episode.rows';
import type { Episode } from './episode.type';
import type { EpisodeFilter } from './episodes.inputs';
import { aggregateFeedbackScoreSql } from '../shared/episode-feedback-counters';

export async function getEpisode(em: EntityManager, orgId: string, id: string): Promise<Episode | null> {
  if (!isUuid(id)) return null;
  const row = await firstRow(em, sql.selectFrom('episodes as e').select(EPISODE_COLUMNS).where('e.org_id', '=', orgId).where('e.id', '=', id.toLowerCase()));
  return row ? episodeFromRow(row) : null;
}

/** SQL conditions (alias `e`) for an episode filter; every one is served by an index led by org_id. */
export function episodeConditions(orgId: string, filter: EpisodeFilter | null | undefined, field = 'filter'): { where: string[]; params: unknown[] } {
  const where = ['e.org_id = ?'];
  const params: unknown[] = [orgId];
  const f = filter ?? {};
  const eq = (col: string, v: unknown) => {
    if (v === null || v === undefined) return;
    where.push(`e.${col} = ?`);
    params.push(v);
  };
  eq('agent_id', f.agentId);
  eq('session_id', f.sessionId);
  eq('topic', f.topic);
  eq('intent', f.intent);
  eq('accepted', f.accepted);
  const min = numberIn(`${field}.minFeedbackScore`, f.minFeedbackScore, -1, 1);
  const max = numberIn(`${field}.maxFeedbackScore`, f.maxFeedbackScore, -1, 1);
  if (min !== null) {
    where.push(`${aggregateFeedbackScoreSql('e')} >= ?`);
    params.push(min);
  }
  if (max !== null) {
    where.push(`${aggregateFeedbackScoreSql('e')} <= ?`);
    params.push(max);
  }
  if (f.createdAfter) {
    where.push('e.created_at >= ?');
    params.push(f.createdAfter.toISOString());
  }
  if (f.createdBefore) {
    where.push('e.created_at < ?');
    params.push(f.createdBefore.toISOString());
  }
  if (f.timeRange !== null && f.timeRange !== undefined) {
    where.push('e.created_at >= ?');
    params.push(since(f.timeRange, `${field}.timeRange`).toISOString());
  }
  if (f.hasCanvas === true) where.push('e.canvas_action_count > 0');
  if (f.hasCanvas === false) where.push('e.canvas_action_count = 0');
  if ((f.canvasType ?? null) !== null || (f.canvasAction ?? null) !== null) {
    const cond = ['c.org_id = e.org_id', 'c.episode_id = e.id'];
    if (f.canvasType) {
      cond.push('c.canvas_type = ?');
      params.push(canvasType(`${field}.canvasType`, f.canvasType));
    }
    if (f.canvasAction) {
      cond.push('c.action = ?');
      params.push(f.canvasAction);
    }
    where.push(`EXISTS (SELECT 1 FROM canvas_audits c WHERE ${cond.join(' AND ')})`);
  }
  if (f.factId) {
    where.push('EXISTS (SELECT 1 FROM episode_facts ef WHERE ef.org_id = e.org_id AND ef.episode_id = e.id AND ef.fact_id = ?)');
    params.push(parseId(`${field}.factId`, f.factId));
  }
  return { where, params };
}

/** A page of episodes, newest first, by keyset (created_at, id). */
export async function listEpisodes(em: EntityManager, orgId: string, filter: EpisodeFilter | null | undefined, first?: number | null, after?: string | null) {
  const { where, params } = episodeConditions(orgId, filter);
  return keysetPage<EpisodeRow, Episode>(em, { columns: EPISODE_COLUMNS.join(', '), table: 'episodes', alias: 'e', sortColumn: 'created_at', where, params, first, after, toNodes: (rows) => rows.map(episodeFromRow) });
}
