import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { firstRow, rows, sql } from '../../db/typed-sql';
import { queryTerms } from '../shared';
import type { CandidateList, WideOverlaps } from './candidates';
import type { MemoryEntry } from './memory.type';

/** The candidates are no longer all there (a segment was deleted since they were read): read them again. */
export const STALE = Symbol('stale');

/**
 * The overlap of the query's words with the long candidates' stored words, counted in PostgreSQL:
 * `ts_delete` drops the query's lexemes from a segment's (a binary search each), so the words shared
 * are `term_count` less what is left. Only integers come back; no text is read. STALE when a
 * candidate is gone.
 */
export async function wideOverlaps(
  em: EntityManager,
  orgId: string,
  list: CandidateList,
  q: Set<string>,
): Promise<WideOverlaps | typeof STALE | null> {
  const terms = queryTerms(q);
  // no query word a segment can hold: every long candidate shares none
  if (list.wide.length === 0 || terms.length === 0) return null;
  const ids = Array.from(list.wide, (i) => list.entries[i].id);
  const shared = raw<number>`(g.term_count - length(ts_delete(g.terms, ${terms}::text[])))`;
  const row = await firstRow(
    em,
    sql
      .selectFrom(
        sql
          .selectFrom(raw<{ id: string; ord: number }>`unnest(${ids}::uuid[]) WITH ORDINALITY`.as<'i'>(raw`i(id, ord)`))
          .innerJoin('episode_segments as g', (j) => j.on('g.org_id', '=', orgId).onRef('g.id', '=', 'i.id').on('g.terms', 'is not', null))
          .select([raw<number>`i.ord::int`.as('ord'), raw<number>`g.term_count`.as('size'), shared.as('inter')])
          .as('x'),
      )
      .select([
        raw<number>`count(*)::int`.as('found'),
        raw<
          string | [number, number, number][]
        >`coalesce(json_agg(json_build_array(x.ord, x.size, x.inter)) FILTER (WHERE x.inter > 0), '[]'::json)`.as('hits'),
      ]),
  );
  if (!row || row.found !== ids.length) return STALE;
  const sizes = new Int32Array(ids.length);
  const inter = new Int32Array(ids.length);
  const hits = typeof row.hits === 'string' ? (JSON.parse(row.hits) as [number, number, number][]) : row.hits;
  for (const [ord, size, n] of hits) {
    sizes[ord - 1] = size;
    inter[ord - 1] = n;
  }
  return { sizes, inter };
}

/** Reads the texts of the selected entries whose text was not read yet, into the list; STALE when one is gone. */
export async function readTexts(
  em: EntityManager,
  orgId: string,
  list: CandidateList,
  entries: MemoryEntry[],
): Promise<number | typeof STALE> {
  const missing = entries.filter((e) => e.content === undefined);
  if (missing.length === 0) return 0;
  const found = await rows(
    em,
    sql
      .selectFrom('episode_segments')
      .select(['id', 'content'])
      .where('org_id', '=', orgId)
      .where('id', '=', raw<string>`any(${missing.map((e) => e.id)}::uuid[])`),
  );
  if (found.length !== missing.length) return STALE;
  return list.fill(new Map(found.map((r) => [r.id, r.content])), missing);
}
