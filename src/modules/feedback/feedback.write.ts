import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventBus } from '../../core/event-bus';
import { notFound } from '../../core/errors';
import { addEventCounts, LEARNING_EVENT_TYPES } from '../learning/event-counts';
import type { FeedbackType } from './feedback-score';

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

/**
 * Inserts one feedback row and, when it is linked to an episode, moves the episode's counters in
 * the same transaction by atomic SQL (count, and sum / count of scores: the mean stays exact).
 * Without an episode id, a session links it to the latest episode of the same agent and session.
 */
export async function writeFeedback(tx: EntityManager, orgId: string, w: FeedbackWrite): Promise<WrittenFeedback> {
  let episode: { id: string; agent_id: string } | undefined;
  if (w.episodeId) {
    [episode] = await tx.execute<{ id: string; agent_id: string }[]>('SELECT id, agent_id FROM episodes WHERE org_id = ? AND id = ?', [orgId, w.episodeId]);
    if (!episode) throw notFound('episode', w.episodeField);
  } else if (w.sessionId && w.agentId) {
    [episode] = await tx.execute<{ id: string; agent_id: string }[]>(
      'SELECT id, agent_id FROM episodes WHERE org_id = ? AND agent_id = ? AND session_id = ? ORDER BY created_at DESC, id DESC LIMIT 1',
      [orgId, w.agentId, w.sessionId],
    );
  }
  const agentId = episode?.agent_id ?? w.agentId;
  const json = (v: Record<string, unknown> | null | undefined) => (v ? JSON.stringify(v) : null);
  const insert = `INSERT INTO feedback (id, org_id, created_at, episode_id, agent_id, session_id, execution_id, actor_id, actor_user_id, feedback_type,
       rating, score, corrections, event_type, entity_type, entity_id, document_id, layout_fingerprint, before, after, meta, accepted, reason)
     VALUES (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?)`;
  // learning events also count into their day, in the same statement
  const [row] = await tx.execute<{ id: string }[]>(
    (LEARNING_EVENT_TYPES as readonly string[]).includes(w.feedbackType)
      ? `WITH f AS (${insert} RETURNING id, org_id, created_at, feedback_type, event_type, changed_fields),
         c AS (${addEventCounts('f', 1)})
         SELECT id FROM f`
      : `${insert} RETURNING id`,
    [
      orgId, w.createdAt.toISOString(), episode?.id ?? null, agentId, w.sessionId, w.executionId, w.actorId, w.actorUserId, w.feedbackType,
      w.rating, w.score, w.corrections, w.eventType ?? null, w.entityType ?? null, w.entityId ?? null, w.documentId ?? null,
      w.layoutFingerprint ?? null, json(w.before), json(w.after), json(w.meta), w.accepted ?? null, w.reason ?? null,
    ],
  );
  if (episode) {
    await tx.execute(
      `UPDATE episodes SET feedback_count = feedback_count + 1, feedback_score_sum = feedback_score_sum + ?,
         feedback_score_count = feedback_score_count + ?, updated_at = now() WHERE org_id = ? AND id = ?`,
      [w.score ?? 0, w.score === null ? 0 : 1, orgId, episode.id],
    );
  }
  return { feedbackId: row.id, episodeId: episode?.id ?? null, agentId, feedbackType: w.feedbackType };
}

/** Tells subscribers of every instance; call only after the transaction committed. */
export const publishFeedback = (bus: EventBus, orgId: string, f: WrittenFeedback) =>
  bus.pubsub.publish('feedbackAdded', { orgId, feedbackId: f.feedbackId, episodeId: f.episodeId, agentId: f.agentId, feedbackType: f.feedbackType });
