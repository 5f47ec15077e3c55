import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput, notFound } from '../../core/errors';
import { idempotent } from '../../core/idempotency';
import { parseId } from '../../core/ids';
import { keysetPageText } from '../shared/keyset-page';
import { occurredAt, since } from '../../core/time-range';
import { jsonObject, text } from '../../core/validate';
import { CANVAS_ACTIONS, canvasType } from '../shared/canvas-vocabulary';
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
      const [ep] = await tx.execute<{ id: string }[]>('SELECT id FROM episodes WHERE org_id = ? AND id = ?', [orgId, episodeId]);
      if (!ep) throw notFound('episode', 'input.episodeId');
      linked = ep.id;
    } else if (input.sessionId) {
      const [ep] = await tx.execute<{ id: string }[]>(
        'SELECT id FROM episodes WHERE org_id = ? AND agent_id = ? AND session_id = ? ORDER BY created_at DESC, id DESC LIMIT 1',
        [orgId, input.agentId, input.sessionId],
      );
      linked = ep?.id ?? null;
    }
    const [row] = await tx.execute<{ id: string }[]>(
      `INSERT INTO canvas_audits (id, org_id, created_at, agent_id, session_id, episode_id, canvas_id, canvas_type, component_type, action, metadata)
       VALUES (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb) RETURNING id`,
      [orgId, at.toISOString(), input.agentId, input.sessionId ?? null, linked, input.canvasId ?? null, input.canvasType, input.componentType ?? null, input.action, input.metadata ? JSON.stringify(input.metadata) : null],
    );
    if (linked) await tx.execute('UPDATE episodes SET canvas_action_count = canvas_action_count + 1, updated_at = now() WHERE org_id = ? AND id = ?', [orgId, linked]);
    return { id: row.id };
  });
  return id;
}

export async function getCanvasAudit(em: EntityManager, orgId: string, id: string): Promise<CanvasAudit | null> {
  const [row] = await em.execute<CanvasRow[]>(`SELECT ${CANVAS_COLUMNS} FROM canvas_audits c WHERE c.org_id = ? AND c.id = ?`, [orgId, id]);
  return row ? canvasFromRow(row) : null;
}

/** A page of canvas audits, newest first, by keyset (created_at, id). */
export async function listCanvasAudits(em: EntityManager, orgId: string, filter: CanvasAuditFilter | null | undefined, first?: number | null, after?: string | null) {
  const where = ['c.org_id = ?'];
  const params: unknown[] = [orgId];
  const f = filter ?? {};
  const eq = (col: string, v: unknown) => {
    if (v === null || v === undefined) return;
    where.push(`c.${col} = ?`);
    params.push(v);
  };
  eq('agent_id', f.agentId);
  eq('session_id', f.sessionId);
  eq('episode_id', f.episodeId ? parseId('filter.episodeId', f.episodeId) : null);
  eq('canvas_type', f.canvasType ? canvasType('filter.canvasType', f.canvasType) : null);
  eq('action', f.action);
  if (f.timeRange) {
    where.push('c.created_at >= ?');
    params.push(since(f.timeRange, 'filter.timeRange').toISOString());
  }
  return keysetPageText<CanvasRow & { id: string }, CanvasAudit>(em, { columns: CANVAS_COLUMNS, table: 'canvas_audits', alias: 'c', sortColumn: 'created_at', where, params, first, after, toNodes: (rows) => rows.map(canvasFromRow) });
}
