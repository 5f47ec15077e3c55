import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventBus } from '../../core/event-bus';
import { AppError, badInput } from '../../core/errors';
import { idempotent } from '../../core/idempotency';
import { parseId } from '../../core/ids';
import { occurredAt } from '../../core/time-range';
import { jsonObject, text } from '../../core/validate';
import { firstRow, sql } from '../../db/typed-sql';
import { checkFingerprint } from '../shared';
import { creditEpisode } from '../traces';
import { reduceCorrection } from './correction-reduce';
import { FEEDBACK_TYPES, feedbackScore } from './feedback-score';
import type { CorrectionInput, SubmitFeedbackInput } from './feedback.inputs';
import { type FeedbackRows, publishFeedback, type WrittenFeedback, writeFeedback, writeFeedbackRows } from './feedback.write';

export interface Actor {
  orgId: string;
  apiKeyId: string;
}

/** Who gave the feedback and what it is about: the fields every feedback write shares. */
function origin(actor: Actor, input: SubmitFeedbackInput | CorrectionInput, episodeId: string | null) {
  return {
    episodeId,
    episodeField: 'input.episodeId',
    agentId: input.agentId ?? null,
    sessionId: input.sessionId ?? null,
    executionId: input.executionId ?? null,
    actorId: actor.apiKeyId,
    actorUserId: input.actorUserId ?? null,
  };
}

const EVENT_TYPE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

function checkRating(type: SubmitFeedbackInput['feedbackType'], rating: number | null | undefined): void {
  if (rating !== null && rating !== undefined && (!Number.isInteger(rating) || rating < 1 || rating > 5))
    throw badInput('input.rating', 'rating must be an integer 1..5');
  if (type === 'RATING' && (rating === null || rating === undefined)) throw badInput('input.rating', 'a RATING needs a rating 1..5');
  if ((type === 'THUMBS_UP' || type === 'THUMBS_DOWN') && rating !== null && rating !== undefined)
    throw badInput('input.rating', `${type} takes no rating`);
}

/**
 * A thumb, a rating or free-text corrections; linked to its episode, counters updated, published
 * after commit. Returns the rows as written (`rows`) unless the call was a replay.
 */
export async function submitFeedback(
  em: EntityManager,
  bus: EventBus,
  actor: Actor,
  input: SubmitFeedbackInput,
): Promise<WrittenFeedback & { rows: FeedbackRows | null }> {
  if (!FEEDBACK_TYPES.includes(input.feedbackType))
    throw badInput('input.feedbackType', `feedbackType must be one of ${FEEDBACK_TYPES.join(', ')}`);
  if (input.feedbackType === 'JUDGEMENT') throw badInput('input.feedbackType', 'judgements are written by judgeEpisode');
  checkRating(input.feedbackType, input.rating);
  text('input.corrections', input.corrections, 4000);
  for (const f of ['agentId', 'sessionId', 'executionId', 'actorUserId'] as const) text(`input.${f}`, input[f], 200);
  const createdAt = occurredAt(input.occurredAt, 'input.occurredAt');
  const episodeId = input.episodeId ? parseId('input.episodeId', input.episodeId) : null;
  // feedback nobody can find again is refused: it names its episode, or the agent and session it
  // links to (now, or when that session's episode is recorded)
  if (episodeId === null && !(input.agentId && input.sessionId)) {
    throw badInput('input.episodeId', 'feedback must say what it is about: give episodeId, or agentId and sessionId');
  }
  const { idempotencyKey, ...rest } = input;
  const score = feedbackScore(input.feedbackType, input.rating);
  let rows: FeedbackRows | null = null;
  const written = await idempotent(
    em,
    // with an episode id and no score the write is one statement: no explicit transaction around it;
    // a scored one credits the facts its episode used in the same transaction
    {
      orgId: actor.orgId,
      key: idempotencyKey,
      operation: 'submitFeedback',
      input: rest,
      singleStatement: episodeId !== null && score === null,
    },
    async (tx) => {
      const w = await writeFeedbackRows(tx, actor.orgId, {
        ...origin(actor, input, episodeId),
        feedbackType: input.feedbackType,
        rating: input.rating ?? null,
        score,
        corrections: input.corrections ?? null,
        createdAt,
      });
      rows = w.rows;
      if (score !== null && w.written.episodeId)
        await creditEpisode(tx, actor.orgId, actor.apiKeyId, {
          kind: 'FEEDBACK',
          episodeId: w.written.episodeId,
          feedbackId: w.written.feedbackId,
          score,
        });
      return w.written;
    },
    (w) => publishFeedback(bus, actor.orgId, w),
  );
  return { ...written, rows };
}

/** An operator correction (always type CORRECTION), reduced to fit 10 KB or refused. */
export async function recordCorrection(em: EntityManager, bus: EventBus, actor: Actor, input: CorrectionInput): Promise<WrittenFeedback> {
  if (!EVENT_TYPE.test(input.eventType) || input.eventType.length > 64)
    throw badInput('input.eventType', 'eventType must be UPPER_SNAKE_CASE of at most 64 characters');
  const before = jsonObject('input.before', input.before, Number.MAX_SAFE_INTEGER);
  const after = jsonObject('input.after', input.after, Number.MAX_SAFE_INTEGER);
  if (!before) throw badInput('input.before', 'before must be a JSON object');
  if (!after) throw badInput('input.after', 'after must be a JSON object');
  const meta = jsonObject('input.meta', input.meta);
  text('input.corrections', input.corrections, 4000);
  for (const f of ['entityType', 'entityId', 'agentId', 'sessionId', 'executionId', 'documentId', 'actorUserId'] as const)
    text(`input.${f}`, input[f], 200);
  if (input.layoutFingerprint) checkFingerprint('input.layoutFingerprint', input.layoutFingerprint);
  const reduced = reduceCorrection(before, after, meta);
  if (!reduced) throw new AppError('PAYLOAD_TOO_LARGE', 'before/after exceed 10 KB even when reduced to the changed keys', 'input.before');
  const createdAt = occurredAt(input.occurredAt, 'input.occurredAt');
  const episodeId = input.episodeId ? parseId('input.episodeId', input.episodeId) : null;
  const { idempotencyKey, ...rest } = input;
  return idempotent(
    em,
    { orgId: actor.orgId, key: idempotencyKey, operation: 'recordCorrection', input: rest },
    async (tx) => {
      let fingerprint = input.layoutFingerprint ?? null;
      if (input.documentId) {
        const doc = await firstRow(
          tx,
          sql
            .selectFrom('documents')
            .select('layout_fingerprint')
            .where('org_id', '=', actor.orgId)
            .where('document_id', '=', input.documentId),
        );
        fingerprint = doc?.layout_fingerprint ?? fingerprint;
      }
      return writeFeedback(tx, actor.orgId, {
        ...origin(actor, input, episodeId),
        feedbackType: 'CORRECTION',
        rating: null,
        score: null,
        corrections: input.corrections ?? null,
        eventType: input.eventType,
        entityType: input.entityType ?? null,
        entityId: input.entityId ?? null,
        documentId: input.documentId ?? null,
        layoutFingerprint: fingerprint,
        before: reduced.before,
        after: reduced.after,
        meta: reduced.meta,
        createdAt,
      });
    },
    (written) => publishFeedback(bus, actor.orgId, written),
  );
}
