import DataLoader from 'dataloader';
import { pgArray } from '../../core/sql';
import type { KeyedLoaderFactory } from '../../graphql/loaders';
import { groupByEpisode, newestPerEpisode } from '../shared/sub-list';
import type { FeedbackType } from './feedback-score';
import { FEEDBACK_BRIEF_COLUMNS, FEEDBACK_COLUMNS, feedbackFromRow, type FeedbackRow } from './feedback.rows';
import type { Feedback } from './feedback.type';

export interface FeedbackContextArgs {
  types: FeedbackType[] | null;
  limit: number;
  /** read the large columns too (a field backed by them is selected) */
  detail: boolean;
}

/** The newest `limit` feedback per episode, oldest first, optionally of some types; one statement per request. */
export const feedbackByEpisode: KeyedLoaderFactory<FeedbackContextArgs, DataLoader<string, Feedback[]>> = (em, orgId, args) =>
  new DataLoader(async (ids) => {
    const params: unknown[] = [orgId, pgArray([...ids])];
    let extra = '';
    if (args.types?.length) {
      extra = ' AND fb.feedback_type = ANY(?::text[])';
      params.push(pgArray(args.types));
    }
    const w = newestPerEpisode('fb.created_at DESC, fb.id DESC', args.limit);
    const rows = await em.execute<FeedbackRow[]>(
      `SELECT * FROM (SELECT ${args.detail ? FEEDBACK_COLUMNS : FEEDBACK_BRIEF_COLUMNS}${w.select} FROM feedback fb WHERE fb.org_id = ? AND fb.episode_id = ANY(?::uuid[])${extra}) x
       ${w.where} ORDER BY episode_id, created_at, id`,
      params,
    );
    return groupByEpisode(ids, rows as (FeedbackRow & { episode_id: string })[], feedbackFromRow);
  });
