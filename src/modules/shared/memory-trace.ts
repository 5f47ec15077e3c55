// Memory traces: what a retrieval served to an episode, recorded by the request that served it.
// The recall, recallEpisodes and memoryContext resolvers take an optional `trace` argument and
// call `recordTrace` after ranking: one statement that checks the episode is the organization's
// and writes the trace with its items. Nothing else of those reads changes.
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { Field, ID, InputType, Int } from 'type-graphql';
import { badInput, notFound } from '../../core/errors';
import { parseId } from '../../core/ids';
import { firstRow, sql } from '../../db/typed-sql';

@InputType({ description: 'Records what a read served to an episode (see `Episode.memoryTrace`).' })
export class MemoryTraceInput {
  @Field(() => ID, {
    description: "The episode the memory is for; another organization's or an unknown one is NOT_FOUND and nothing is served.",
  })
  episodeId!: string;

  @Field(() => Int, { nullable: true, description: 'The turn the memory is for (>= 0), as the caller numbers its turns.' })
  seq?: number | null;
}

/** The reads a trace records. */
type MemoryTraceOperation = 'RECALL' | 'RECALL_EPISODES' | 'MEMORY_CONTEXT';

/** One served item, in served order (rank is its place, 1-based, added when written). */
export interface MemoryTraceItemRecord {
  factId?: string | null;
  episodeId?: string | null;
  segmentId?: string | null;
  zone?: string | null;
  semanticScore?: number | null;
  lexicalScore?: number | null;
  relevance?: number | null;
  usefulnessScore?: number | null;
  usefulnessSource?: string | null;
  finalScore?: number | null;
}

export interface MemoryTraceRecord {
  operation: MemoryTraceOperation;
  query: string | null;
  queryEmbedding: number[] | null;
  strategy: string | null;
  mode: string | null;
  budget: number | null;
}

/** Checks a trace argument before the read runs (its episode is checked when the trace is written). */
export function checkTrace(field: string, trace: MemoryTraceInput | null | undefined): { episodeId: string; seq: number | null } | null {
  if (!trace) return null;
  const episodeId = parseId(`${field}.episodeId`, trace.episodeId);
  const seq = trace.seq ?? null;
  if (seq !== null && (!Number.isInteger(seq) || seq < 0)) throw badInput(`${field}.seq`, `${field}.seq must be an integer >= 0`);
  return { episodeId, seq };
}

/** Finite numbers only: JSON has no NaN or infinity. */
const finite = (x: number | null | undefined) => (typeof x === 'number' && Number.isFinite(x) ? x : null);

/**
 * Writes the trace in one statement that reads the episode in the organization: an unknown episode,
 * or another organization's, writes nothing and throws NOT_FOUND, so the caller serves nothing.
 */
export async function recordTrace(
  em: EntityManager,
  orgId: string,
  field: string,
  trace: { episodeId: string; seq: number | null },
  what: MemoryTraceRecord,
  items: MemoryTraceItemRecord[],
): Promise<string> {
  const served = items.map((it, i) => ({
    rank: i + 1,
    factId: it.factId ?? null,
    episodeId: it.episodeId ?? null,
    segmentId: it.segmentId ?? null,
    zone: it.zone ?? null,
    semanticScore: finite(it.semanticScore),
    lexicalScore: finite(it.lexicalScore),
    relevance: finite(it.relevance),
    usefulnessScore: finite(it.usefulnessScore),
    usefulnessSource: it.usefulnessSource ?? null,
    finalScore: finite(it.finalScore),
  }));
  const write = sql
    .insertInto('memory_traces')
    .columns([
      'id',
      'org_id',
      'episode_id',
      'created_at',
      'operation',
      'seq',
      'query',
      'query_embedding',
      'strategy',
      'mode',
      'budget',
      'items',
    ])
    .expression(
      sql
        .selectFrom('episodes as e')
        .select([
          raw<string>`gen_random_uuid()`.as('id'),
          'e.org_id',
          'e.id',
          raw<string>`clock_timestamp()`.as('created_at'),
          raw.val(what.operation).as('operation'),
          raw.val(trace.seq).as('seq'),
          raw.val(what.query).as('query'),
          raw<number[] | null>`${what.queryEmbedding}::double precision[]`.as('query_embedding'),
          raw.val(what.strategy).as('strategy'),
          raw.val(what.mode).as('mode'),
          raw.val(what.budget).as('budget'),
          raw<unknown>`${JSON.stringify(served)}::jsonb`.as('items'),
        ])
        .where('e.org_id', '=', orgId)
        .where('e.id', '=', trace.episodeId),
    )
    .returning('id');
  const row = await firstRow(em, write);
  if (!row) throw notFound('episode', `${field}.episodeId`);
  return row.id;
}
