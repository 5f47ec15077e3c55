import { CLIENT_MODEL_ID, type Embedder, episodeText, vectorsFor } from '../embeddings';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { badInput, notFound } from '../../core/errors';
import type { EventBus } from '../../core/event-bus';
import { idempotent } from '../../core/idempotency';
import { parseId } from '../../core/ids';
import { firstRow, rows, sql } from '../../db/typed-sql';
import { episodeDimension } from './episode-dimension';
import type { RecordEpisodeInput, SegmentInput } from './episodes.inputs';
import { checkRecordEpisode, checkSegments } from './episodes.validate';
import { insertOutputs, insertSegments } from './episode-parts.write';
import { feedbackCounterMoves } from '../shared';
import { publishEpisodes } from './episode.subscription';

/** Locks the episode row (so concurrent writers serialise on it) or throws NOT_FOUND. */
export async function lockEpisode(tx: EntityManager, orgId: string, episodeId: string, field: string) {
  const locked = sql
    .selectFrom('episodes')
    .select(['id', 'agent_id', 'session_id', 'created_at'])
    .where('org_id', '=', orgId)
    .where('id', '=', parseId(field, episodeId))
    .forUpdate();
  const row = await firstRow(tx, locked);
  if (!row) throw notFound('episode', field);
  return row;
}

/**
 * Links the canvas audits and feedback of the episode's org, agent and session that have no episode
 * yet, and adds them to its counters in the same statement (records that arrived before their
 * episode are backfilled).
 */
async function linkSession(
  tx: EntityManager,
  orgId: string,
  ep: { id: string; agent_id: string; session_id: string | null },
): Promise<void> {
  if (!ep.session_id) return;
  const sessionId = ep.session_id;
  const link = sql
    .with('c', (db) =>
      db
        .updateTable('canvas_audits')
        .set({ episode_id: ep.id })
        .where('org_id', '=', orgId)
        .where('agent_id', '=', ep.agent_id)
        .where('session_id', '=', sessionId)
        .where('episode_id', 'is', null)
        .returning(raw<number>`1`.as('one')),
    )
    .with('f', (db) =>
      db
        .updateTable('feedback')
        .set({ episode_id: ep.id })
        .where('org_id', '=', orgId)
        .where('agent_id', '=', ep.agent_id)
        .where('session_id', '=', sessionId)
        .where('episode_id', 'is', null)
        .returning('score'),
    )
    .updateTable('episodes')
    .set((eb) => ({
      canvas_action_count: raw<number>`canvas_action_count + ${eb.selectFrom('c').select(eb.fn.countAll<number>().as('n')).$asScalar()}`,
      ...feedbackCounterMoves({
        count: eb.selectFrom('f').select(eb.fn.countAll<number>().as('n')).$asScalar(),
        sum: eb.fn.coalesce(
          eb
            .selectFrom('f')
            .select((f) => f.fn.sum<number>('f.score').as('s'))
            .$asScalar(),
          raw<number>`0`,
        ),
        scored: eb
          .selectFrom('f')
          .select((f) => f.fn.count<number>('f.score').as('n'))
          .$asScalar(),
      }),
      updated_at: raw<string>`now()`,
    }))
    .where('org_id', '=', orgId)
    .where('id', '=', ep.id);
  await rows(tx, link);
}

/** Whether the vector fits the organization's episode vectors; a client's that does not is BAD_USER_INPUT. */
async function checkEmbeddingDimension(
  tx: EntityManager,
  orgId: string,
  emb: number[] | null | undefined,
  serverMade: boolean,
): Promise<boolean> {
  if (!emb) return true;
  const [row] = await rows(tx, episodeDimension(orgId));
  if (row.dim !== null && row.dim !== emb.length && serverMade) return false;
  if (row.dim !== null && row.dim !== emb.length)
    throw badInput('input.embedding', `embedding must have ${row.dim} numbers, like the other episodes of the organization`);
  return true;
}

async function linkFacts(
  tx: EntityManager,
  orgId: string,
  episodeId: string,
  agentId: string,
  factIds: string[],
  externalIds: string[],
): Promise<void> {
  if (factIds.length > 0) {
    const known = sql
      .selectFrom('facts')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', '=', raw<string>`any(${factIds}::uuid[])`);
    const found = new Set((await rows(tx, known)).map((r) => r.id));
    const missing = factIds.findIndex((id) => !found.has(id));
    if (missing >= 0) throw notFound('fact', `input.factIds.${missing}`);
  }
  if (externalIds.length > 0) {
    // unknown external ids become stub facts (bank = the agent, empty text) that a later upsert fills
    const stubs = sql
      .selectFrom(raw<{ e: string }>`unnest(${externalIds}::text[])`.as('e'))
      .select((eb) => [raw<string>`gen_random_uuid()`.as('id'), eb.val(orgId).as('org_id'), eb.val(agentId).as('bank_id'), 'e.e'])
      .select([raw<string>`now()`.as('created_at'), raw<string>`now()`.as('updated_at')]);
    await rows(
      tx,
      sql
        .insertInto('facts')
        .columns(['id', 'org_id', 'bank_id', 'external_id', 'created_at', 'updated_at'])
        .expression(stubs)
        .onConflict((oc) => oc.columns(['org_id', 'external_id']).doNothing()),
    );
  }
  const links = sql
    .selectFrom('facts')
    .select((eb) => [eb.val(episodeId).as('episode_id'), 'id', 'org_id', raw<string>`now()`.as('created_at')])
    .where('org_id', '=', orgId)
    .where((eb) =>
      eb.or([eb('id', '=', raw<string>`any(${factIds}::uuid[])`), eb('external_id', '=', raw<string>`any(${externalIds}::text[])`)]),
    );
  const link = sql.insertInto('episode_facts').columns(['episode_id', 'fact_id', 'org_id', 'created_at']).expression(links);
  await rows(
    tx,
    link.onConflict((oc) => oc.doNothing()),
  );
}

/** Records an episode with its segments, outputs and facts, and publishes it once committed; returns its id. */
export async function recordEpisode(
  em: EntityManager,
  embedder: Embedder,
  bus: EventBus,
  orgId: string,
  input: RecordEpisodeInput,
): Promise<string> {
  const c = checkRecordEpisode(input);
  const { idempotencyKey, ...rest } = input;
  // without a client vector, recallEpisodes finds the episode by its title and task (embedded before the transaction)
  const [vector] = await vectorsFor(embedder, orgId, [{ text: episodeText(input.title, input.task), given: input.embedding }], 'document');
  const { id } = await idempotent(
    em,
    { orgId, key: idempotencyKey, operation: 'recordEpisode', input: rest },
    async (tx) => {
      // a server vector that does not fit the organization's (client) episode vectors is not stored
      const fits = await checkEmbeddingDimension(tx, orgId, vector.embedding, vector.model !== CLIENT_MODEL_ID);
      const episode = sql
        .insertInto('episodes')
        .values({
          id: raw<string>`gen_random_uuid()`,
          org_id: orgId,
          created_at: c.createdAt.toISOString(),
          updated_at: raw<string>`now()`,
          agent_id: input.agentId,
          session_id: input.sessionId ?? null,
          title: input.title ?? null,
          task: input.task ?? null,
          intent: input.intent ?? null,
          topic: input.topic ?? null,
          blueprint: input.blueprint ?? null,
          ended_at: input.endedAt?.toISOString() ?? null,
          execution_ids: raw<string[]>`${input.executionIds ?? []}::text[]`,
          generation_config: raw<string | null>`${input.generationConfig ? JSON.stringify(input.generationConfig) : null}::jsonb`,
          metadata: raw<string | null>`${input.metadata ? JSON.stringify(input.metadata) : null}::jsonb`,
          embedding: raw<number[] | null>`${fits ? vector.embedding : null}::double precision[]`,
          embedding_model: fits ? vector.model : null,
          overall_score: input.overallScore ?? null,
          accepted: input.accepted ?? null,
        })
        .returning(['id', 'agent_id', 'session_id']);
      const [ep] = await rows(tx, episode);
      await insertSegments(tx, orgId, ep.id, 1, c.segments, c.createdAt);
      if (c.outputs.length > 0) await insertOutputs(tx, orgId, ep.id, c.outputs, c.createdAt);
      if (c.factIds.length + c.factExternalIds.length > 0) await linkFacts(tx, orgId, ep.id, input.agentId, c.factIds, c.factExternalIds);
      await linkSession(tx, orgId, ep);
      return { id: ep.id, agentId: ep.agent_id, sessionId: ep.session_id };
    },
    // a replay published nothing new: only the call that wrote announces the episode
    (e) => publishEpisodes(bus, orgId, [e]),
  );
  return id;
}

/** Appends turns after the last one; concurrent appends serialise on the episode row. */
export async function appendSegments(
  em: EntityManager,
  orgId: string,
  episodeId: string,
  segments: SegmentInput[],
  idempotencyKey?: string | null,
): Promise<string> {
  const checked = checkSegments('segments', segments);
  if (checked.length === 0) throw badInput('segments', 'segments must not be empty');
  const { id } = await idempotent(
    em,
    { orgId, key: idempotencyKey, operation: 'appendSegments', input: { episodeId, segments } },
    async (tx) => {
      const ep = await lockEpisode(tx, orgId, episodeId, 'episodeId');
      const last = sql
        .selectFrom('episode_segments')
        .select(raw<number>`coalesce(max(seq), 0) + 1`.as('next'))
        .where('org_id', '=', orgId)
        .where('episode_id', '=', ep.id);
      const [{ next }] = await rows(tx, last);
      await insertSegments(tx, orgId, ep.id, next, checked, new Date());
      await rows(
        tx,
        sql
          .updateTable('episodes')
          .set({ updated_at: raw<string>`now()` })
          .where('org_id', '=', orgId)
          .where('id', '=', ep.id),
      );
      return { id: ep.id };
    },
  );
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
