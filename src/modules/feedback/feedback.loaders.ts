import { sql as raw } from 'kysely';
import { prepared, sql, type Unqualified } from '../../db/typed-sql';
import type { KeyedLoaderFactory } from '../../graphql/loaders';
import { episodeBatch, episodeRows, groupByEpisode, lateralColumns, ListLoader } from '../shared';
import type { FeedbackType } from './feedback-score';
import { FEEDBACK_COLUMNS, feedbackColumns, feedbackFromRow } from './feedback.rows';
import type { Feedback } from './feedback.type';

export interface FeedbackContextArgs {
  types: FeedbackType[] | null;
  limit: number;
  /** the columns to read (`columnsOf` the selected fields) */
  columns: string;
}

const feedbackStatement = prepared(
  (
    v: { orgId: string; episodes: string | readonly string[]; limit: number; types: FeedbackType[] | null },
    shape: { columns: string; byType: boolean; one: boolean },
  ) => {
    // each episode's newest `limit`, read through its index
    return (
      sql
        .selectFrom(episodeRows(v.episodes, shape.one))
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom('feedback as fb')
              .select(feedbackColumns(shape.columns))
              .where('fb.org_id', '=', v.orgId)
              .whereRef('fb.episode_id', '=', 'p.id')
              .$if(shape.byType, (q) => q.where('fb.feedback_type', '=', raw<string>`any(${v.types}::text[])`))
              .orderBy('fb.created_at', 'desc')
              .orderBy('fb.id', 'desc')
              .limit(v.limit)
              .as('x'),
          (join) => join.onTrue(),
        )
        .select(lateralColumns<Unqualified<(typeof FEEDBACK_COLUMNS)[number]>>(shape.columns))
        .orderBy('x.episode_id')
        .orderBy('x.created_at')
        .orderBy('x.id')
        // only feedback of the requested episodes is read: every row has its episode id
        .$narrowType<{ episode_id: string }>()
    );
  },
);

/** The newest `limit` feedback per episode, oldest first, optionally of some types; one statement per request. */
export const feedbackByEpisode: KeyedLoaderFactory<FeedbackContextArgs, ListLoader<Feedback>> = (em, orgId, args) =>
  new ListLoader(async (ids) => {
    const { types, limit, columns } = args;
    const { one, episodes } = episodeBatch(ids);
    const found = await feedbackStatement.rows(em, { columns, byType: !!types?.length, one }, { orgId, episodes, limit, types });
    return groupByEpisode(ids, found, feedbackFromRow);
  });
