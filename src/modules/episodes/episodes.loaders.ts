import { sql as raw, type Selectable } from 'kysely';
import type { KeyedLoaderFactory } from '../../graphql/loaders';
import type { EpisodeFactsTable } from '../../db/tables';
import { prepared, rows, sql, templateRows } from '../../db/typed-sql';
import { FACT_COLUMNS, factFromRow, type FactRow } from '../facts';
import type { Fact } from '../facts';
import {
  camelCaseFields,
  episodeBatch,
  episodeRows,
  groupByEpisode,
  lateralColumns,
  ListLoader,
  ofEpisodes,
  rankInEpisode,
} from '../shared';
import type { EpisodeOutput, Segment } from './episode-parts.type';
import { instantOf } from '../../core/instant';

type Limit = { limit: number };

/** The columns of `episode_segments` a segment is read from, in the table's order. */
const SEGMENT_COLUMN_NAMES = ['id', 'episode_id', 'seq', 'role', 'content', 'token_estimate', 'created_at'] as const;
type SegmentColumn = (typeof SEGMENT_COLUMN_NAMES)[number];

/** The column each field of `Segment` is read from: every field is its column in camel case. */
export const SEGMENT_FIELD_COLUMNS = camelCaseFields(SEGMENT_COLUMN_NAMES);

/** What every read of an episode's segments needs whatever is selected: the id, the episode, the order. */
export const SEGMENT_LIST_ALWAYS = ['id', 'episode_id', 'seq'] as const;

export interface SegmentsArgs extends Limit {
  /** the columns to read (`columnsOf` the selected fields) */
  columns: string;
}

const segmentsStatement = prepared(
  (v: { orgId: string; episodes: string | readonly string[]; limit: number }, shape: { one: boolean; columns: string }) => {
    // each episode's newest `limit`, read through its index
    return sql
      .selectFrom(episodeRows(v.episodes, shape.one))
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('episode_segments as s')
            .select(shape.columns.split(',').map((c) => `s.${c}`) as `s.${SegmentColumn}`[])
            .where('s.org_id', '=', v.orgId)
            .whereRef('s.episode_id', '=', 'p.id')
            .orderBy('s.seq', 'desc')
            .limit(v.limit)
            .as('x'),
        (join) => join.onTrue(),
      )
      .select(lateralColumns<SegmentColumn>(shape.columns))
      .orderBy('x.episode_id')
      .orderBy('x.seq');
  },
);

/** The newest `limit` segments per episode, by seq, with the columns of the selected fields. One statement per request. */
export const segmentsByEpisode: KeyedLoaderFactory<SegmentsArgs, ListLoader<Segment>> = (em, orgId, { limit, columns }) =>
  new ListLoader(async (ids) => {
    const { one, episodes } = episodeBatch(ids);
    const found = await segmentsStatement.rows(em, { one, columns }, { orgId, episodes, limit });
    // a field whose column was not read is left without its value, and nothing reads it
    return groupByEpisode(ids, found, (r): Segment => ({
      id: r.id,
      episodeId: r.episode_id,
      seq: r.seq,
      role: r.role,
      content: r.content,
      tokenEstimate: r.token_estimate,
      createdAt: instantOf(r.created_at),
    }));
  });

/** The newest `limit` outputs per episode, oldest first. */
export const outputsByEpisode: KeyedLoaderFactory<Limit, ListLoader<EpisodeOutput>> = (em, orgId, { limit }) =>
  new ListLoader(async (ids) => {
    const { one, episodes } = episodeBatch(ids);
    const ranked = sql
      .selectFrom('episode_outputs')
      .select(['id', 'episode_id', 'kind', 'content', 'difficulty', 'quality_score', 'regeneration_round', 'created_at'])
      .select(rankInEpisode('created_at DESC, id DESC').as('rn'))
      .where('org_id', '=', orgId)
      .where('episode_id', '=', ofEpisodes(episodes, one));
    const query = sql
      .selectFrom(ranked.as('o'))
      .selectAll()
      .where('o.rn', '<=', limit)
      .orderBy('o.episode_id')
      .orderBy('o.created_at')
      .orderBy('o.id');
    return groupByEpisode(ids, await rows(em, query), (r): EpisodeOutput => ({
      id: r.id,
      episodeId: r.episode_id,
      kind: r.kind,
      content: r.content,
      difficulty: r.difficulty,
      qualityScore: r.quality_score === null ? null : Number(r.quality_score),
      regenerationRound: Number(r.regeneration_round),
      createdAt: instantOf(r.created_at),
    }));
  });

/** A fact linked to an episode, with when it was linked and its rank among the episode's links. */
type LinkedFactRow = FactRow &
  Pick<Selectable<EpisodeFactsTable>, 'episode_id'> & { linked_at: Selectable<EpisodeFactsTable>['created_at']; rn: number };

/**
 * The facts of the newest `limit` links per episode, in the order they were linked. The fact columns
 * are a list written as text (shared with the other reads of facts), so the statement is a template.
 */
export const factsByEpisode: KeyedLoaderFactory<Limit, ListLoader<Fact>> = (em, orgId, { limit }) =>
  new ListLoader(async (ids) => {
    const { one, episodes } = episodeBatch(ids);
    const found = await templateRows<LinkedFactRow>(
      em,
      raw`SELECT * FROM (SELECT ef.episode_id, ef.created_at AS linked_at, ${raw.raw(FACT_COLUMNS.join(', '))},
                                ${rankInEpisode('ef.created_at DESC, f.id DESC')} AS rn
                           FROM episode_facts ef JOIN facts f ON f.org_id = ef.org_id AND f.id = ef.fact_id
                          WHERE ef.org_id = ${orgId} AND ef.episode_id = ${ofEpisodes(episodes, one)}) x
          WHERE rn <= ${limit} ORDER BY episode_id, linked_at, id`,
    );
    const now = new Date();
    return groupByEpisode(ids, found, (r) => factFromRow(r, now));
  });
