import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { isUuid, parseId } from '../../core/ids';
import { keysetPage } from '../shared';
import { since } from '../../core/time-range';
import { limit as checkLimit, numberIn, text } from '../../core/validate';
import { firstRow, rows, sql } from '../../db/typed-sql';
import { EPISODE_COLUMNS, episodeFromRow } from '../episodes';
import type { Episode } from '../episodes';
import { checkFingerprint } from '../shared';
import type { FeedbackFilter } from './feedback.inputs';
import { FEEDBACK_COLUMNS, feedbackFromRow, type FeedbackRow } from './feedback.rows';
import type { Feedback } from './feedback.type';
import { aggregateFeedbackScoreOf } from '../shared';

export async function getFeedback(em: EntityManager, orgId: string, id: string): Promise<Feedback | null> {
  if (!isUuid(id)) return null;
  const query = sql.selectFrom('feedback as fb').select(FEEDBACK_COLUMNS).where('fb.org_id', '=', orgId).where('fb.id', '=', id);
  const row = await firstRow(em, query);
  return row ? feedbackFromRow(row) : null;
}

/** A page of feedback, newest first, by keyset (created_at, id). */
export async function listFeedback(
  em: EntityManager,
  orgId: string,
  filter: FeedbackFilter | null | undefined,
  first?: number | null,
  after?: string | null,
) {
  const f = filter ?? {};
  let q = sql.selectFrom('feedback as fb').select(FEEDBACK_COLUMNS).where('fb.org_id', '=', orgId);
  if (f.episodeId) q = q.where('fb.episode_id', '=', parseId('filter.episodeId', f.episodeId));
  if (f.agentId) q = q.where('fb.agent_id', '=', text('filter.agentId', f.agentId, 200)!);
  if (f.types?.length) q = q.where('fb.feedback_type', '=', raw<string>`any(${f.types}::text[])`);
  if (f.eventTypes?.length) q = q.where('fb.event_type', '=', raw<string>`any(${f.eventTypes}::text[])`);
  if (f.layoutFingerprint) {
    checkFingerprint('filter.layoutFingerprint', f.layoutFingerprint);
    q = q.where('fb.layout_fingerprint', '=', f.layoutFingerprint);
  }
  if (f.timeRange) q = q.where('fb.created_at', '>=', since(f.timeRange, 'filter.timeRange').toISOString());
  const toNodes = (rows: FeedbackRow[]) => rows.map(feedbackFromRow);
  return keysetPage(em, q, { alias: 'fb', sortColumn: 'created_at', first, after, toNodes });
}

/** Episodes of an agent whose aggregate feedback is at least `minFeedbackScore`, newest first. */
export async function feedbackEpisodes(
  em: EntityManager,
  orgId: string,
  agentId: string,
  minFeedbackScore: number,
  timeRange: string,
  limit: number,
): Promise<Episode[]> {
  numberIn('minFeedbackScore', minFeedbackScore, -1, 1);
  const n = checkLimit(limit, 10);
  const found = await rows(
    em,
    sql
      .selectFrom('episodes as e')
      .select(EPISODE_COLUMNS)
      .where('e.org_id', '=', orgId)
      .where('e.agent_id', '=', agentId)
      .where('e.created_at', '>=', since(timeRange).toISOString())
      .where(aggregateFeedbackScoreOf('e'), '>=', minFeedbackScore)
      .orderBy('e.created_at', 'desc')
      .orderBy('e.id', 'desc')
      .limit(n),
  );
  return found.map(episodeFromRow);
}
