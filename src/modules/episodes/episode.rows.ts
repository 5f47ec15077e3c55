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
type EpisodeColumn = keyof EpisodeRow;

/**
 * The columns each field of `Episode` is computed from, for reads that select only what a document
 * asks for (the episode page). A field not named here reads nothing of the row but its id (the
 * context and link lists, which load by id); a field resolver that computes from other properties
 * of the episode must name their columns here.
 */
const EPISODE_FIELD_COLUMNS: Readonly<Record<string, readonly EpisodeColumn[]>> = {
  agentId: ['agent_id'],
  sessionId: ['session_id'],
  title: ['title'],
  task: ['task'],
  intent: ['intent'],
  topic: ['topic'],
  blueprint: ['blueprint'],
  createdAt: ['created_at'],
  endedAt: ['ended_at'],
  executionIds: ['execution_ids'],
  canvasActionCount: ['canvas_action_count'],
  feedbackCount: ['feedback_count'],
  aggregateFeedbackScore: ['feedback_score_sum', 'feedback_score_count'],
  overallScore: ['overall_score'],
  accepted: ['accepted'],
  generationConfig: ['generation_config'],
  metadata: ['metadata'],
  decayScore: ['created_at', 'accepted', 'overall_score'],
};

/**
 * The columns of `episodes` (unqualified, in the order of `EPISODE_COLUMNS`) that the fields
 * `selects` picks are computed from, and the id, as one comma-separated key fit for a statement's
 * shape.
 */
export function episodeColumnsOf(selects: (field: string) => boolean): string {
  const needed = new Set<string>(['id']);
  for (const [field, columns] of Object.entries(EPISODE_FIELD_COLUMNS)) if (selects(field)) for (const c of columns) needed.add(c);
  return EPISODE_COLUMNS.map((c) => c.slice(2))
    .filter((c) => needed.has(c))
    .join(',');
}

/**
 * A raw `episodes` row as the GraphQL type, without hydrating an entity. A row read with some of the
 * columns only (`episodeColumnsOf`) leaves the fields of the others without their values, and
 * nothing reads them.
 */
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
