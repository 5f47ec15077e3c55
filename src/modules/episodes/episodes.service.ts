import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput, notFound } from '../../core/errors';
import { idempotent } from '../../core/idempotency';
import { parseId } from '../../core/ids';
import { pgArray } from '../../core/sql';
import { EPISODE_DIMENSION_SQL } from './episode-dimension';
import type { RecordEpisodeInput, SegmentInput } from './episodes.inputs';
import { checkRecordEpisode, checkSegments, type SegmentRow } from './episodes.validate';
import { moveFeedbackCounters } from '../shared/episode-feedback-counters';

/** Locks the episode row (so concurrent writers serialise on it) or throws NOT_FOUND. */
export async function lockEpisode(tx: EntityManager, orgId: string, episodeId: string, field: string): Promise<{ id: string; agent_id: string; session_id: string | null; created_at: Date }> {
  const [row] = await tx.execute<{ id: string; agent_id: string; session_id: string | null; created_at: Date }[]>('SELECT id, agent_id, session_id, created_at FROM episodes WHERE org_id = ? AND id = ? FOR UPDATE', [orgId, parseId(field, episodeId)]);
  if (!row) throw notFound('episode', field);
  return row;
}

async function insertSegments(tx: EntityManager, orgId: string, episodeId: string, firstSeq: number, rows: SegmentRow[], defaultAt: Date): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(
    `INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at)
     SELECT gen_random_uuid(), ?, ?, ? + ord - 1, x.role, x.content, x.token_estimate, coalesce(x.created_at, ?::timestamptz)
       FROM ROWS FROM (jsonb_to_recordset(?::jsonb) AS (role text, content text, token_estimate int, created_at timestamptz))
            WITH ORDINALITY AS x(role, content, token_estimate, created_at, ord)`,
    [orgId, episodeId, firstSeq, defaultAt.toISOString(), JSON.stringify(rows)],
  );
}

/**
 * Links the canvas audits and feedback of the episode's org, agent and session that have no episode
 * yet, and adds them to its counters in the same statement (records that arrived before their
 * episode are backfilled).
 */
export async function linkSession(tx: EntityManager, orgId: string, ep: { id: string; agent_id: string; session_id: string | null }): Promise<void> {
  if (!ep.session_id) return;
  await tx.execute(
    `WITH c AS (
       UPDATE canvas_audits SET episode_id = ? WHERE org_id = ? AND agent_id = ? AND session_id = ? AND episode_id IS NULL RETURNING 1),
     f AS (
       UPDATE feedback SET episode_id = ? WHERE org_id = ? AND agent_id = ? AND session_id = ? AND episode_id IS NULL RETURNING score)
     UPDATE episodes SET
       canvas_action_count = canvas_action_count + (SELECT count(*) FROM c),
       ${moveFeedbackCounters({ count: '(SELECT count(*) FROM f)', sum: 'coalesce((SELECT sum(score) FROM f), 0)', scored: '(SELECT count(score) FROM f)' })},
       updated_at = now()
     WHERE org_id = ? AND id = ?`,
    [ep.id, orgId, ep.agent_id, ep.session_id, ep.id, orgId, ep.agent_id, ep.session_id, orgId, ep.id],
  );
}

async function checkEmbeddingDimension(tx: EntityManager, orgId: string, emb: number[] | null | undefined): Promise<void> {
  if (!emb) return;
  const [row] = await tx.execute<{ dim: number | null }[]>(`SELECT (${EPISODE_DIMENSION_SQL}) AS dim`, [orgId]);
  if (row.dim !== null && row.dim !== emb.length) throw badInput('input.embedding', `embedding must have ${row.dim} numbers, like the other episodes of the organization`);
}

async function linkFacts(tx: EntityManager, orgId: string, episodeId: string, agentId: string, factIds: string[], externalIds: string[]): Promise<void> {
  if (factIds.length > 0) {
    const found = new Set((await tx.execute<{ id: string }[]>('SELECT id FROM facts WHERE org_id = ? AND id = ANY(?::uuid[])', [orgId, pgArray(factIds)])).map((r) => r.id));
    const missing = factIds.findIndex((id) => !found.has(id));
    if (missing >= 0) throw notFound('fact', `input.factIds.${missing}`);
  }
  if (externalIds.length > 0) {
    // unknown external ids become stub facts (bank = the agent, empty text) that a later upsert fills
    await tx.execute(
      `INSERT INTO facts (id, org_id, bank_id, external_id, created_at, updated_at)
       SELECT gen_random_uuid(), ?, ?, e, now(), now() FROM unnest(?::text[]) AS e
       ON CONFLICT (org_id, external_id) DO NOTHING`,
      [orgId, agentId, pgArray(externalIds)],
    );
  }
  await tx.execute(
    `INSERT INTO episode_facts (episode_id, fact_id, org_id, created_at)
     SELECT ?, id, org_id, now() FROM facts
      WHERE org_id = ? AND (id = ANY(?::uuid[]) OR external_id = ANY(?::text[]))
     ON CONFLICT DO NOTHING`,
    [episodeId, orgId, pgArray(factIds), pgArray(externalIds)],
  );
}

/** Records an episode with its segments, outputs and facts; returns its id. */
export async function recordEpisode(em: EntityManager, orgId: string, input: RecordEpisodeInput): Promise<string> {
  const c = checkRecordEpisode(input);
  const { idempotencyKey, ...rest } = input;
  const { id } = await idempotent(em, { orgId, key: idempotencyKey, operation: 'recordEpisode', input: rest }, async (tx) => {
    await checkEmbeddingDimension(tx, orgId, input.embedding);
    const [ep] = await tx.execute<{ id: string; agent_id: string; session_id: string | null }[]>(
      `INSERT INTO episodes (id, org_id, created_at, updated_at, agent_id, session_id, title, task, intent, topic, blueprint, ended_at,
         execution_ids, generation_config, metadata, embedding, overall_score, accepted)
       VALUES (gen_random_uuid(), ?, ?, now(), ?, ?, ?, ?, ?, ?, ?, ?, ?::text[], ?::jsonb, ?::jsonb, ?::double precision[], ?, ?)
       RETURNING id, agent_id, session_id`,
      [
        orgId, c.createdAt.toISOString(), input.agentId, input.sessionId ?? null, input.title ?? null, input.task ?? null,
        input.intent ?? null, input.topic ?? null, input.blueprint ?? null, input.endedAt?.toISOString() ?? null,
        pgArray(input.executionIds ?? []),
        input.generationConfig ? JSON.stringify(input.generationConfig) : null,
        input.metadata ? JSON.stringify(input.metadata) : null,
        input.embedding ? `{${input.embedding.join(',')}}` : null,
        input.overallScore ?? null, input.accepted ?? null,
      ],
    );
    await insertSegments(tx, orgId, ep.id, 1, c.segments, c.createdAt);
    if (c.outputs.length > 0) {
      await tx.execute(
        `INSERT INTO episode_outputs (id, org_id, episode_id, created_at, updated_at, kind, content, difficulty, quality_score, regeneration_round)
         SELECT gen_random_uuid(), ?, ?, ?::timestamptz + (ord - 1) * interval '1 microsecond', now(), x.kind, x.content, x.difficulty, x.quality_score, x.regeneration_round
           FROM ROWS FROM (jsonb_to_recordset(?::jsonb) AS (kind text, content jsonb, difficulty text, quality_score float8, regeneration_round int))
              WITH ORDINALITY AS x(kind, content, difficulty, quality_score, regeneration_round, ord)`,
        [orgId, ep.id, c.createdAt.toISOString(), JSON.stringify(c.outputs)],
      );
    }
    if (c.factIds.length + c.factExternalIds.length > 0) await linkFacts(tx, orgId, ep.id, input.agentId, c.factIds, c.factExternalIds);
    await linkSession(tx, orgId, ep);
    return { id: ep.id };
  });
  return id;
}

/** Appends turns after the last one; concurrent appends serialise on the episode row. */
export async function appendSegments(em: EntityManager, orgId: string, episodeId: string, segments: SegmentInput[], idempotencyKey?: string | null): Promise<string> {
  const rows = checkSegments('segments', segments);
  if (rows.length === 0) throw badInput('segments', 'segments must not be empty');
  const { id } = await idempotent(em, { orgId, key: idempotencyKey, operation: 'appendSegments', input: { episodeId, segments } }, async (tx) => {
    const ep = await lockEpisode(tx, orgId, episodeId, 'episodeId');
    const [{ next }] = await tx.execute<{ next: number }[]>('SELECT coalesce(max(seq), 0) + 1 AS next FROM episode_segments WHERE org_id = ? AND episode_id = ?', [orgId, ep.id]);
    await insertSegments(tx, orgId, ep.id, next, rows, new Date());
    await tx.execute('UPDATE episodes SET updated_at = now() WHERE org_id = ? AND id = ?', [orgId, ep.id]);
    return { id: ep.id };
  });
  return id;
}

/** Links same-session canvas audits and feedback that have no episode yet to an older episode. */
export async function linkSessionRecords(em: EntityManager, orgId: string, episodeId: string): Promise<string> {
  return em.transactional(async (tx) => {
    const ep = await lockEpisode(tx, orgId, episodeId, 'episodeId');
    await linkSession(tx, orgId, ep);
    return ep.id;
  });
}
