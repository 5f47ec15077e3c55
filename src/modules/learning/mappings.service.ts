import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { templateRows } from '../../db/typed-sql';
import type { EventBus } from '../../core/event-bus';
import { text } from '../../core/validate';
import { FACT_COLUMNS, factFromRow, type FactRow } from '../facts';
import type { Fact } from '../facts';
import { publishFeedback, writeFeedback } from '../feedback';
import type { MappingInput } from './learning.inputs';

type MappingState = { value: string | null; status: string; confidence: number; supportCount: number } | null;
const stateOf = (r: FactRow | undefined): MappingState =>
  r ? { value: r.value, status: r.status, confidence: Number(r.confidence), supportCount: Number(r.support_count) } : null;

function check(input: MappingInput): void {
  for (const f of ['scope', 'key', 'value'] as const) text(`input.${f}`, input[f], 200, { required: true });
  text('input.actorUserId', input.actorUserId, 200);
}

/**
 * The fact columns are a list written as text (shared with the other reads of facts), so the
 * statements of mappings are templates; their values are bound.
 */
const factColumns = () => raw.raw(FACT_COLUMNS.join(', '));

/** The mapping of a scope and key (alias `f`), scoped to the organization. */
const mappingOf = (orgId: string, scope: string, key: string) =>
  raw`f.org_id = ${orgId} AND f.bank_id = 'mappings' AND f.scope = ${scope} AND f.key = ${key}`;

async function current(tx: EntityManager, orgId: string, scope: string, key: string): Promise<FactRow | undefined> {
  const [row] = await templateRows<FactRow>(tx, raw`SELECT ${factColumns()} FROM facts f WHERE ${mappingOf(orgId, scope, key)} FOR UPDATE`);
  return row;
}

interface Actor {
  orgId: string;
  apiKeyId: string;
}

/**
 * Confirms `key -> value` in `scope` (an operator confirming a suggested mapping): CONFIRMED,
 * confidence 1.0, support count + 1 (restarting at 1 when the value changes), and a
 * MAPPING_CONFIRMED feedback.
 */
export async function confirmMapping(em: EntityManager, bus: EventBus, actor: Actor, input: MappingInput): Promise<Fact> {
  check(input);
  const { fact, written } = await em.transactional(async (tx) => {
    const before = await current(tx, actor.orgId, input.scope, input.key);
    const [row] = await templateRows<FactRow>(
      tx,
      raw`INSERT INTO facts AS f (id, org_id, bank_id, text, kind, scope, key, value, status, confidence, support_count,
                                  last_used_at, created_at, updated_at)
       VALUES (gen_random_uuid(), ${actor.orgId}, 'mappings', ${`${input.key} -> ${input.value}`}, 'mapping',
               ${input.scope}, ${input.key}, ${input.value}, 'CONFIRMED', 1.0, 1, now(), now(), now())
       ON CONFLICT (org_id, scope, key) WHERE bank_id = 'mappings' DO UPDATE SET
         value = EXCLUDED.value, text = EXCLUDED.text, status = 'CONFIRMED', confidence = 1.0,
         support_count = CASE WHEN f.value = EXCLUDED.value THEN f.support_count + 1 ELSE 1 END,
         last_used_at = now(), updated_at = now()
       RETURNING ${factColumns()}`,
    );
    const written = await writeFeedback(tx, actor.orgId, {
      episodeId: null,
      episodeField: 'input',
      agentId: null,
      sessionId: null,
      executionId: null,
      actorId: actor.apiKeyId,
      actorUserId: input.actorUserId ?? null,
      feedbackType: 'CONFIRMATION',
      rating: null,
      score: null,
      corrections: null,
      eventType: 'MAPPING_CONFIRMED',
      entityType: 'mapping',
      entityId: row.id,
      before: { ...stateOf(before), scope: input.scope, key: input.key },
      after: { ...stateOf(row), scope: input.scope, key: input.key },
      createdAt: new Date(),
    });
    return { fact: factFromRow(row), written };
  });
  publishFeedback(bus, actor.orgId, written);
  return fact;
}

/**
 * Rejects `key -> value` in `scope`: the stored mapping of that value becomes REJECTED with its
 * confidence halved; with none stored, a REJECTED mapping at confidence 0 is kept; a mapping to
 * another value is left as is. Always records a MAPPING_REJECTED feedback.
 */
export async function rejectMapping(em: EntityManager, bus: EventBus, actor: Actor, input: MappingInput): Promise<Fact> {
  check(input);
  const { fact, written } = await em.transactional(async (tx) => {
    const before = await current(tx, actor.orgId, input.scope, input.key);
    let row: FactRow;
    if (before && before.value !== input.value) {
      row = before;
    } else {
      [row] = await templateRows<FactRow>(
        tx,
        raw`INSERT INTO facts AS f (id, org_id, bank_id, text, kind, scope, key, value, status, confidence, support_count,
                                    created_at, updated_at)
         VALUES (gen_random_uuid(), ${actor.orgId}, 'mappings', ${`${input.key} -> ${input.value}`}, 'mapping',
                 ${input.scope}, ${input.key}, ${input.value}, 'REJECTED', 0, 0, now(), now())
         ON CONFLICT (org_id, scope, key) WHERE bank_id = 'mappings' DO UPDATE SET
           status = 'REJECTED', confidence = f.confidence / 2, updated_at = now()
         WHERE f.value = EXCLUDED.value
         RETURNING ${factColumns()}`,
      );
      row ??= (await current(tx, actor.orgId, input.scope, input.key))!;
    }
    const written = await writeFeedback(tx, actor.orgId, {
      episodeId: null,
      episodeField: 'input',
      agentId: null,
      sessionId: null,
      executionId: null,
      actorId: actor.apiKeyId,
      actorUserId: input.actorUserId ?? null,
      feedbackType: 'REJECTION',
      rating: null,
      score: null,
      corrections: null,
      eventType: 'MAPPING_REJECTED',
      entityType: 'mapping',
      entityId: row.id,
      before: { ...stateOf(before), scope: input.scope, key: input.key },
      after: { ...stateOf(row), scope: input.scope, key: input.key },
      meta: { rejectedValue: input.value },
      createdAt: new Date(),
    });
    return { fact: factFromRow(row), written };
  });
  publishFeedback(bus, actor.orgId, written);
  return fact;
}

/**
 * The confirmed mapping of a scope and key, or null. Records no feedback: applying a confirmed
 * mapping automatically is not an operator action, and only operator actions are learning events.
 */
export async function resolveMapping(em: EntityManager, orgId: string, scope: string, key: string): Promise<Fact | null> {
  text('scope', scope, 200, { required: true });
  text('key', key, 200, { required: true });
  const confirmed = raw<FactRow>`SELECT ${factColumns()} FROM facts f WHERE ${mappingOf(orgId, scope, key)} AND f.status = 'CONFIRMED'`;
  const [row] = await templateRows(em, confirmed);
  return row ? factFromRow(row) : null;
}
