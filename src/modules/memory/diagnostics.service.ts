import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors';
import { parseId } from '../../core/ids';
import { pgArray } from '../../core/sql';
import { limit as checkLimit, numberIn, text } from '../../core/validate';
import { EPISODE_COLUMNS, episodeFromRow, type EpisodeRow } from '../episodes/episode.rows';
import type { Episode } from '../episodes/episode.type';
import { MemorySummary, TopicPerformance, TopicTrendPoint } from './lifecycle.type';

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Episodes on the same topic or sharing facts, ranked by shared facts, then overallScore. */
export async function similarEpisodes(em: EntityManager, orgId: string, a: { topic?: string | null; factIds?: string[] | null; minScore: number; limit: number }): Promise<Episode[]> {
  const factIds = (a.factIds ?? []).map((id, i) => parseId(`factIds.${i}`, id));
  if (!a.topic && factIds.length === 0) throw badInput('topic', 'give a topic, factIds or both');
  text('topic', a.topic, 200);
  numberIn('minScore', a.minScore, 0, 1);
  const n = checkLimit(a.limit, 10);
  const facts = pgArray(factIds);
  const rows = await em.execute<(EpisodeRow & { shared: number })[]>(
    `SELECT * FROM (
       SELECT ${EPISODE_COLUMNS},
              (SELECT count(*) FROM episode_facts ef WHERE ef.org_id = e.org_id AND ef.episode_id = e.id AND ef.fact_id = ANY(?::uuid[]))::int AS shared
         FROM episodes e WHERE e.org_id = ? AND coalesce(e.overall_score, 0) >= ?
          AND (e.topic = ? OR e.id IN (SELECT episode_id FROM episode_facts WHERE org_id = ? AND fact_id = ANY(?::uuid[])))) x
      ORDER BY shared DESC, overall_score DESC NULLS LAST, created_at DESC, id DESC LIMIT ?`,
    [facts, orgId, a.minScore, a.topic ?? null, orgId, facts, n],
  );
  return rows.map(episodeFromRow);
}

export async function topicPerformance(em: EntityManager, orgId: string): Promise<TopicPerformance[]> {
  const rows = await em.execute<{ topic: string; episodes: number; outputs: number; avg: number | null; rate: number | null }[]>(
    `SELECT e.topic, count(*)::int AS episodes,
            coalesce(sum((SELECT count(*) FROM episode_outputs o WHERE o.org_id = e.org_id AND o.episode_id = e.id)), 0)::int AS outputs,
            avg(e.overall_score)::float8 AS avg,
            (count(*) FILTER (WHERE e.accepted) / nullif(count(e.accepted), 0)::float8) AS rate
       FROM episodes e WHERE e.org_id = ? AND e.topic IS NOT NULL GROUP BY e.topic ORDER BY episodes DESC, e.topic LIMIT 1000`,
    [orgId],
  );
  return rows.map((r) => Object.assign(new TopicPerformance(), { topic: r.topic, episodes: r.episodes, outputs: r.outputs, averageScore: num(r.avg), acceptanceRate: num(r.rate) }));
}

export async function topicTrend(em: EntityManager, orgId: string, topic: string, days: number): Promise<TopicTrendPoint[]> {
  text('topic', topic, 200, { required: true });
  if (!Number.isInteger(days) || days < 1 || days > 366) throw badInput('days', 'days must be 1..366');
  const rows = await em.execute<{ date: string; avg: number | null; episodes: number }[]>(
    `SELECT to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, avg(e.overall_score)::float8 AS avg, count(*)::int AS episodes
       FROM episodes e WHERE e.org_id = ? AND e.topic = ? AND e.created_at >= now() - ?::int * interval '1 day' GROUP BY 1 ORDER BY 1`,
    [orgId, topic, days],
  );
  return rows.map((r) => Object.assign(new TopicTrendPoint(), { date: r.date, averageScore: num(r.avg), episodes: r.episodes }));
}

export async function memorySummary(em: EntityManager, orgId: string): Promise<MemorySummary> {
  const [r] = await em.execute<Record<string, number | null>[]>(
    `SELECT (SELECT count(*) FROM episodes WHERE org_id = ?)::int AS episodes,
            (SELECT count(*) FROM episode_segments WHERE org_id = ?)::int AS segments,
            (SELECT count(*) FROM facts WHERE org_id = ?)::int AS facts,
            (SELECT count(*) FROM feedback WHERE org_id = ?)::int AS feedback,
            (SELECT count(*) FROM canvas_audits WHERE org_id = ?)::int AS canvas_audits,
            (SELECT count(*) FROM layout_profiles WHERE org_id = ?)::int AS layout_profiles,
            (SELECT avg(overall_score) FROM episodes WHERE org_id = ?)::float8 AS avg_score,
            (SELECT count(*) FILTER (WHERE accepted) / nullif(count(accepted), 0)::float8 FROM episodes WHERE org_id = ?) AS rate`,
    Array(8).fill(orgId),
  );
  return Object.assign(new MemorySummary(), {
    episodes: r.episodes,
    segments: r.segments,
    facts: r.facts,
    feedback: r.feedback,
    canvasAudits: r.canvas_audits,
    layoutProfiles: r.layout_profiles,
    averageOverallScore: num(r.avg_score),
    acceptanceRate: num(r.rate),
  });
}
