import type { EntityManager } from '@mikro-orm/postgresql';
import { type InsertObject, type RawBuilder, sql as raw } from 'kysely';
import type { EventBus } from '../../core/event-bus';
import { notFound } from '../../core/errors';
import type { EpisodeRow } from '../episodes';
import { EPISODE_COLUMNS } from '../episodes';
import { addEventCounts, LEARNING_EVENT_TYPES } from '../shared';
import type { FeedbackType } from './feedback-score';
import type { Tables } from '../../db/tables';
import { firstRow, rows, sql } from '../../db/typed-sql';
import { FEEDBACK_COLUMN_NAMES, type FeedbackRow } from './feedback.rows';
import { feedbackCounterMoves } from '../shared';

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

/**
 * The values of a feedback row besides its id, time, organization, episode and agent, by column:
 * every one bound (the JSON objects as text read as jsonb).
 */
function writtenValues(w: FeedbackWrite) {
  const json = (v: Record<string, unknown> | null | undefined) => raw<string | null>`${v ? JSON.stringify(v) : null}::jsonb`;
  return {
    session_id: raw.val(w.sessionId),
    execution_id: raw.val(w.executionId),
    actor_id: raw.val(w.actorId),
    actor_user_id: raw.val(w.actorUserId),
    feedback_type: raw.val<string>(w.feedbackType),
    rating: raw.val(w.rating),
    score: raw.val(w.score),
    corrections: raw.val(w.corrections),
    event_type: raw.val(w.eventType ?? null),
    entity_type: raw.val(w.entityType ?? null),
    entity_id: raw.val(w.entityId ?? null),
    document_id: raw.val(w.documentId ?? null),
    layout_fingerprint: raw.val(w.layoutFingerprint ?? null),
    before: json(w.before),
    after: json(w.after),
    meta: json(w.meta),
    accepted: raw.val(w.accepted ?? null),
    reason: raw.val(w.reason ?? null),
  } satisfies Partial<InsertObject<Tables, 'feedback'>>;
}

/** What the insert returns: the feedback row, and what the learning event counts read. */
const RETURNED = [...FEEDBACK_COLUMN_NAMES, 'org_id', 'changed_fields'] as const;

/**
 * Learning events (corrections, confirmations, rejections) also count into their day, in the same
 * statement: the CTE `c` adds the events of the inserted rows `fb` (the statement reads nothing from it).
 */
const counted = (w: FeedbackWrite) => (LEARNING_EVENT_TYPES as readonly string[]).includes(w.feedbackType);
const eventCounts = () => raw<Record<string, never>>`(${raw.raw(addEventCounts('fb', 1))})`;

/** One more feedback on the episode: its score (0 when none), and 1 if it has one, else 0. */
const oneMore = (w: FeedbackWrite) => ({
  ...feedbackCounterMoves({ count: raw.val(1), sum: raw.val(w.score ?? 0), scored: raw.val(w.score === null ? 0 : 1) }),
  updated_at: raw<string>`now()`,
});

/** Moves the counters of the episode `episodeId` and inserts the feedback linked to it; both rows come back as JSON. */
function linkedWrite(orgId: string, episodeId: string, w: FeedbackWrite) {
  const values = writtenValues(w);
  const columns = Object.keys(values) as (keyof typeof values)[];
  const selected: Record<(typeof columns)[number], RawBuilder<unknown>> = values;
  const ctes = sql
    .with('e', (db) =>
      db
        .updateTable('episodes as e')
        .set(oneMore(w))
        .where('e.org_id', '=', orgId)
        .where('e.id', '=', episodeId)
        .returning(EPISODE_COLUMNS),
    )
    .with('fb', (db) =>
      db
        .insertInto('feedback')
        .columns(['id', 'org_id', 'created_at', 'episode_id', 'agent_id', ...columns])
        .expression(
          db
            .selectFrom('e')
            .select([raw<string>`gen_random_uuid()`.as('id'), 'e.org_id', raw.val(w.createdAt.toISOString()).as('created_at')])
            .select(['e.id as episode_id', 'e.agent_id'])
            .select(columns.map((c) => selected[c].as(c))),
        )
        .returning(RETURNED),
    );
  const read = [
    raw<FeedbackRow>`row_to_json(${raw.table('fb')})`.as('feedback'),
    raw<EpisodeRow>`row_to_json(${raw.table('e')})`.as('episode'),
  ] as const;
  return counted(w) ? ctes.with('c', eventCounts).selectFrom(['fb', 'e']).select(read) : ctes.selectFrom(['fb', 'e']).select(read);
}

/** Inserts the feedback, linked to the episode `episodeId` (or none) of the agent `agentId`. */
function unlinkedWrite(orgId: string, episodeId: string | null, agentId: string | null, w: FeedbackWrite) {
  const ctes = sql.with('fb', (db) =>
    db
      .insertInto('feedback')
      .values({
        id: raw<string>`gen_random_uuid()`,
        org_id: orgId,
        created_at: w.createdAt.toISOString(),
        episode_id: episodeId,
        agent_id: agentId,
        ...writtenValues(w),
      })
      .returning(RETURNED),
  );
  return counted(w) ? ctes.with('c', eventCounts).selectFrom('fb').select('fb.id') : ctes.selectFrom('fb').select('fb.id');
}

/**
 * Inserts one feedback row and, when it is linked to an episode, moves the episode's counters in
 * the same statement by atomic SQL (count, and sum / count of scores: the mean stays exact), and
 * reads both rows back from it. An unknown episode id writes nothing (NOT_FOUND).
 * Without an episode id, a session links it to the latest episode of the same agent and session.
 */
export async function writeFeedbackRows(
  tx: EntityManager,
  orgId: string,
  w: FeedbackWrite,
): Promise<{ written: WrittenFeedback; rows: FeedbackRows | null }> {
  if (w.episodeId) {
    const row = await firstRow(tx, linkedWrite(orgId, w.episodeId, w));
    if (!row) throw notFound('episode', w.episodeField);
    return {
      written: { feedbackId: row.feedback.id, episodeId: row.episode.id, agentId: row.episode.agent_id, feedbackType: w.feedbackType },
      rows: row,
    };
  }
  let episode: { id: string; agent_id: string } | undefined;
  if (w.sessionId && w.agentId) {
    const latest = sql
      .selectFrom('episodes')
      .select(['id', 'agent_id'])
      .where('org_id', '=', orgId)
      .where('agent_id', '=', w.agentId)
      .where('session_id', '=', w.sessionId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1);
    episode = await firstRow(tx, latest);
  }
  const agentId = episode?.agent_id ?? w.agentId;
  const [row] = await rows(tx, unlinkedWrite(orgId, episode?.id ?? null, agentId, w));
  if (episode) await rows(tx, sql.updateTable('episodes').set(oneMore(w)).where('org_id', '=', orgId).where('id', '=', episode.id));
  return { written: { feedbackId: row.id, episodeId: episode?.id ?? null, agentId, feedbackType: w.feedbackType }, rows: null };
}

/** `writeFeedbackRows` for callers that need only what is published and replayed. */
export const writeFeedback = async (tx: EntityManager, orgId: string, w: FeedbackWrite): Promise<WrittenFeedback> =>
  (await writeFeedbackRows(tx, orgId, w)).written;

/** Tells subscribers of every instance; call only after the transaction committed. */
export const publishFeedback = (bus: EventBus, orgId: string, f: WrittenFeedback) =>
  bus.pubsub.publish('feedbackAdded', {
    orgId,
    feedbackId: f.feedbackId,
    episodeId: f.episodeId,
    agentId: f.agentId,
    feedbackType: f.feedbackType,
  });
