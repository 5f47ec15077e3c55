import { createHash } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../src/config';
import { encodeCursor } from '../src/core/cursor';
import { instantOf, isoText } from '../src/core/instant';
import { timeSortKey } from '../src/core/keyset';
import { LIMITS } from '../src/core/limits';
import { CANVAS_FIELD_COLUMNS, CANVAS_LIST_ALWAYS, canvasColumns } from '../src/modules/canvas';
import { EPISODE_COLUMNS, SEGMENT_FIELD_COLUMNS, SEGMENT_LIST_ALWAYS } from '../src/modules/episodes';
import { feedbackScore } from '../src/modules/feedback';
import { FEEDBACK_FIELD_COLUMNS, FEEDBACK_LIST_ALWAYS, feedbackColumns } from '../src/modules/feedback';
import type { CandidateRow } from '../src/modules/memory';
import { candidateBindings, candidatesColumn } from '../src/modules/memory';
import { selectMemories } from '../src/modules/memory';
import { columnsOf, newestPerEpisode } from '../src/modules/shared';
import { rankingQuery, validateRecall } from '../src/modules/facts';
import { episodeRankingStatement } from '../src/modules/feedback';
import { pyDumps } from '../src/modules/learning';
import { layoutCountsStatement, profilesStatement, seriesStatement } from '../src/modules/learning';
import { aggregateFeedbackScore, moveFeedbackCounters } from '../src/modules/shared';

/**
 * Runs one statement; the raw server counts them the way the ORM logger counts the GraphQL server's.
 * With `TIMESTAMPS_AS_TEXT`, its timestamps come as PostgreSQL's text instead of Dates.
 */
type Q = (sql: string, params: unknown[], types?: pg.CustomTypesConfig) => Promise<any[]>;

/**
 * The reads of episodes and their context lists take timestamps as PostgreSQL's text, as the
 * server's driver takes every timestamp, and answer them through the server's own `instantOf` (no
 * Date built and written back), as the server does.
 */
const TIMESTAMPTZ = 1184;
const TIMESTAMPS_AS_TEXT: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ ? (text: string) => text : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

type Row = Record<string, any>;
const groupBy = (rows: Row[], key: string) => {
  const m = new Map<string, Row[]>();
  for (const r of rows) {
    const k = r[key];
    let l = m.get(k);
    if (!l) m.set(k, (l = []));
    l.push(r);
  }
  return m;
};

/** The aggregate feedback score the server computes from the stored counters. */
const aggregate = (e: Row) => aggregateFeedbackScore(Number(e.feedback_score_sum), Number(e.feedback_score_count));
const iso = (v: unknown) => isoText(instantOf(v as Date | string));

/**
 * The columns the server reads for the scenarios' selection of each list (`canvasContext { id canvasType action createdAt }`,
 * `feedbackContext { id feedbackType score createdAt }`, `segments { id seq role content tokenEstimate }`).
 */
const selecting = (fields: string[]) => (f: string) => fields.includes(f);
const CANVAS_READ = canvasColumns(
  columnsOf(CANVAS_FIELD_COLUMNS, CANVAS_LIST_ALWAYS, selecting(['id', 'canvasType', 'action', 'createdAt'])),
).join(', ');
const FEEDBACK_READ = feedbackColumns(
  columnsOf(FEEDBACK_FIELD_COLUMNS, FEEDBACK_LIST_ALWAYS, selecting(['id', 'feedbackType', 'score', 'createdAt'])),
).join(', ');
const SEGMENTS_READ = columnsOf(
  SEGMENT_FIELD_COLUMNS,
  SEGMENT_LIST_ALWAYS,
  selecting(['id', 'seq', 'role', 'content', 'tokenEstimate']),
).replace(/,/g, ', ');

/**
 * The context lists of some episodes, reading the columns and the newest-100 windows the server's
 * loaders read, one statement per relation sent side by side, shaped as the scenario's selection.
 */
async function withContext(q: Q, orgId: string, eps: Row[]): Promise<Row[]> {
  if (eps.length === 0) return [];
  const ids = `{${eps.map((e) => e.id).join(',')}}`;
  // the newest 100 per episode, as the server's loaders keep by default
  const newest = (order: string) => newestPerEpisode(order, LIMITS.subListDefault);
  const [canvasW, feedbackW, segmentsW] = [
    newest('c.created_at DESC, c.id DESC'),
    newest('fb.created_at DESC, fb.id DESC'),
    newest('seq DESC'),
  ];
  const [canvas, fb, segs] = await Promise.all([
    q(
      `SELECT * FROM (SELECT ${CANVAS_READ}${canvasW.select} FROM canvas_audits c
                       WHERE c.org_id = $1 AND c.episode_id = ANY($2::uuid[])) x ${canvasW.where} ORDER BY episode_id, created_at, id`,
      [orgId, ids],
      TIMESTAMPS_AS_TEXT,
    ),
    q(
      `SELECT * FROM (SELECT ${FEEDBACK_READ}${feedbackW.select} FROM feedback fb
                       WHERE fb.org_id = $1 AND fb.episode_id = ANY($2::uuid[])) x ${feedbackW.where} ORDER BY episode_id, created_at, id`,
      [orgId, ids],
      TIMESTAMPS_AS_TEXT,
    ),
    q(
      `SELECT * FROM (SELECT ${SEGMENTS_READ}${segmentsW.select}
                       FROM episode_segments WHERE org_id = $1 AND episode_id = ANY($2::uuid[])) s ${segmentsW.where} ORDER BY episode_id, seq`,
      [orgId, ids],
      TIMESTAMPS_AS_TEXT,
    ),
  ]);
  const c = groupBy(canvas, 'episode_id');
  const f = groupBy(fb, 'episode_id');
  const s = groupBy(segs, 'episode_id');
  return eps.map((e) => ({
    id: e.id,
    agentId: e.agent_id,
    title: e.title,
    createdAt: iso(e.created_at),
    canvasActionCount: e.canvas_action_count,
    feedbackCount: e.feedback_count,
    aggregateFeedbackScore: aggregate(e),
    canvasContext: (c.get(e.id) ?? []).map((r) => ({
      id: r.id,
      canvasType: r.canvas_type,
      action: r.action,
      createdAt: iso(r.created_at),
    })),
    feedbackContext: (f.get(e.id) ?? []).map((r) => ({
      id: r.id,
      feedbackType: r.feedback_type,
      score: r.score === null ? null : Number(r.score),
      createdAt: iso(r.created_at),
    })),
    segments: (s.get(e.id) ?? []).map((r) => ({ id: r.id, seq: r.seq, role: r.role, content: r.content, tokenEstimate: r.token_estimate })),
  }));
}

/** One statement, as the server writes it: counters moved and both rows read back. */
async function submitFeedback(q: Q, orgId: string, input: Row): Promise<Row> {
  const score = feedbackScore(input.feedbackType, input.rating);
  const [row] = await q(
    `WITH e AS (
       UPDATE episodes e SET ${moveFeedbackCounters({ count: '1', sum: 'COALESCE($3::float8, 0)', scored: '($3::float8 IS NOT NULL)::int' })}, updated_at = now()
        WHERE e.org_id = $1 AND e.id = $2 RETURNING ${EPISODE_COLUMNS.join(', ')}),
     fb AS (
       INSERT INTO feedback (id, org_id, episode_id, agent_id, actor_id, feedback_type, rating, score)
       SELECT gen_random_uuid(), $1, e.id, e.agent_id, '00000000-0000-4000-8000-000000000001', $4, $5, $3 FROM e
       RETURNING id, feedback_type, score, created_at)
     SELECT row_to_json(fb) AS feedback, row_to_json(e) AS episode FROM fb, e`,
    [orgId, input.episodeId, score, input.feedbackType, input.rating ?? null],
  );
  if (!row) throw new Error('episode not found');
  const e = row.episode;
  return {
    feedback: { id: row.feedback.id, score: row.feedback.score },
    episode: { id: e.id, feedbackCount: e.feedback_count, aggregateFeedbackScore: aggregate(e) },
  };
}

/** The server's statements number no placeholders (`?`); pg wants `$1`, `$2`, ... */
const numbered = (sql: string) => {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
};

/** The server's statements (src/modules/learning/analytics.sql.ts), run side by side as the server runs them. */
async function learningAnalytics(q: Q, orgId: string, v: Row): Promise<Row> {
  const series = seriesStatement(orgId, new Date(v.start), new Date(v.end), null).compile();
  const profiles = profilesStatement(orgId, null).compile();
  const [[s], layoutStats] = await Promise.all([
    q(series.sql, [...series.parameters]),
    q(profiles.sql, [...profiles.parameters]).then(async (rows) => {
      if (rows.length === 0) return [];
      const c = layoutCountsStatement(
        orgId,
        rows.map((r) => r.layout_fingerprint),
      ).compile();
      const counts = new Map((await q(c.sql, [...c.parameters])).map((r) => [r.fp, r]));
      return rows.map((r) => {
        const n = counts.get(r.layout_fingerprint);
        return {
          layoutFingerprint: r.layout_fingerprint,
          seenCount: r.seen_count,
          exampleCount: n?.examples ?? 0,
          correctionRate: r.seen_count > 0 ? Math.min(1, (n?.corrected_docs ?? 0) / r.seen_count) : 0,
          lastSeenAt: r.last_seen_at,
        };
      });
    }),
  ]);
  return { eventsByDay: s.by_day, eventsByType: s.by_type, correctedFields: s.fields, layoutStats, confidenceTrend: s.trend };
}

const names = new Map<string, string>();
/**
 * Runs a statement as a named prepared statement of its connection, as the GraphQL server runs its
 * reads: each text is planned once per connection. (Past 2,000 texts, unnamed, as the server does.)
 */
export async function namedQuery(pool: pg.Pool, text: string, params: unknown[], types?: pg.CustomTypesConfig): Promise<pg.QueryResult> {
  let name = names.get(text);
  if (name === undefined && names.size < 2_000) names.set(text, (name = `raw_${createHash('sha1').update(text).digest('hex')}`));
  return pool.query(name === undefined ? { text, values: params, types } : { name, text, values: params, types });
}

/** The same questions as the GraphQL scenarios, answered with hand-written SQL. */
export function rawHandlers(pool: pg.Pool, count: (n: number) => void): Record<string, (orgId: string, v: Row) => Promise<unknown>> {
  const q: Q = async (sql, params, types) => {
    count(1);
    return (await namedQuery(pool, sql, params, types)).rows;
  };
  const handlers: Record<string, (orgId: string, v: Row) => Promise<unknown>> = {
    viewer: (orgId, v) =>
      Promise.resolve({ orgId, apiKeyId: v.viewer.id, apiKeyName: v.viewer.name, role: v.viewer.role, orgName: v.viewer.org_name }),
    episodes: async (orgId, v) => {
      const first = v.first ?? 20;
      const eps = await q(
        `SELECT ${EPISODE_COLUMNS.join(', ')}, ${timeSortKey('e.created_at')} AS sort_key FROM episodes e WHERE e.org_id = $1 ORDER BY e.created_at DESC, e.id DESC LIMIT $2`,
        [orgId, first + 1],
        TIMESTAMPS_AS_TEXT,
      );
      const page = eps.slice(0, first);
      const nodes = await withContext(q, orgId, page);
      const edges = page.map((e, i) => ({ cursor: encodeCursor({ sortValue: e.sort_key, id: e.id }), node: nodes[i] }));
      return { edges, pageInfo: { hasNextPage: eps.length > first, endCursor: edges.at(-1)?.cursor ?? null } };
    },
    episode: async (orgId, v) => {
      const eps = await q(
        `SELECT ${EPISODE_COLUMNS.join(', ')} FROM episodes e WHERE e.org_id = $1 AND e.id = $2`,
        [orgId, v.id],
        TIMESTAMPS_AS_TEXT,
      );
      return (await withContext(q, orgId, eps))[0] ?? null;
    },
    'feedback-spread': (orgId, v) => submitFeedback(q, orgId, v.input),
    'feedback-hot': (orgId, v) => submitFeedback(q, orgId, v.input),
    'few-shot': async (orgId, v) => {
      const rows = await q(
        `SELECT id, left(meta->>'input_snippet', 1500) AS input_snippet, after AS output, created_at FROM feedback
          WHERE org_id = $1 AND layout_fingerprint = $2 AND event_type IN ('EXTRACTION_LINE_CORRECTED','EXTRACTION_FIELD_CORRECTED')
          ORDER BY created_at DESC, id DESC LIMIT $3`,
        [orgId, v.fp, v.limit ?? 3],
      );
      return {
        examples: rows.map((r) => ({ feedbackId: r.id, inputSnippet: r.input_snippet, output: r.output, createdAt: iso(r.created_at) })),
        hintExamplesJson: rows.length ? pyDumps(rows.map((r) => ({ input_snippet: r.input_snippet, output: r.output }))) : '',
      };
    },
    analytics: (orgId, v) => learningAnalytics(q, orgId, v),
    // the server's ranking statement (query contexts included), with the organization's embedding
    // dimension taken as known
    recall: async (orgId, v) => {
      const p = validateRecall(v.input);
      const [sql, params] = rankingQuery(orgId, p, p.queryEmbedding);
      return (await q(numbered(sql), params)).map((r) => ({ fact: { id: r.id }, finalScore: Number(r.final) }));
    },
    // the server's statement (its dimension check included)
    'recall-episodes': async (orgId, v) => {
      const lambda = loadConfig({ DECAY_LAMBDA: process.env.DECAY_LAMBDA }).decayLambda;
      const [sql, params] = episodeRankingStatement(orgId, lambda, {
        agentId: v.agentId,
        query: v.query,
        emb: v.emb ?? null,
        limit: 10,
        since: null,
      });
      return (await q(numbered(sql), params)).map((r) => ({ episode: { id: r.id }, relevance: Number(r.relevance) }));
    },
    // the server's candidates statement, read afresh on every request (the server caches the list
    // and checks the change log instead), and the server's selection
    'memory-context': async (orgId, v) => {
      const i = v.input;
      const k = { orgId, agentId: i.agentId, sessionId: i.sessionId || null, maxCandidates: i.maxCandidates ?? 2000 };
      const [row] = await q(numbered(`SELECT ${candidatesColumn(k)}`), candidateBindings(k));
      const cands = (row.candidates as CandidateRow[]).map(([id, episodeId, role, content, createdAt, tokenEstimate]) => ({
        id,
        episodeId,
        role,
        // the bench's segments are all short, so every text is read with the candidates
        content: content ?? '',
        createdAt: iso(createdAt),
        tokenEstimate: Number(tokenEstimate),
      }));
      const entries = selectMemories('FOVEATED', cands, i.query, i.tokenBudget);
      return {
        entries,
        tokenEstimate: entries.reduce((a, e) => a + e.tokenEstimate, 0),
        policy: 'FOVEATED',
        candidatesConsidered: cands.length,
        memoriesSelected: entries.length,
      };
    },
  };
  return handlers;
}
