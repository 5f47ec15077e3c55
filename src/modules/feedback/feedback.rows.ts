import type { Selectable } from 'kysely';
import type { FeedbackTable } from '../../db/tables';
import { briefColumn } from '../../db/brief-column';
import { sql } from '../../db/typed-sql';
import type { FeedbackType } from './feedback-score';
import { Feedback } from './feedback.type';

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

/** Fields backed by the large columns: read only when one of them is selected. */
export const FEEDBACK_DETAIL_FIELDS = ['corrections', 'before', 'after', 'meta'] as const;

/** FEEDBACK_COLUMNS with the large ones (free text, before / after / meta JSON) read as NULL, in the same order. */
const FEEDBACK_BRIEF_SELECTION = [
  'fb.id',
  'fb.episode_id',
  'fb.agent_id',
  'fb.session_id',
  'fb.execution_id',
  'fb.actor_id',
  'fb.actor_user_id',
  'fb.feedback_type',
  'fb.rating',
  'fb.score',
  briefColumn('corrections', 'text'),
  'fb.event_type',
  'fb.entity_type',
  'fb.entity_id',
  'fb.document_id',
  'fb.layout_fingerprint',
  briefColumn('before', 'jsonb'),
  briefColumn('after', 'jsonb'),
  briefColumn('meta', 'jsonb'),
  'fb.accepted',
  'fb.reason',
  'fb.created_at',
] as const;

/** FEEDBACK_BRIEF_SELECTION as SQL text (the select list of the compiled statement), for statements still written as text. */
export const FEEDBACK_BRIEF_COLUMNS = ((s: string) => s.slice('select '.length, s.lastIndexOf(' from ')))(
  sql.selectFrom('feedback as fb').select(FEEDBACK_BRIEF_SELECTION).compile().sql,
);

type FeedbackSelection = (typeof FEEDBACK_COLUMNS)[number] | (typeof FEEDBACK_BRIEF_SELECTION)[number];
/** The full selection (`detail`) or the brief one, as one type: a large column is its own type or NULL. */
export const feedbackSelection = (detail: boolean): readonly FeedbackSelection[] => (detail ? FEEDBACK_COLUMNS : FEEDBACK_BRIEF_SELECTION);

export type FeedbackRow = Pick<Selectable<FeedbackTable>, Names[number]>;

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
    before: r.before as Record<string, unknown> | null,
    after: r.after as Record<string, unknown> | null,
    meta: r.meta as Record<string, unknown> | null,
    accepted: r.accepted,
    reason: r.reason,
    createdAt: new Date(r.created_at),
  });
