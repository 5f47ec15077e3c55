import { instantOf, instantOrNull } from '../../core/instant';
import { Episode } from './episode.type';
import type { Selectable } from 'kysely';
import type { EpisodesTable } from '../../db/tables';
import type { Unqualified } from '../../db/typed-sql';

/** The columns of `episodes` every read selects (alias `e`); the row type follows from them. */
export const EPISODE_COLUMNS = [
  'e.id',
  'e.org_id',
  'e.created_at',
  'e.agent_id',
  'e.session_id',
  'e.title',
  'e.task',
  'e.intent',
  'e.topic',
  'e.blueprint',
  'e.ended_at',
  'e.execution_ids',
  'e.generation_config',
  'e.metadata',
  'e.canvas_action_count',
  'e.feedback_count',
  'e.feedback_score_sum',
  'e.feedback_score_count',
  'e.overall_score',
  'e.accepted',
  'e.updated_at',
] as const;

export type EpisodeRow = Pick<Selectable<EpisodesTable>, Unqualified<(typeof EPISODE_COLUMNS)[number]>>;

/** A raw `episodes` row as the GraphQL type, without hydrating an entity. */
export function episodeFromRow(r: EpisodeRow): Episode {
  return Episode.from({
    id: r.id,
    createdAt: instantOf(r.created_at),
    agentId: r.agent_id,
    sessionId: r.session_id,
    title: r.title,
    task: r.task,
    intent: r.intent,
    topic: r.topic,
    blueprint: r.blueprint,
    endedAt: instantOrNull(r.ended_at),
    executionIds: r.execution_ids ?? [],
    generationConfig: r.generation_config as Record<string, unknown> | null,
    metadata: r.metadata as Record<string, unknown> | null,
    canvasActionCount: Number(r.canvas_action_count),
    feedbackCount: Number(r.feedback_count),
    feedbackScoreSum: Number(r.feedback_score_sum),
    feedbackScoreCount: Number(r.feedback_score_count),
    overallScore: r.overall_score === null ? null : Number(r.overall_score),
    accepted: r.accepted,
  });
}
