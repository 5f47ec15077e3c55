import DataLoader from 'dataloader';
import { sql as raw } from 'kysely';
import { rows, sql } from '../../db/typed-sql';
import type { KeyedLoaderFactory } from '../../graphql/loaders';
import { episodeBatch, groupByEpisode, ofEpisodes, rankInEpisode } from '../shared';
import { type MemoryTrace, type MemoryTraceItem, MemoryTraceOperation } from './trace.type';

type StoredItem = Omit<MemoryTraceItem, 'used'>;

/**
 * The newest `limit` traces of each episode, oldest first, with the facts each episode used (to
 * mark served items `used`): one statement per request.
 */
export const tracesByEpisode: KeyedLoaderFactory<{ limit: number }, DataLoader<string, MemoryTrace[]>> = (em, orgId, { limit }) =>
  new DataLoader(async (ids) => {
    const { one, episodes } = episodeBatch(ids);
    const ranked = sql
      .selectFrom('memory_traces as t')
      .select(['t.id', 't.episode_id', 't.operation', 't.seq', 't.query', 't.strategy', 't.mode', 't.budget', 't.created_at', 't.items'])
      .select(rankInEpisode('t.created_at DESC, t.id DESC').as('rn'))
      .select(
        raw<
          string[] | null
        >`(SELECT array_agg(ef.fact_id) FROM episode_facts ef WHERE ef.org_id = t.org_id AND ef.episode_id = t.episode_id)`.as('used'),
      )
      .where('t.org_id', '=', orgId)
      .where('t.episode_id', '=', ofEpisodes(episodes, one));
    const found = await rows(
      em,
      sql.selectFrom(ranked.as('x')).selectAll().where('x.rn', '<=', limit).orderBy('x.episode_id').orderBy('x.created_at').orderBy('x.id'),
    );
    return groupByEpisode(ids, found, (r) => {
      const used = new Set(r.used ?? []);
      return {
        id: r.id,
        operation: r.operation as MemoryTraceOperation,
        seq: r.seq,
        query: r.query,
        strategy: r.strategy,
        mode: r.mode,
        budget: r.budget,
        createdAt: new Date(r.created_at),
        items: (r.items as StoredItem[]).map((it) => ({ ...it, used: it.factId !== null && used.has(it.factId) })),
      };
    });
  });
