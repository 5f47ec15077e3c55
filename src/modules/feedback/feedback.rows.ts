import type { Selectable } from 'kysely';
import type { FeedbackTable } from '../../db/tables';
import { camelCaseFields } from '../shared';
import type { FeedbackType } from './feedback-score';
import { Feedback } from './feedback.type';
import { instantOf } from '../../core/instant';

/** The columns of `feedback` every read returns, unqualified (what an insert returns). */
export const FEEDBACK_COLUMN_NAMES = [
  'id',
  'episode_id',
  'agent_id',
  'session_id',
  'execution_id',
  'actor_id',
  'actor_user_id',
  'feedback_type',
  'rating',
  'score',
  'corrections',
  'event_type',
  'entity_type',
  'entity_id',
  'document_id',
  'layout_fingerprint',
  'before',
  'after',
  'meta',
  'accepted',
  'reason',
  'created_at',
] as const;

type Names = typeof FEEDBACK_COLUMN_NAMES;
type Qualified<A extends string, T extends readonly string[]> = { readonly [K in keyof T]: `${A}.${T[K] & string}` };

/** The same columns qualified by the alias `fb` (`feedback as fb`); as text they read `fb.id,fb.episode_id,...`. */
export const FEEDBACK_COLUMNS = FEEDBACK_COLUMN_NAMES.map((c) => `fb.${c}`) as unknown as Qualified<'fb', Names>;

/** The column each field of `Feedback` is read from: every field is its column in camel case. */
export const FEEDBACK_FIELD_COLUMNS = camelCaseFields(FEEDBACK_COLUMN_NAMES);

/** What every read of an episode's feedback list needs whatever is selected: the id, the episode, the order. */
export const FEEDBACK_LIST_ALWAYS = ['id', 'episode_id', 'created_at'] as const;

/** The columns of a key made by `columnsOf` from FEEDBACK_FIELD_COLUMNS, qualified by the alias `fb`. */
export const feedbackColumns = (key: string) => key.split(',').map((c) => `fb.${c}`) as unknown as (typeof FEEDBACK_COLUMNS)[number][];

export type FeedbackRow = Pick<Selectable<FeedbackTable>, Names[number]>;

/** A row read whole, or in part (a field whose column was not read is left without its value, and nothing reads it). */
export function feedbackFromRow(r: FeedbackRow): Feedback {
  // one object per row, its fields stored one by one (a copy from an object literal costs about ten times more)
  const f = new Feedback();
  f.id = r.id;
  f.episodeId = r.episode_id;
  f.agentId = r.agent_id;
  f.sessionId = r.session_id;
  f.executionId = r.execution_id;
  f.actorId = r.actor_id;
  f.actorUserId = r.actor_user_id;
  f.feedbackType = r.feedback_type as FeedbackType;
  f.rating = r.rating;
  f.score = r.score === null ? null : Number(r.score);
  f.corrections = r.corrections;
  f.eventType = r.event_type;
  f.entityType = r.entity_type;
  f.entityId = r.entity_id;
  f.documentId = r.document_id;
  f.layoutFingerprint = r.layout_fingerprint;
  f.before = r.before as Record<string, unknown> | null;
  f.after = r.after as Record<string, unknown> | null;
  f.meta = r.meta as Record<string, unknown> | null;
  f.accepted = r.accepted;
  f.reason = r.reason;
  f.createdAt = instantOf(r.created_at);
  return f;
}
