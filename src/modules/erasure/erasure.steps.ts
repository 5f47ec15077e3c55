import { sql as raw, type RawBuilder } from 'kysely';
import { addEventCounts, moveFeedbackCounters } from '../shared';

/** The kinds an erasure reports, in this order (every kind, zeros included). */
export const KINDS = [
  'episodes',
  'segments',
  'outputs',
  'factLinks',
  'feedback',
  'canvasActions',
  'facts',
  'factVersions',
  'factSignals',
  'queryContexts',
] as const;
type Kind = (typeof KINDS)[number];
export type Counts = Record<Kind, number>;

/** The rows an erasure is about, as conditions on each kind it starts from (null: none of that kind). */
export interface Targets {
  /** on `episodes e` */
  episodes: RawBuilder<boolean> | null;
  /** on `feedback f` */
  feedback: RawBuilder<boolean> | null;
  /** on `canvas_audits c` */
  canvas: RawBuilder<boolean> | null;
  /** on `facts f` */
  facts: RawBuilder<boolean> | null;
}

/**
 * One step of an erasure: the rows of one kind that the targets name, deleted with everything that
 * hangs off them. `batch` deletes at most `size` of them in one statement (its own transaction, so
 * no lock is held longer than a batch) and says how many of each kind went; `count` says how many a
 * run would delete, for a dry run. Steps run in this list's order, each until a batch deletes fewer
 * than `size`. To erase a new kind, add a step (and its kinds to KINDS).
 */
export interface Step {
  root: keyof Targets;
  size: number;
  /**
   * Rows whose usefulness credit goes with them: the table and alias `batch`'s condition is on, and
   * which ids of `removeCredit` they are. Such a step runs each batch in a transaction that picks
   * the batch's ids, removes the credit they earned (usefulness recomputed from the signals left),
   * then deletes them.
   */
  credit?: { table: 'episodes' | 'feedback'; alias: 'e' | 'f'; as: 'episodeIds' | 'feedbackIds' };
  batch(orgId: string, where: RawBuilder<boolean>, size: number): RawBuilder<Partial<Counts>>;
  /** `t`: every target of the erasure (rows an earlier step takes are not counted again) */
  count(orgId: string, where: RawBuilder<boolean>, t: Targets): RawBuilder<Partial<Counts>>;
}

/** Whether the row's episode (column `col`) is one the erasure's episode step takes. */
const onErasedEpisode = (orgId: string, col: string, t: Targets): RawBuilder<boolean> =>
  t.episodes
    ? raw<boolean>`${raw.ref(col)} IN (SELECT e.id FROM episodes e WHERE e.org_id = ${orgId}::uuid AND ${t.episodes})`
    : raw<boolean>`false`;

const n = (cte: string, kind: Kind) => raw.raw(`(SELECT count(*) FROM ${cte})::int AS "${kind}"`);

/**
 * Episodes with their segments, outputs, fact links, feedback (taken out of the daily learning
 * counts in the same statement) and canvas actions. Deleted segments are logged for the
 * memory-context caches of every instance by the trigger on `episode_segments`.
 */
const episodes: Step = {
  root: 'episodes',
  size: 1000,
  // every credit an episode earned (usage, its feedback and verdicts) carries the episode's id
  credit: { table: 'episodes', alias: 'e', as: 'episodeIds' },
  batch: (
    orgId,
    where,
    size,
  ) => raw`WITH b AS (SELECT e.id FROM episodes e WHERE e.org_id = ${orgId}::uuid AND ${where} LIMIT ${size} FOR UPDATE),
      s AS (DELETE FROM episode_segments x WHERE x.org_id = ${orgId}::uuid AND x.episode_id IN (SELECT id FROM b) RETURNING 1),
      o AS (DELETE FROM episode_outputs x WHERE x.org_id = ${orgId}::uuid AND x.episode_id IN (SELECT id FROM b) RETURNING 1),
      l AS (DELETE FROM episode_facts x WHERE x.org_id = ${orgId}::uuid AND x.episode_id IN (SELECT id FROM b) RETURNING 1),
      fb AS (DELETE FROM feedback x WHERE x.org_id = ${orgId}::uuid AND x.episode_id IN (SELECT id FROM b)
             RETURNING x.org_id, x.created_at, x.feedback_type, x.event_type, x.changed_fields),
      lc AS (${raw.raw(addEventCounts('fb', -1))}),
      c AS (DELETE FROM canvas_audits x WHERE x.org_id = ${orgId}::uuid AND x.episode_id IN (SELECT id FROM b) RETURNING 1),
      d AS (DELETE FROM episodes x WHERE x.org_id = ${orgId}::uuid AND x.id IN (SELECT id FROM b) RETURNING 1)
    SELECT ${n('d', 'episodes')}, ${n('s', 'segments')}, ${n('o', 'outputs')}, ${n('l', 'factLinks')}, ${n('fb', 'feedback')},
           ${n('c', 'canvasActions')}`,
  count: (orgId, where) => raw`WITH b AS (SELECT e.id FROM episodes e WHERE e.org_id = ${orgId}::uuid AND ${where})
    SELECT (SELECT count(*) FROM b)::int AS episodes,
      (SELECT count(*) FROM episode_segments x WHERE x.org_id = ${orgId}::uuid AND x.episode_id IN (SELECT id FROM b))::int AS segments,
      (SELECT count(*) FROM episode_outputs x WHERE x.org_id = ${orgId}::uuid AND x.episode_id IN (SELECT id FROM b))::int AS outputs,
      (SELECT count(*) FROM episode_facts x WHERE x.org_id = ${orgId}::uuid AND x.episode_id IN (SELECT id FROM b))::int AS "factLinks",
      (SELECT count(*) FROM feedback x WHERE x.org_id = ${orgId}::uuid AND x.episode_id IN (SELECT id FROM b))::int AS feedback,
      (SELECT count(*) FROM canvas_audits x WHERE x.org_id = ${orgId}::uuid AND x.episode_id IN (SELECT id FROM b))::int AS "canvasActions",
      (SELECT count(*) FROM fact_signals x WHERE x.org_id = ${orgId}::uuid AND x.episode_id IN (SELECT id FROM b))::int AS "factSignals"`,
};

/**
 * Feedback the subject gave that is not on an erased episode: taken out of its episode's counters
 * and the daily learning counts in the same statement, so aggregates stay exact.
 */
const feedback: Step = {
  root: 'feedback',
  size: 5000,
  credit: { table: 'feedback', alias: 'f', as: 'feedbackIds' },
  batch: (
    orgId,
    where,
    size,
  ) => raw`WITH b AS (SELECT f.id FROM feedback f WHERE f.org_id = ${orgId}::uuid AND ${where} LIMIT ${size} FOR UPDATE),
      d AS (DELETE FROM feedback x WHERE x.org_id = ${orgId}::uuid AND x.id IN (SELECT id FROM b)
            RETURNING x.episode_id, x.score, x.org_id, x.created_at, x.feedback_type, x.event_type, x.changed_fields),
      lc AS (${raw.raw(addEventCounts('d', -1))}),
      agg AS (SELECT d.episode_id, count(*) AS n, coalesce(sum(d.score), 0) AS s, count(d.score) AS sc FROM d
               WHERE d.episode_id IS NOT NULL GROUP BY d.episode_id),
      u AS (UPDATE episodes e SET ${raw.raw(moveFeedbackCounters({ count: '-agg.n', sum: '-agg.s', scored: '-agg.sc' }))}, updated_at = now()
              FROM agg WHERE e.org_id = ${orgId}::uuid AND e.id = agg.episode_id)
    SELECT ${n('d', 'feedback')}`,
  count: (orgId, where, t) =>
    raw`WITH b AS (SELECT f.id FROM feedback f WHERE f.org_id = ${orgId}::uuid AND ${where}
          AND (f.episode_id IS NULL OR NOT ${onErasedEpisode(orgId, 'f.episode_id', t)}))
        SELECT (SELECT count(*) FROM b)::int AS feedback,
          (SELECT count(*) FROM fact_signals x WHERE x.org_id = ${orgId}::uuid AND x.feedback_id IN (SELECT id FROM b))::int AS "factSignals"`,
};

/** Canvas actions of the subject not on an erased episode, taken out of their episode's action count. */
const canvas: Step = {
  root: 'canvas',
  size: 5000,
  batch: (
    orgId,
    where,
    size,
  ) => raw`WITH b AS (SELECT c.id FROM canvas_audits c WHERE c.org_id = ${orgId}::uuid AND ${where} LIMIT ${size} FOR UPDATE),
      d AS (DELETE FROM canvas_audits x WHERE x.org_id = ${orgId}::uuid AND x.id IN (SELECT id FROM b) RETURNING x.episode_id),
      agg AS (SELECT d.episode_id, count(*) AS n FROM d WHERE d.episode_id IS NOT NULL GROUP BY d.episode_id),
      u AS (UPDATE episodes e SET canvas_action_count = canvas_action_count - agg.n, updated_at = now()
              FROM agg WHERE e.org_id = ${orgId}::uuid AND e.id = agg.episode_id)
    SELECT ${n('d', 'canvasActions')}`,
  count: (orgId, where, t) =>
    raw`SELECT count(*)::int AS "canvasActions" FROM canvas_audits c WHERE c.org_id = ${orgId}::uuid AND ${where}
          AND (c.episode_id IS NULL OR NOT ${onErasedEpisode(orgId, 'c.episode_id', t)})`,
};

/**
 * Facts with their past versions, signals, query contexts and episode links. The triggers on
 * `facts` and `fact_query_contexts` log the deleted ids, so every instance's recall index drops them
 * at its next request.
 */
const facts: Step = {
  root: 'facts',
  size: 5000,
  batch: (
    orgId,
    where,
    size,
  ) => raw`WITH b AS (SELECT f.id FROM facts f WHERE f.org_id = ${orgId}::uuid AND ${where} LIMIT ${size} FOR UPDATE),
      v AS (DELETE FROM fact_versions x WHERE x.org_id = ${orgId}::uuid AND x.fact_id IN (SELECT id FROM b) RETURNING 1),
      g AS (DELETE FROM fact_signals x WHERE x.org_id = ${orgId}::uuid AND x.fact_id IN (SELECT id FROM b) RETURNING 1),
      q AS (DELETE FROM fact_query_contexts x WHERE x.org_id = ${orgId}::uuid AND x.fact_id IN (SELECT id FROM b) RETURNING 1),
      l AS (DELETE FROM episode_facts x WHERE x.org_id = ${orgId}::uuid AND x.fact_id IN (SELECT id FROM b) RETURNING 1),
      d AS (DELETE FROM facts x WHERE x.org_id = ${orgId}::uuid AND x.id IN (SELECT id FROM b) RETURNING 1)
    SELECT ${n('d', 'facts')}, ${n('v', 'factVersions')}, ${n('g', 'factSignals')}, ${n('q', 'queryContexts')}, ${n('l', 'factLinks')}`,
  count: (orgId, where, t) => raw`WITH b AS (SELECT f.id FROM facts f WHERE f.org_id = ${orgId}::uuid AND ${where})
    SELECT (SELECT count(*) FROM b)::int AS facts,
      (SELECT count(*) FROM fact_versions x WHERE x.org_id = ${orgId}::uuid AND x.fact_id IN (SELECT id FROM b))::int AS "factVersions",
      (SELECT count(*) FROM fact_signals x WHERE x.org_id = ${orgId}::uuid AND x.fact_id IN (SELECT id FROM b)
          AND (x.episode_id IS NULL OR NOT ${onErasedEpisode(orgId, 'x.episode_id', t)}))::int AS "factSignals",
      (SELECT count(*) FROM fact_query_contexts x WHERE x.org_id = ${orgId}::uuid AND x.fact_id IN (SELECT id FROM b))::int AS "queryContexts",
      (SELECT count(*) FROM episode_facts x WHERE x.org_id = ${orgId}::uuid AND x.fact_id IN (SELECT id FROM b)
          AND NOT ${onErasedEpisode(orgId, 'x.episode_id', t)})::int AS "factLinks"`,
};

/** Episodes first: their feedback and canvas actions go with them, and the rest of the subject's after. */
export const STEPS: readonly Step[] = [episodes, feedback, canvas, facts];
