import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventBus } from '../../core/event-bus';
import { notFound } from '../../core/errors';
import type { EpisodeRow } from '../episodes/episode.rows';
import { EPISODE_COLUMNS } from '../episodes/episode.rows';
import { addEventCounts, LEARNING_EVENT_TYPES } from '../shared/learning-event-counts';
import type { FeedbackType } from './feedback-score';
import { FEEDBACK_COLUMNS, type FeedbackRow } from './feedback.rows';
import { moveFeedbackCounters } from '../shared/episode-feedback-counters';

export interface FeedbackWrite {
  episodeId: string | null;
  /** the input path of `episodeId`, for NOT_FOUND */
  episodeField: string;
  agentId: string | null;
  sessionId: string | null;
  executionId: string | null;
  actorId: string;
  actorUserId: string | null;
  feedbackType: FeedbackType;
  rating: number | null;
  score: number | null;
  corrections: string | null;
  eventType?: string | null;
  entityType?: string | null;
  entityId?: string | null;
  documentId?: string | null;
  layoutFingerprint?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  meta?: Record<string, unknown> | null;
  accepted?: boolean | null;
  reason?: string | null;
  createdAt: Date;
}

/** What a feedback write returns and replays: enough to load it and to publish it. */
export interface WrittenFeedback {
  feedbackId: string;
  episodeId: string | null;
  agentId: string | null;
  feedbackType: FeedbackType;
}

/** The rows as committed, when the write read them back in its own statement (never on a replay). */
export interface FeedbackRows {
  feedback: FeedbackRow;
  episode: EpisodeRow | null;
}

const INSERT_COLUMNS = `id, org_id, created_at, episode_id, agent_id, session_id, execution_id, actor_id, actor_user_id, feedback_type,
  rating, score, corrections, event_type, entity_type, entity_id, document_id, layout_fingerprint, before, after, meta, accepted, reason`;

/** The values after `id, org_id, created_at, episode_id, agent_id`, in INSERT_COLUMNS order. */
function values(w: FeedbackWrite): unknown[] {
  const json = (v: Record<string, unknown> | null | undefined) => (v ? JSON.stringify(v) : null);
  return [
    w.sessionId, w.executionId, w.actorId, w.actorUserId, w.feedbackType, w.rating, w.score, w.corrections, w.eventType ?? null, w.entityType ?? null,
    w.entityId ?? null, w.documentId ?? null, w.layoutFingerprint ?? null, json(w.before), json(w.after), json(w.meta), w.accepted ?? null, w.reason ?? null,
  ];
}
const VALUE_PLACEHOLDERS = '?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?';
/** what the insert returns: the feedback row, and what the learning event counts need */
const RETURNED = `${FEEDBACK_COLUMNS.replaceAll('fb.', '')}, org_id, changed_fields`;
/** learning events (corrections, confirmations, rejections) also count into their day, in the same statement */
const counts = (w: FeedbackWrite) => ((LEARNING_EVENT_TYPES as readonly string[]).includes(w.feedbackType) ? `, c AS (${addEventCounts('fb', 1)})` : '');

/** One more feedback on the episode: bindings, its score (0 when none) and 1 if it has one, else 0. */
const ONE_MORE = moveFeedbackCounters({ count: '1', sum: '?', scored: '?' });

/**
 * Inserts one feedback row and, when it is linked to an episode, moves the episode's counters in
 * the same statement by atomic SQL (count, and sum / count of scores: the mean stays exact), and
 * reads both rows back from it. An unknown episode id writes nothing (NOT_FOUND).
 * Without an episode id, a session links it to the latest episode of the same agent and session.
 */
export async function writeFeedbackRows(tx: EntityManager, orgId: string, w: FeedbackWrite): Promise<{ written: WrittenFeedback; rows: FeedbackRows | null }> {
  if (w.episodeId) {
    const [row] = await tx.execute<{ feedback: FeedbackRow; episode: EpisodeRow }[]>(
      `WITH e AS (
         UPDATE episodes e SET ${ONE_MORE}, updated_at = now()
          WHERE e.org_id = ? AND e.id = ? RETURNING ${EPISODE_COLUMNS}),
       fb AS (
         INSERT INTO feedback (${INSERT_COLUMNS})
         SELECT gen_random_uuid(), e.org_id, ?, e.id, e.agent_id, ${VALUE_PLACEHOLDERS} FROM e
         RETURNING ${RETURNED})${counts(w)}
       SELECT row_to_json(fb) AS feedback, row_to_json(e) AS episode FROM fb, e`,
      [w.score ?? 0, w.score === null ? 0 : 1, orgId, w.episodeId, w.createdAt.toISOString(), ...values(w)],
    );
    if (!row) throw notFound('episode', w.episodeField);
    return { written: { feedbackId: row.feedback.id, episodeId: row.episode.id, agentId: row.episode.agent_id, feedbackType: w.feedbackType }, rows: row };
  }
  let episode: { id: string; agent_id: string } | undefined;
  if (w.sessionId && w.agentId) {
    [episode] = await tx.execute<{ id: string; agent_id: string }[]>(
      'SELECT id, agent_id FROM episodes WHERE org_id = ? AND agent_id = ? AND session_id = ? ORDER BY created_at DESC, id DESC LIMIT 1',
      [orgId, w.agentId, w.sessionId],
    );
  }
  const agentId = episode?.agent_id ?? w.agentId;
  const [row] = await tx.execute<{ id: string }[]>(
    `WITH fb AS (INSERT INTO feedback (${INSERT_COLUMNS}) VALUES (gen_random_uuid(), ?, ?, ?, ?, ${VALUE_PLACEHOLDERS}) RETURNING ${RETURNED})${counts(w)}
     SELECT id FROM fb`,
    [orgId, w.createdAt.toISOString(), episode?.id ?? null, agentId, ...values(w)],
  );
  if (episode) {
    await tx.execute(
      `UPDATE episodes SET ${ONE_MORE}, updated_at = now() WHERE org_id = ? AND id = ?`,
      [w.score ?? 0, w.score === null ? 0 : 1, orgId, episode.id],
    );
  }
  return { written: { feedbackId: row.id, episodeId: episode?.id ?? null, agentId, feedbackType: w.feedbackType }, rows: null };
}

/** `writeFeedbackRows` for callers that need only what is published and replayed. */
export const writeFeedback = async (tx: EntityManager, orgId: string, w: FeedbackWrite): Promise<WrittenFeedback> => (await writeFeedbackRows(tx, orgId, w)).written;

/** Tells subscribers of every instance; call only after the transaction committed. */
export const publishFeedback = (bus: EventBus, orgId: string, f: WrittenFeedback) =>
  bus.pubsub.publish('feedbackAdded', { orgId, feedbackId: f.feedbackId, episodeId: f.episodeId, agentId: f.agentId, feedbackType: f.feedbackType });
