import type { FeedbackType } from './feedback-score';
import { Feedback } from './feedback.type';

export const FEEDBACK_COLUMNS = `fb.id, fb.episode_id, fb.agent_id, fb.session_id, fb.execution_id, fb.actor_id, fb.actor_user_id, fb.feedback_type,
  fb.rating, fb.score, fb.corrections, fb.event_type, fb.entity_type, fb.entity_id, fb.document_id, fb.layout_fingerprint,
  fb.before, fb.after, fb.meta, fb.accepted, fb.reason, fb.created_at`;

/** Fields backed by the large columns: read only when one of them is selected. */
export const FEEDBACK_DETAIL_FIELDS = ['corrections', 'before', 'after', 'meta'] as const;
/** FEEDBACK_COLUMNS with the large ones (free text, before / after / meta JSON) read as NULL. */
export const FEEDBACK_BRIEF_COLUMNS = FEEDBACK_COLUMNS.replace('fb.corrections', 'NULL::text AS corrections').replace(
  'fb.before, fb.after, fb.meta',
  'NULL::jsonb AS before, NULL::jsonb AS after, NULL::jsonb AS meta',
);

export interface FeedbackRow {
  id: string;
  episode_id: string | null;
  agent_id: string | null;
  session_id: string | null;
  execution_id: string | null;
  actor_id: string;
  actor_user_id: string | null;
  feedback_type: string;
  rating: number | null;
  score: number | null;
  corrections: string | null;
  event_type: string | null;
  entity_type: string | null;
  entity_id: string | null;
  document_id: string | null;
  layout_fingerprint: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  meta: Record<string, unknown> | null;
  accepted: boolean | null;
  reason: string | null;
  created_at: Date | string;
}

export const feedbackFromRow = (r: FeedbackRow): Feedback =>
  Object.assign(new Feedback(), {
    id: r.id,
    episodeId: r.episode_id,
    agentId: r.agent_id,
    sessionId: r.session_id,
    executionId: r.execution_id,
    actorId: r.actor_id,
    actorUserId: r.actor_user_id,
    feedbackType: r.feedback_type as FeedbackType,
    rating: r.rating,
    score: r.score === null ? null : Number(r.score),
    corrections: r.corrections,
    eventType: r.event_type,
    entityType: r.entity_type,
    entityId: r.entity_id,
    documentId: r.document_id,
    layoutFingerprint: r.layout_fingerprint,
    before: r.before,
    after: r.after,
    meta: r.meta,
    accepted: r.accepted,
    reason: r.reason,
    createdAt: r.created_at instanceof Date ? r.created_at : new Date(r.created_at),
  });
