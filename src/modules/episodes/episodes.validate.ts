import { badInput } from '../../core/errors';
import { parseId } from '../../core/ids';
import { occurredAt } from '../../core/time-range';
import { jsonBytes, jsonObject, numberIn, text } from '../../core/validate';
import { factEmbedding } from '../facts';
import type { OutputInput, RecordEpisodeInput, SegmentInput } from './episodes.inputs';

const SEGMENT_ROLES = ['user', 'assistant', 'system', 'tool', 'event'];
/** Execution ids one episode may carry. */
export const MAX_EXECUTION_IDS = 100;

export interface SegmentRow {
  role: string;
  content: string;
  token_estimate: number;
  created_at: string | null;
}

export interface OutputRow {
  kind: string;
  content: unknown;
  difficulty: string | null;
  quality_score: number | null;
  regeneration_round: number;
}

function list<T>(field: string, value: T[] | null | undefined, max: number): T[] {
  const v = value ?? [];
  if (v.length > max) throw badInput(field, `${field} may hold at most ${max} items`);
  return v;
}

/** Segments as rows to insert; `tokenEstimate` defaults to ceil(characters / 4). */
export function checkSegments(field: string, segments: SegmentInput[] | null | undefined): SegmentRow[] {
  return list(field, segments, 1000).map((s, i) => {
    const f = `${field}.${i}`;
    if (!SEGMENT_ROLES.includes(s.role)) throw badInput(`${f}.role`, `role must be one of ${SEGMENT_ROLES.join(', ')}`);
    text(`${f}.content`, s.content, 100_000, { required: false });
    if (s.tokenEstimate !== null && s.tokenEstimate !== undefined && (!Number.isInteger(s.tokenEstimate) || s.tokenEstimate < 0)) {
      throw badInput(`${f}.tokenEstimate`, 'tokenEstimate must be an integer >= 0');
    }
    const at = s.occurredAt ? occurredAt(s.occurredAt, `${f}.occurredAt`).toISOString() : null;
    return { role: s.role, content: s.content, token_estimate: s.tokenEstimate ?? Math.ceil(s.content.length / 4), created_at: at };
  });
}

function checkOutputs(outputs: OutputInput[] | null | undefined): OutputRow[] {
  return list('input.outputs', outputs, 100).map((o, i) => {
    const f = `input.outputs.${i}`;
    text(`${f}.kind`, o.kind, 100, { required: true });
    if (o.content === undefined || jsonBytes(o.content) > 64 * 1024)
      throw badInput(`${f}.content`, 'content must be JSON of at most 64 KB');
    text(`${f}.difficulty`, o.difficulty, 50);
    numberIn(`${f}.qualityScore`, o.qualityScore, 0, 1);
    const round = o.regenerationRound ?? 0;
    if (!Number.isInteger(round) || round < 0) throw badInput(`${f}.regenerationRound`, 'regenerationRound must be an integer >= 0');
    return {
      kind: o.kind,
      content: o.content,
      difficulty: o.difficulty ?? null,
      quality_score: o.qualityScore ?? null,
      regeneration_round: round,
    };
  });
}

export interface CheckedEpisode {
  input: RecordEpisodeInput;
  createdAt: Date;
  segments: SegmentRow[];
  outputs: OutputRow[];
  factIds: string[];
  factExternalIds: string[];
}

/** Every rule of a new episode, checked before anything is written. */
export function checkRecordEpisode(input: RecordEpisodeInput): CheckedEpisode {
  text('input.agentId', input.agentId, 200, { required: true });
  text('input.sessionId', input.sessionId, 200);
  text('input.title', input.title, 500);
  text('input.task', input.task, 20_000);
  text('input.intent', input.intent, 200);
  text('input.topic', input.topic, 200);
  text('input.blueprint', input.blueprint, 2_000);
  list('input.executionIds', input.executionIds, MAX_EXECUTION_IDS).forEach((e, i) =>
    text(`input.executionIds.${i}`, e, 200, { required: true }),
  );
  jsonObject('input.generationConfig', input.generationConfig);
  jsonObject('input.metadata', input.metadata);
  factEmbedding('input.embedding', input.embedding);
  numberIn('input.overallScore', input.overallScore, 0, 1);
  const createdAt = occurredAt(input.occurredAt, 'input.occurredAt');
  if (input.endedAt && input.endedAt.getTime() < createdAt.getTime())
    throw badInput('input.endedAt', 'endedAt must not be before the episode time');
  const factIds = [...new Set(list('input.factIds', input.factIds, 500).map((id, i) => parseId(`input.factIds.${i}`, id)))];
  const factExternalIds = [
    ...new Set(
      list('input.factExternalIds', input.factExternalIds, 500).map((e, i) =>
        text(`input.factExternalIds.${i}`, e, 200, { required: true })!,
      ),
    ),
  ];
  return {
    input,
    createdAt,
    segments: checkSegments('input.segments', input.segments),
    outputs: checkOutputs(input.outputs),
    factIds,
    factExternalIds,
  };
}
