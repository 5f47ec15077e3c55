import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors';
import { parseId } from '../../core/ids';
import { type NotNull, sql as raw } from 'kysely';
import { firstRow, rows as runRows, sql } from '../../db/typed-sql';
import { limit as checkLimit, numberIn, text } from '../../core/validate';
import { EPISODE_COLUMNS, episodeFromRow } from '../episodes';
import type { Episode } from '../episodes';
import { MemorySummary, TopicPerformance, TopicTrendPoint } from './lifecycle.type';

/** The share of accepted episodes among those with a verdict (alias `e`), null when none has one. */
const acceptance = raw<number | null>`(count(*) FILTER (WHERE e.accepted) / nullif(count(e.accepted), 0)::float8)`;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Episodes on the same topic or sharing facts, ranked by shared facts, then overallScore. */
export async function similarEpisodes(
  em: EntityManager,
  orgId: string,
  a: { topic?: string | null; factIds?: string[] | null; minScore: number; limit: number },
): Promise<Episode[]> {
  const factIds = (a.factIds ?? []).map((id, i) => parseId(`factIds.${i}`, id));
  if (!a.topic && factIds.length === 0) throw badInput('topic', 'give a topic, factIds or both');
  text('topic', a.topic, 200);
  numberIn('minScore', a.minScore, 0, 1);
  const n = checkLimit(a.limit, 10);
  const anyFact = raw<string>`any(${factIds}::uuid[])`;
  const sharing = sql
    .selectFrom('episode_facts as l')
    .select('l.episode_id')
    .where('l.org_id', '=', orgId)
    .where('l.fact_id', '=', anyFact);
  const shared = raw<number>`(SELECT count(*) FROM episode_facts ef
    WHERE ef.org_id = e.org_id AND ef.episode_id = e.id AND ef.fact_id = ${anyFact})::int`;
  const candidates = sql
    .selectFrom('episodes as e')
    .select([...EPISODE_COLUMNS, shared.as('shared')])
    .where('e.org_id', '=', orgId)
    .where(raw`coalesce(e.overall_score, 0)`, '>=', a.minScore)
    // without a topic, `e.topic = NULL` matches nothing: only shared facts count
    .where((eb) => {
      const topic = a.topic;
      return topic !== null && topic !== undefined
        ? eb.or([eb('e.topic', '=', topic), eb('e.id', 'in', sharing)])
        : eb('e.id', 'in', sharing);
    });
  const rows = await runRows(
    em,
    sql
      .selectFrom(candidates.as('x'))
      .selectAll('x')
      .orderBy('x.shared', 'desc')
      .orderBy('x.overall_score', (o) => o.desc().nullsLast())
      .orderBy('x.created_at', 'desc')
      .orderBy('x.id', 'desc')
      .limit(n),
  );
  return rows.map(episodeFromRow);
}

export async function topicPerformance(em: EntityManager, orgId: string): Promise<TopicPerformance[]> {
  const outputs = raw<number>`coalesce(sum((SELECT count(*) FROM episode_outputs o WHERE o.org_id = e.org_id AND o.episode_id = e.id)), 0)::int`;
  const query = sql
    .selectFrom('episodes as e')
    .select(['e.topic', raw<number>`count(*)::int`.as('episodes'), outputs.as('outputs')])
    .select([raw<number | null>`avg(e.overall_score)::float8`.as('avg'), acceptance.as('rate')])
    .where('e.org_id', '=', orgId)
    .where('e.topic', 'is not', null)
    .$narrowType<{ topic: NotNull }>()
    .groupBy('e.topic')
    .orderBy('episodes', 'desc')
    .orderBy('e.topic')
    .limit(1000);
  const rows = await runRows(em, query);
  return rows.map((r) =>
    Object.assign(new TopicPerformance(), {
      topic: r.topic,
      episodes: r.episodes,
      outputs: r.outputs,
      averageScore: num(r.avg),
      acceptanceRate: num(r.rate),
    }),
  );
}

export async function topicTrend(em: EntityManager, orgId: string, topic: string, days: number): Promise<TopicTrendPoint[]> {
  text('topic', topic, 200, { required: true });
  if (!Number.isInteger(days) || days < 1 || days > 366) throw badInput('days', 'days must be 1..366');
  const day = raw<string>`to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const query = sql
    .selectFrom('episodes as e')
    .select([day.as('date'), raw<number | null>`avg(e.overall_score)::float8`.as('avg'), raw<number>`count(*)::int`.as('episodes')])
    .where('e.org_id', '=', orgId)
    .where('e.topic', '=', topic)
    .where('e.created_at', '>=', raw<string>`now() - ${days}::int * interval '1 day'`)
    .groupBy(raw`1`)
    .orderBy(raw`1`);
  const rows = await runRows(em, query);
  return rows.map((r) => Object.assign(new TopicTrendPoint(), { date: r.date, averageScore: num(r.avg), episodes: r.episodes }));
}

export async function memorySummary(em: EntityManager, orgId: string): Promise<MemorySummary> {
  type Counted = 'episodes' | 'episode_segments' | 'facts' | 'feedback' | 'canvas_audits' | 'layout_profiles';
  const count = (table: Counted) => raw<number>`(SELECT count(*) FROM ${raw.table(table)} WHERE org_id = ${orgId})::int`;
  const query = sql.selectNoFrom([
    count('episodes').as('episodes'),
    count('episode_segments').as('segments'),
    count('facts').as('facts'),
    count('feedback').as('feedback'),
    count('canvas_audits').as('canvas_audits'),
    count('layout_profiles').as('layout_profiles'),
    raw<number | null>`(SELECT avg(overall_score) FROM episodes WHERE org_id = ${orgId})::float8`.as('avg_score'),
    raw<number | null>`(SELECT count(*) FILTER (WHERE accepted) / nullif(count(accepted), 0)::float8
      FROM episodes WHERE org_id = ${orgId})`.as('rate'),
  ]);
  const r = (await firstRow(em, query))!;
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
