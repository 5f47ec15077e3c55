import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid, parseId } from '../../core/ids';
import { keysetPageText } from '../shared/keyset-page';
import { pgArray } from '../../core/sql';
import { since } from '../../core/time-range';
import { limit as checkLimit, numberIn, text } from '../../core/validate';
import { EPISODE_COLUMNS, episodeFromRow, type EpisodeRow } from '../episodes/episode.rows';
import type { Episode } from '../episodes/episode.type';
import { checkFingerprint } from '../shared/layout-fingerprint';
import type { FeedbackFilter } from './feedback.inputs';
import { FEEDBACK_COLUMNS, feedbackFromRow, type FeedbackRow } from './feedback.rows';
import type { Feedback } from './feedback.type';
import { aggregateFeedbackScoreSql } from '../shared/episode-feedback-counters';

export async function getFeedback(em: EntityManager, orgId: string, id: string): Promise<Feedback | null> {
  if (!isUuid(id)) return null;
  const [row] = await em.execute<FeedbackRow[]>(`SELECT ${FEEDBACK_COLUMNS} FROM feedback fb WHERE fb.org_id = ? AND fb.id = ?`, [orgId, id]);
  return row ? feedbackFromRow(row) : null;
}

/** A page of feedback, newest first, by keyset (created_at, id). */
export async function listFeedback(em: EntityManager, orgId: string, filter: FeedbackFilter | null | undefined, first?: number | null, after?: string | null) {
  const where = ['fb.org_id = ?'];
  const params: unknown[] = [orgId];
  const f = filter ?? {};
  if (f.episodeId) {
    where.push('fb.episode_id = ?');
    params.push(parseId('filter.episodeId', f.episodeId));
  }
  if (f.agentId) {
    where.push('fb.agent_id = ?');
    params.push(text('filter.agentId', f.agentId, 200));
  }
  if (f.types?.length) {
    where.push('fb.feedback_type = ANY(?::text[])');
    params.push(pgArray(f.types));
  }
  if (f.eventTypes?.length) {
    where.push('fb.event_type = ANY(?::text[])');
    params.push(pgArray(f.eventTypes));
  }
  if (f.layoutFingerprint) {
    checkFingerprint('filter.layoutFingerprint', f.layoutFingerprint);
    where.push('fb.layout_fingerprint = ?');
    params.push(f.layoutFingerprint);
  }
  if (f.timeRange) {
    where.push('fb.created_at >= ?');
    params.push(since(f.timeRange, 'filter.timeRange').toISOString());
  }
  return keysetPageText<FeedbackRow, Feedback>(em, { columns: FEEDBACK_COLUMNS, table: 'feedback', alias: 'fb', sortColumn: 'created_at', where, params, first, after, toNodes: (rows) => rows.map(feedbackFromRow) });
}

/** Episodes of an agent whose aggregate feedback is at least `minFeedbackScore`, newest first. */
export async function feedbackEpisodes(em: EntityManager, orgId: string, agentId: string, minFeedbackScore: number, timeRange: string, limit: number): Promise<Episode[]> {
  numberIn('minFeedbackScore', minFeedbackScore, -1, 1);
  const n = checkLimit(limit, 10);
  const rows = await em.execute<EpisodeRow[]>(
    `SELECT ${EPISODE_COLUMNS} FROM episodes e
      WHERE e.org_id = ? AND e.agent_id = ? AND e.created_at >= ? AND ${aggregateFeedbackScoreSql('e')} >= ?
      ORDER BY e.created_at DESC, e.id DESC LIMIT ?`,
    [orgId, agentId, since(timeRange).toISOString(), minFeedbackScore, n],
  );
  return rows.map(episodeFromRow);
}
