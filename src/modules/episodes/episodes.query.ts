import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import type { LoaderFactory } from '../../graphql/loaders';
import { isUuid, parseId } from '../../core/ids';
import { prepared, sql } from '../../db/typed-sql';
import { decodeCursor, pageSize } from '../../core/cursor';
import { keysetEdges, keysetStatement } from '../shared';
import { since } from '../../core/time-range';
import { numberIn } from '../../core/validate';
import { canvasType, episodeBatch, ofEpisodes } from '../shared';
import { EPISODE_COLUMNS, episodeFromRow } from './episode.rows';
import type { Episode } from './episode.type';
import type { EpisodeFilter } from './episodes.inputs';
import { aggregateFeedbackScoreOf } from '../shared';
import { sql as raw } from 'kysely';
import { IdsOfRows } from '../../db/statement-batch';

const episodesStatement = prepared((v: { orgId: string; episodes: string | readonly string[] }, shape: { one: boolean }) =>
  sql
    .selectFrom('episodes as e')
    .select(EPISODE_COLUMNS)
    .where('e.org_id', '=', v.orgId)
    .where('e.id', '=', ofEpisodes(v.episodes, shape.one)),
);

/**
 * Episodes by id (ids in lower case), null where the organization has none: read with the
 * request's other loader reads of the same turn, so `episode(id)` and the context lists it selects
 * (started ahead, see `prefetchSelected`) reach PostgreSQL as one statement.
 */
export const episodeById: LoaderFactory<DataLoader<string, Episode | null>> = (em, orgId) =>
  new DataLoader(async (ids) => {
    const { one, episodes } = episodeBatch(ids);
    const byId = new Map((await episodesStatement.rows(em, { one }, { orgId, episodes })).map((r) => [r.id, r]));
    return ids.map((id) => {
      const row = byId.get(id);
      return row ? episodeFromRow(row) : null;
    });
  });

export async function getEpisode(em: EntityManager, orgId: string, id: string): Promise<Episode | null> {
  if (!isUuid(id)) return null;
  const [row] = await episodesStatement.rows(em, { one: true }, { orgId, episodes: id.toLowerCase() });
  return row ? episodeFromRow(row) : null;
}

/** The optional values of a page statement: its text depends only on which are present (and on `hasCanvas`). */
const OPTIONAL = [
  'agentId',
  'sessionId',
  'topic',
  'intent',
  'accepted',
  'min',
  'max',
  'createdAfter',
  'createdBefore',
  'since',
  'canvasType',
  'canvasAction',
  'factId',
  'afterSort',
] as const;

/**
 * `limit`, the page's size plus one, is written in the statement's text: with it bound, PostgreSQL
 * estimates a tenth of the organization's episodes for the page, judges a generic plan dearer than
 * planning the statement again, and plans it on every run (with its context lists, about as much
 * database time as reading them). Page sizes are at most 100, so the texts stay few.
 */
type PageShape = Record<(typeof OPTIONAL)[number], boolean> & {
  hasCanvas: 'yes' | 'no' | 'any';
  limit: number;
  /** the columns the page's episodes are read with (`episodeColumnsOf` their selection) */
  columns: string;
};

/** The values of a page statement, each already checked. */
interface PageValues {
  [name: string]: unknown;
  orgId: string;
  agentId: string | null;
  sessionId: string | null;
  topic: string | null;
  intent: string | null;
  accepted: boolean | null;
  min: number | null;
  max: number | null;
  createdAfter: string | null;
  createdBefore: string | null;
  since: string | null;
  canvasType: string | null;
  canvasAction: string | null;
  factId: string | null;
  afterSort: string | null;
  afterId: string | null;
}

/**
 * A page of the episodes (alias `e`) of an organization that a filter keeps, newest first, by
 * keyset (created_at, id), with the sort key its cursors carry. Every condition is served by an
 * index led by org_id. Built once per combination of conditions present.
 */
const pageStatement = prepared((v: PageValues, s: PageShape) => {
  const columns = s.columns.split(',').map((c) => `e.${c}`) as (typeof EPISODE_COLUMNS)[number][];
  let q = sql.selectFrom('episodes as e').select(columns).where('e.org_id', '=', v.orgId);
  if (s.agentId) q = q.where('e.agent_id', '=', v.agentId!);
  if (s.sessionId) q = q.where('e.session_id', '=', v.sessionId!);
  if (s.topic) q = q.where('e.topic', '=', v.topic!);
  if (s.intent) q = q.where('e.intent', '=', v.intent!);
  if (s.accepted) q = q.where('e.accepted', '=', v.accepted!);
  if (s.min) q = q.where(aggregateFeedbackScoreOf('e'), '>=', v.min!);
  if (s.max) q = q.where(aggregateFeedbackScoreOf('e'), '<=', v.max!);
  if (s.createdAfter) q = q.where('e.created_at', '>=', v.createdAfter!);
  if (s.createdBefore) q = q.where('e.created_at', '<', v.createdBefore!);
  if (s.since) q = q.where('e.created_at', '>=', v.since!);
  if (s.hasCanvas === 'yes') q = q.where('e.canvas_action_count', '>', 0);
  if (s.hasCanvas === 'no') q = q.where('e.canvas_action_count', '=', 0);
  if (s.canvasType || s.canvasAction) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('canvas_audits as c')
          .select(raw.lit(1).as('one'))
          .whereRef('c.org_id', '=', 'e.org_id')
          .whereRef('c.episode_id', '=', 'e.id')
          .$if(s.canvasType, (c) => c.where('c.canvas_type', '=', v.canvasType!))
          .$if(s.canvasAction, (c) => c.where('c.action', '=', v.canvasAction!)),
      ),
    );
  }
  if (s.factId) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('episode_facts as ef')
          .select(raw.lit(1).as('one'))
          .whereRef('ef.org_id', '=', 'e.org_id')
          .whereRef('ef.episode_id', '=', 'e.id')
          .where('ef.fact_id', '=', v.factId!),
      ),
    );
  }
  return keysetStatement(q, 'e', 'created_at', s.afterSort ? { sortValue: v.afterSort, id: v.afterId } : null, raw.lit(s.limit));
});

/**
 * A page of episodes, newest first, by keyset (created_at, id), read with the columns `columns`
 * (`episodeColumnsOf` the fields selected on its episodes). `ahead` starts the reads of the
 * page's episodes' context lists with the ids the page's statement will give (`IdsOfRows` of the
 * page size), so the page and its lists are one statement; the page is answered once they are kept.
 */
export async function listEpisodes(
  em: EntityManager,
  orgId: string,
  columns: string,
  filter: EpisodeFilter | null | undefined,
  first?: number | null,
  after?: string | null,
  ahead?: (ids: IdsOfRows) => Promise<unknown> | null,
) {
  const f = filter ?? {};
  // checked in the order the arguments are reported: the filter's values, then first, then after
  const min = numberIn('filter.minFeedbackScore', f.minFeedbackScore, -1, 1);
  const max = numberIn('filter.maxFeedbackScore', f.maxFeedbackScore, -1, 1);
  const from = f.timeRange === null || f.timeRange === undefined ? null : since(f.timeRange, 'filter.timeRange').toISOString();
  const type = f.canvasType ? canvasType('filter.canvasType', f.canvasType) : null;
  const action = f.canvasAction ?? null;
  const factId = f.factId ? parseId('filter.factId', f.factId) : null;
  const n = pageSize(first);
  const cursor = after === null || after === undefined ? null : decodeCursor(after);
  const v: PageValues = {
    orgId,
    agentId: f.agentId ?? null,
    sessionId: f.sessionId ?? null,
    topic: f.topic ?? null,
    intent: f.intent ?? null,
    accepted: f.accepted ?? null,
    min,
    max,
    createdAfter: f.createdAfter ? f.createdAfter.toISOString() : null,
    createdBefore: f.createdBefore ? f.createdBefore.toISOString() : null,
    since: from,
    canvasType: type,
    canvasAction: action,
    factId,
    afterSort: cursor?.sortValue ?? null,
    afterId: cursor?.id ?? null,
  };
  const present = Object.fromEntries(OPTIONAL.map((k) => [k, v[k] !== null])) as Record<(typeof OPTIONAL)[number], boolean>;
  const shape: PageShape = {
    ...present,
    hasCanvas: f.hasCanvas === true ? 'yes' : f.hasCanvas === false ? 'no' : 'any',
    limit: n + 1,
    columns,
  };
  // the lists' reads are dispatched after this turn: the page's read joins them
  const ids = new IdsOfRows(n);
  const kept = ahead?.(ids) ?? null;
  const rows = await pageStatement.rows(em, shape, v, kept ? ids : undefined);
  await kept;
  return keysetEdges(rows, n, (page) => page.map(episodeFromRow));
}
