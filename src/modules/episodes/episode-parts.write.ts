import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { rows, sql } from '../../db/typed-sql';
import { segmentTerms } from '../shared';
import type { OutputRow, SegmentRow } from './episodes.validate';

/** The rows of a JSON array as a set `x` with their 1-based position `ord`, columns as `definitions` declares them. */
const recordsOf = <R>(json: string, definitions: string, columns: string) =>
  raw<R & { ord: number }>`ROWS FROM (jsonb_to_recordset(${json}::jsonb) AS (${raw.raw(definitions)})) WITH ORDINALITY`.as<'x'>(
    raw`x(${raw.raw(columns)}, ord)`,
  );

/**
 * Inserts an episode's checked turns in one statement, numbered from `firstSeq`; a turn without a
 * time gets `defaultAt`. A long turn is stored with its distinct words (`terms`), which is all
 * memoryContext reads of it until it is chosen.
 */
export async function insertSegments(
  tx: EntityManager,
  orgId: string,
  episodeId: string,
  firstSeq: number,
  segments: SegmentRow[],
  defaultAt: Date,
): Promise<void> {
  if (segments.length === 0) return;
  const x = recordsOf<SegmentRow & { terms: string[] | null }>(
    JSON.stringify(segments.map((s) => ({ ...s, terms: segmentTerms(s.content) }))),
    'role text, content text, token_estimate int, created_at timestamptz, terms text[]',
    'role, content, token_estimate, created_at, terms',
  );
  const source = sql
    .selectFrom(x)
    .select((eb) => [
      raw<string>`gen_random_uuid()`.as('id'),
      eb.val(orgId).as('org_id'),
      eb.val(episodeId).as('episode_id'),
      raw<number>`${firstSeq} + ord - 1`.as('seq'),
      'x.role',
      'x.content',
      'x.token_estimate',
      raw<string>`coalesce(x.created_at, ${defaultAt.toISOString()}::timestamptz)`.as('created_at'),
      raw<string | null>`array_to_tsvector(x.terms)`.as('terms'),
    ]);
  const columns = ['id', 'org_id', 'episode_id', 'seq', 'role', 'content', 'token_estimate', 'created_at', 'terms'] as const;
  await rows(tx, sql.insertInto('episode_segments').columns(columns).expression(source));
}

/** Inserts an episode's checked outputs in one statement. */
export async function insertOutputs(
  tx: EntityManager,
  orgId: string,
  episodeId: string,
  outputs: OutputRow[],
  createdAt: Date,
): Promise<void> {
  const x = recordsOf<OutputRow>(
    JSON.stringify(outputs),
    'kind text, content jsonb, difficulty text, quality_score float8, regeneration_round int',
    'kind, content, difficulty, quality_score, regeneration_round',
  );
  // outputs of one episode keep their order: each is a microsecond younger than the one before
  const source = sql
    .selectFrom(x)
    .select((eb) => [
      raw<string>`gen_random_uuid()`.as('id'),
      eb.val(orgId).as('org_id'),
      eb.val(episodeId).as('episode_id'),
      raw<string>`${createdAt.toISOString()}::timestamptz + (ord - 1) * interval '1 microsecond'`.as('created_at'),
      raw<string>`now()`.as('updated_at'),
      'x.kind',
      'x.content',
      'x.difficulty',
      'x.quality_score',
      'x.regeneration_round',
    ]);
  const columns = [
    'id',
    'org_id',
    'episode_id',
    'created_at',
    'updated_at',
    'kind',
    'content',
    'difficulty',
    'quality_score',
    'regeneration_round',
  ] as const;
  await rows(tx, sql.insertInto('episode_outputs').columns(columns).expression(source));
}
