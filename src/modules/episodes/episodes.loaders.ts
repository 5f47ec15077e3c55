import DataLoader from 'dataloader';
import { pgArray } from '../../core/sql';
import type { KeyedLoaderFactory } from '../../graphql/loaders';
import { FACT_COLUMNS, factFromRow, type FactRow } from '../facts/fact.rows';
import type { Fact } from '../facts/fact.type';
import { groupByEpisode, newestPerEpisode } from '../shared/sub-list';
import type { EpisodeOutput, Segment } from './episode-parts.type';

type Limit = { limit: number };

/** The newest `limit` segments per episode, by seq. One statement per request. */
export const segmentsByEpisode: KeyedLoaderFactory<Limit, DataLoader<string, Segment[]>> = (em, orgId, { limit }) =>
  new DataLoader(async (ids) => {
    const w = newestPerEpisode('seq DESC', limit);
    const rows = await em.execute(
      `SELECT * FROM (SELECT id, episode_id, seq, role, content, token_estimate, created_at${w.select}
                        FROM episode_segments WHERE org_id = ? AND episode_id = ANY(?::uuid[])) s
       ${w.where} ORDER BY episode_id, seq`,
      [orgId, pgArray([...ids])],
    );
    return groupByEpisode(ids, rows as { episode_id: string; [k: string]: unknown }[], (r) =>
      ({ id: r.id, episodeId: r.episode_id, seq: r.seq, role: r.role, content: r.content, tokenEstimate: r.token_estimate, createdAt: new Date(r.created_at as string) }) as Segment,
    );
  });

/** The newest `limit` outputs per episode, oldest first. */
export const outputsByEpisode: KeyedLoaderFactory<Limit, DataLoader<string, EpisodeOutput[]>> = (em, orgId, { limit }) =>
  new DataLoader(async (ids) => {
    const w = newestPerEpisode('created_at DESC, id DESC', limit);
    const rows = await em.execute(
      `SELECT * FROM (SELECT id, episode_id, kind, content, difficulty, quality_score, regeneration_round, created_at${w.select}
                        FROM episode_outputs WHERE org_id = ? AND episode_id = ANY(?::uuid[])) o
       ${w.where} ORDER BY episode_id, created_at, id`,
      [orgId, pgArray([...ids])],
    );
    return groupByEpisode(ids, rows as { episode_id: string; [k: string]: unknown }[], (r) =>
      ({
        id: r.id,
        episodeId: r.episode_id,
        kind: r.kind,
        content: r.content,
        difficulty: r.difficulty,
        qualityScore: r.quality_score === null ? null : Number(r.quality_score),
        regenerationRound: r.regeneration_round,
        createdAt: new Date(r.created_at as string),
      }) as EpisodeOutput,
    );
  });

/** The facts of the newest `limit` links per episode, in the order they were linked. */
export const factsByEpisode: KeyedLoaderFactory<Limit, DataLoader<string, Fact[]>> = (em, orgId, { limit }) =>
  new DataLoader(async (ids) => {
    const w = newestPerEpisode('ef.created_at DESC, f.id DESC', limit);
    const rows = await em.execute(
      `SELECT * FROM (SELECT ef.episode_id, ef.created_at AS linked_at, ${FACT_COLUMNS}${w.select}
                        FROM episode_facts ef JOIN facts f ON f.org_id = ef.org_id AND f.id = ef.fact_id
                       WHERE ef.org_id = ? AND ef.episode_id = ANY(?::uuid[])) x
       ${w.where} ORDER BY episode_id, linked_at, id`,
      [orgId, pgArray([...ids])],
    );
    const now = new Date();
    return groupByEpisode(ids, rows as (FactRow & { episode_id: string })[], (r) => factFromRow(r, now));
  });
