import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventBus } from '../../core/event-bus';
import { badInput, notFound } from '../../core/errors';
import { parseId } from '../../core/ids';
import { numberIn, text } from '../../core/validate';
import { lockEpisode } from '../episodes/episodes.service';
import type { Actor } from './feedback.service';
import type { JudgeEpisodeInput } from './feedback.inputs';
import { publishFeedback, writeFeedback } from './feedback.write';

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
    if (u.regenerationRound !== null && u.regenerationRound !== undefined && (!Number.isInteger(u.regenerationRound) || u.regenerationRound < 0)) {
      throw badInput(`input.outputUpdates.${i}.regenerationRound`, 'regenerationRound must be an integer >= 0');
    }
    return { id: parseId(`input.outputUpdates.${i}.outputId`, u.outputId), quality_score: u.qualityScore ?? null, regeneration_round: u.regenerationRound ?? null };
  });
  const written = await em.transactional(async (tx) => {
    const ep = await lockEpisode(tx, actor.orgId, episodeId, 'input.episodeId');
    if (updates.length > 0) {
      const found = new Set(
        (await tx.execute<{ id: string }[]>('SELECT id FROM episode_outputs WHERE org_id = ? AND episode_id = ? AND id IN (SELECT (x->>\'id\')::uuid FROM jsonb_array_elements(?::jsonb) x)', [actor.orgId, ep.id, JSON.stringify(updates)])).map((r) => r.id),
      );
      const missing = updates.findIndex((u) => !found.has(u.id));
      if (missing >= 0) throw notFound('output of this episode', `input.outputUpdates.${missing}.outputId`);
      await tx.execute(
        `UPDATE episode_outputs o SET quality_score = coalesce(x.quality_score, o.quality_score),
           regeneration_round = coalesce(x.regeneration_round, o.regeneration_round), updated_at = now()
           FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, quality_score float8, regeneration_round int)
          WHERE o.org_id = ? AND o.episode_id = ? AND o.id = x.id`,
        [JSON.stringify(updates), actor.orgId, ep.id],
      );
    }
    await tx.execute('UPDATE episodes SET accepted = ?, overall_score = coalesce(?, overall_score), updated_at = now() WHERE org_id = ? AND id = ?', [
      input.accepted,
      input.overallScore ?? null,
      actor.orgId,
      ep.id,
    ]);
    return writeFeedback(tx, actor.orgId, {
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
  });
  await publishFeedback(bus, actor.orgId, written);
  return episodeId;
}
