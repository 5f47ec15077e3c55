import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { badInput, notFound } from '../../core/errors';
import { parseId } from '../../core/ids';
import { text } from '../../core/validate';
import { rows, sql } from '../../db/typed-sql';
import { lockEpisode } from '../episodes';
import { creditEpisode } from './credit.service';

const MAX_FACTS = 500;

/**
 * Links facts an episode used after it was recorded (an agent learns what it used only after
 * answering) and credits USED to each of them that a traced recall served to the episode. Unknown
 * facts, or another organization's, are NOT_FOUND and nothing changes. Returns the episode id.
 */
export async function useFacts(
  em: EntityManager,
  orgId: string,
  actorId: string | null,
  input: { episodeId: string; factIds?: string[] | null; factExternalIds?: string[] | null },
): Promise<string> {
  const episodeId = parseId('episodeId', input.episodeId);
  const ids = input.factIds ?? [];
  const externals = input.factExternalIds ?? [];
  if (ids.length + externals.length === 0) throw badInput('factIds', 'give factIds or factExternalIds');
  if (ids.length > MAX_FACTS) throw badInput('factIds', `at most ${MAX_FACTS} factIds`);
  if (externals.length > MAX_FACTS) throw badInput('factExternalIds', `at most ${MAX_FACTS} factExternalIds`);
  const factIds = ids.map((id, i) => parseId(`factIds.${i}`, id));
  externals.forEach((e, i) => text(`factExternalIds.${i}`, e, 200, { required: true }));
  return em.transactional(async (tx) => {
    const ep = await lockEpisode(tx, orgId, episodeId, 'episodeId');
    const known = await rows(
      tx,
      sql
        .selectFrom('facts')
        .select(['id', 'external_id'])
        .where('org_id', '=', orgId)
        .where((eb) =>
          eb.or([eb('id', '=', raw<string>`any(${factIds}::uuid[])`), eb('external_id', '=', raw<string>`any(${externals}::text[])`)]),
        ),
    );
    const byId = new Set(known.map((f) => f.id));
    const byExternal = new Map(known.flatMap((f) => (f.external_id === null ? [] : [[f.external_id, f.id] as const])));
    const missing = factIds.findIndex((id) => !byId.has(id));
    if (missing >= 0) throw notFound('fact', `factIds.${missing}`);
    const missingExternal = externals.findIndex((e) => !byExternal.has(e));
    if (missingExternal >= 0) throw notFound('fact', `factExternalIds.${missingExternal}`);
    const used = [...new Set([...factIds, ...externals.map((e) => byExternal.get(e)!)])];
    const links = sql
      .selectFrom(raw<{ id: string }>`unnest(${used}::uuid[])`.as<'u'>(raw`u(id)`))
      .select((eb) => [eb.val(ep.id).as('episode_id'), 'u.id', eb.val(orgId).as('org_id'), raw<string>`now()`.as('created_at')]);
    await rows(
      tx,
      sql
        .insertInto('episode_facts')
        .columns(['episode_id', 'fact_id', 'org_id', 'created_at'])
        .expression(links)
        .onConflict((oc) => oc.doNothing()),
    );
    await creditEpisode(tx, orgId, actorId, { kind: 'USAGE', episodeId: ep.id, feedbackId: null, score: null });
    return ep.id;
  });
}
