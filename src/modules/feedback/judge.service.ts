import type { EntityManager } from '@mikro-orm/postgresql';
import { type Selectable, sql as raw } from 'kysely';
import type { EventBus } from '../../core/event-bus';
import { badInput, notFound } from '../../core/errors';
import { parseId } from '../../core/ids';
import { numberIn, text } from '../../core/validate';
import type { EpisodeOutputsTable } from '../../db/tables';
import { rows, sql } from '../../db/typed-sql';
import { lockEpisode } from '../episodes';
import { creditEpisode } from '../traces';
import type { Actor } from './feedback.service';
import type { JudgeEpisodeInput } from './feedback.inputs';
import { publishFeedback, writeFeedback } from './feedback.write';

/** The ids of the episode's outputs among the listed ones (a JSON array of objects with an `id`). */
const outputsOf = (orgId: string, episodeId: string, listed: string) =>
  sql
    .selectFrom('episode_outputs')
    .select('id')
    .where('org_id', '=', orgId)
    .where('episode_id', '=', episodeId)
    .where('id', 'in', (eb) =>
      eb.selectFrom(raw`jsonb_array_elements(${listed}::jsonb)`.as('x')).select(raw<string>`(x->>'id')::uuid`.as('id')),
    );

type Output = Selectable<EpisodeOutputsTable>;
/** One listed update: the output's id and the values to set (null keeps the stored one). */
type OutputUpdate = Pick<Output, 'id' | 'quality_score'> & { regeneration_round: Output['regeneration_round'] | null };

/** Sets the listed quality scores and regeneration rounds of the episode's outputs (a field left null keeps its value). */
const updateOutputs = (orgId: string, episodeId: string, listed: string) =>
  sql
    .updateTable('episode_outputs as o')
    .from(raw<OutputUpdate>`jsonb_to_recordset(${listed}::jsonb)`.as<'x'>(raw`x(id uuid, quality_score float8, regeneration_round int)`))
    .set((eb) => ({
      quality_score: eb.fn.coalesce('x.quality_score', 'o.quality_score'),
      regeneration_round: eb.fn.coalesce('x.regeneration_round', 'o.regeneration_round'),
      updated_at: raw<string>`now()`,
    }))
    .where('o.org_id', '=', orgId)
    .where('o.episode_id', '=', episodeId)
    .whereRef('o.id', '=', 'x.id');

/**
 * A judge's verdict: sets accepted and overallScore (decayScore follows from them),
 * updates outputs of the episode, and records a JUDGEMENT feedback, the rejection log.
 */
export async function judgeEpisode(em: EntityManager, bus: EventBus, actor: Actor, input: JudgeEpisodeInput): Promise<string> {
  const episodeId = parseId('input.episodeId', input.episodeId);
  numberIn('input.overallScore', input.overallScore, 0, 1);
  text('input.reason', input.reason, 4000);
  text('input.judgeFeedback', input.judgeFeedback, 4000);
  const updates = (input.outputUpdates ?? []).map((u, i) => {
    numberIn(`input.outputUpdates.${i}.qualityScore`, u.qualityScore, 0, 1);
    if (
      u.regenerationRound !== null &&
      u.regenerationRound !== undefined &&
      (!Number.isInteger(u.regenerationRound) || u.regenerationRound < 0)
    ) {
      throw badInput(`input.outputUpdates.${i}.regenerationRound`, 'regenerationRound must be an integer >= 0');
    }
    return {
      id: parseId(`input.outputUpdates.${i}.outputId`, u.outputId),
      quality_score: u.qualityScore ?? null,
      regeneration_round: u.regenerationRound ?? null,
    };
  });
  const written = await em.transactional(async (tx) => {
    const ep = await lockEpisode(tx, actor.orgId, episodeId, 'input.episodeId');
    if (updates.length > 0) {
      const listed = JSON.stringify(updates);
      const found = new Set((await rows(tx, outputsOf(actor.orgId, ep.id, listed))).map((r) => r.id));
      const missing = updates.findIndex((u) => !found.has(u.id));
      if (missing >= 0) throw notFound('output of this episode', `input.outputUpdates.${missing}.outputId`);
      await rows(tx, updateOutputs(actor.orgId, ep.id, listed));
    }
    const judged = sql
      .updateTable('episodes')
      .set((eb) => ({
        accepted: input.accepted,
        overall_score: eb.fn.coalesce(eb.val(input.overallScore ?? null), 'overall_score'),
        updated_at: raw<string>`now()`,
      }))
      .where('org_id', '=', actor.orgId)
      .where('id', '=', ep.id);
    await rows(tx, judged);
    const verdict = await writeFeedback(tx, actor.orgId, {
      episodeId: ep.id,
      episodeField: 'input.episodeId',
      agentId: ep.agent_id,
      sessionId: ep.session_id,
      executionId: null,
      actorId: actor.apiKeyId,
      actorUserId: null,
      feedbackType: 'JUDGEMENT',
      rating: null,
      score: null,
      corrections: input.judgeFeedback ?? null,
      accepted: input.accepted,
      reason: input.reason ?? null,
      createdAt: new Date(),
    });
    // a verdict credits like a feedback of score +1 (accepted) or -1 (rejected)
    await creditEpisode(tx, actor.orgId, actor.apiKeyId, {
      kind: 'VERDICT',
      episodeId: ep.id,
      feedbackId: verdict.feedbackId,
      score: input.accepted ? 1 : -1,
    });
    return verdict;
  });
  publishFeedback(bus, actor.orgId, written);
  return episodeId;
}
