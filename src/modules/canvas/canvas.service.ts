import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { badInput, notFound } from '../../core/errors';
import { idempotent } from '../../core/idempotency';
import { parseId } from '../../core/ids';
import { keysetPage } from '../shared';
import { occurredAt, since } from '../../core/time-range';
import { jsonObject, text } from '../../core/validate';
import { firstRow, rows, sql } from '../../db/typed-sql';
import { CANVAS_ACTIONS, canvasType } from '../shared';
import type { CanvasActionInput, CanvasAuditFilter } from './canvas.inputs';
import { CANVAS_COLUMNS, canvasFromRow, type CanvasRow } from './canvas.rows';
import type { CanvasAudit } from './canvas.type';

/**
 * Records one canvas action, linked to the episode given or (given only a session) to the latest
 * episode of the same agent and session; the episode's counter moves in the same transaction.
 */
export async function recordCanvasAction(em: EntityManager, orgId: string, input: CanvasActionInput): Promise<string> {
  text('input.agentId', input.agentId, 200, { required: true });
  text('input.sessionId', input.sessionId, 200);
  text('input.canvasId', input.canvasId, 200);
  text('input.componentType', input.componentType, 200);
  canvasType('input.canvasType', input.canvasType);
  if (!CANVAS_ACTIONS.includes(input.action)) throw badInput('input.action', `action must be one of ${CANVAS_ACTIONS.join(', ')}`);
  jsonObject('input.metadata', input.metadata);
  const at = occurredAt(input.occurredAt, 'input.occurredAt');
  const episodeId = input.episodeId ? parseId('input.episodeId', input.episodeId) : null;
  const { idempotencyKey, ...rest } = input;

  const { id } = await idempotent(em, { orgId, key: idempotencyKey, operation: 'recordCanvasAction', input: rest }, async (tx) => {
    let linked: string | null = null;
    if (episodeId) {
      const ep = await firstRow(tx, sql.selectFrom('episodes').select('id').where('org_id', '=', orgId).where('id', '=', episodeId));
      if (!ep) throw notFound('episode', 'input.episodeId');
      linked = ep.id;
    } else if (input.sessionId) {
      const ep = await firstRow(
        tx,
        sql
          .selectFrom('episodes')
          .select('id')
          .where('org_id', '=', orgId)
          .where('agent_id', '=', input.agentId)
          .where('session_id', '=', input.sessionId)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(1),
      );
      linked = ep?.id ?? null;
    }
    const inserted = sql
      .insertInto('canvas_audits')
      .values({
        id: raw<string>`gen_random_uuid()`,
        org_id: orgId,
        created_at: at.toISOString(),
        agent_id: input.agentId,
        session_id: input.sessionId ?? null,
        episode_id: linked,
        canvas_id: input.canvasId ?? null,
        canvas_type: input.canvasType,
        component_type: input.componentType ?? null,
        action: input.action,
        metadata: raw<string>`${input.metadata ? JSON.stringify(input.metadata) : null}::jsonb`,
      })
      .returning('id');
    const [row] = await rows(tx, inserted);
    if (linked) {
      const counted = sql
        .updateTable('episodes')
        .set((eb) => ({ canvas_action_count: eb('canvas_action_count', '+', 1), updated_at: raw<string>`now()` }))
        .where('org_id', '=', orgId)
        .where('id', '=', linked);
      await rows(tx, counted);
    }
    return { id: row.id };
  });
  return id;
}

export async function getCanvasAudit(em: EntityManager, orgId: string, id: string): Promise<CanvasAudit | null> {
  const row = await firstRow(
    em,
    sql.selectFrom('canvas_audits as c').select(CANVAS_COLUMNS).where('c.org_id', '=', orgId).where('c.id', '=', id),
  );
  return row ? canvasFromRow(row) : null;
}

/** A page of canvas audits, newest first, by keyset (created_at, id). */
export async function listCanvasAudits(
  em: EntityManager,
  orgId: string,
  filter: CanvasAuditFilter | null | undefined,
  first?: number | null,
  after?: string | null,
) {
  const f = filter ?? {};
  const episodeId = f.episodeId ? parseId('filter.episodeId', f.episodeId) : null;
  const type = f.canvasType ? canvasType('filter.canvasType', f.canvasType) : null;
  let q = sql.selectFrom('canvas_audits as c').select(CANVAS_COLUMNS).where('c.org_id', '=', orgId);
  if (f.agentId !== null && f.agentId !== undefined) q = q.where('c.agent_id', '=', f.agentId);
  if (f.sessionId !== null && f.sessionId !== undefined) q = q.where('c.session_id', '=', f.sessionId);
  if (episodeId !== null) q = q.where('c.episode_id', '=', episodeId);
  if (type !== null) q = q.where('c.canvas_type', '=', type);
  if (f.action !== null && f.action !== undefined) q = q.where('c.action', '=', f.action);
  if (f.timeRange) q = q.where('c.created_at', '>=', since(f.timeRange, 'filter.timeRange').toISOString());
  const toNodes = (rows: CanvasRow[]) => rows.map(canvasFromRow);
  return keysetPage(em, q, { alias: 'c', sortColumn: 'created_at', first, after, toNodes });
}
