import type pg from 'pg';
import { loadConfig } from '../src/config';
import { rankingQuery, validateRecall } from '../src/modules/facts/recall.service';
import { episodeRankingStatement } from '../src/modules/feedback/recall-episodes';
import { layoutCountsStatement, profilesStatement, seriesStatement } from '../src/modules/learning/analytics.sql';

/** Runs one statement; the raw server counts them the way the ORM logger counts the GraphQL server's. */
export type Q = (sql: string, params: unknown[]) => Promise<any[]>;

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

const EP_COLS = `id, agent_id, title, created_at, canvas_action_count, feedback_count,
  CASE WHEN feedback_score_count > 0 THEN feedback_score_sum / feedback_score_count END AS aggregate_feedback_score`;

/** The context lists of some episodes: one statement per relation, as the DataLoaders do. */
async function withContext(q: Q, orgId: string, eps: Row[]): Promise<Row[]> {
  if (eps.length === 0) return eps;
  const ids = `{${eps.map((e) => e.id).join(',')}}`;
  const [canvas, fb, segs] = await Promise.all([
    q(`SELECT id, episode_id, canvas_type, action, created_at FROM canvas_audits WHERE org_id = $1 AND episode_id = ANY($2::uuid[]) ORDER BY created_at, id`, [orgId, ids]),
    q(`SELECT id, episode_id, feedback_type, score, created_at FROM feedback WHERE org_id = $1 AND episode_id = ANY($2::uuid[]) ORDER BY created_at, id`, [orgId, ids]),
    q(`SELECT id, episode_id, seq, role, content, token_estimate FROM episode_segments WHERE org_id = $1 AND episode_id = ANY($2::uuid[]) ORDER BY seq`, [orgId, ids]),
  ]);
  const c = groupBy(canvas, 'episode_id');
  const f = groupBy(fb, 'episode_id');
  const s = groupBy(segs, 'episode_id');
  return eps.map((e) => ({ ...e, canvasContext: c.get(e.id) ?? [], feedbackContext: f.get(e.id) ?? [], segments: s.get(e.id) ?? [] }));
}

/** One statement, as the server writes it: counters moved and both rows read back. */
async function submitFeedback(q: Q, orgId: string, input: Row): Promise<Row> {
  const score = input.rating != null ? (input.rating - 3) / 2 : input.feedbackType === 'THUMBS_UP' ? 1 : input.feedbackType === 'THUMBS_DOWN' ? -1 : null;
  const [row] = await q(
    `WITH e AS (
       UPDATE episodes SET feedback_count = feedback_count + 1, feedback_score_sum = feedback_score_sum + COALESCE($3::float8, 0),
              feedback_score_count = feedback_score_count + ($3::float8 IS NOT NULL)::int, updated_at = now()
        WHERE org_id = $1 AND id = $2 RETURNING ${EP_COLS}),
     fb AS (
       INSERT INTO feedback (id, org_id, episode_id, agent_id, actor_id, feedback_type, rating, score)
       SELECT gen_random_uuid(), $1, e.id, e.agent_id, '00000000-0000-4000-8000-000000000001', $4, $5, $3 FROM e
       RETURNING id, feedback_type, score, created_at)
     SELECT row_to_json(fb) AS feedback, row_to_json(e) AS episode FROM fb, e`,
    [orgId, input.episodeId, score, input.feedbackType, input.rating ?? null],
  );
  if (!row) throw new Error('episode not found');
  return row;
}

/** The server's statements number no placeholders (`?`); pg wants `$1`, `$2`, ... */
const numbered = (sql: string) => {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
};

/** The server's statements (src/modules/learning/analytics.sql.ts), run side by side as the server runs them. */
async function learningAnalytics(q: Q, orgId: string, v: Row): Promise<Row> {
  const series = seriesStatement(orgId, new Date(v.start), new Date(v.end), null);
  const profiles = profilesStatement(orgId, null);
  const [[s], layoutStats] = await Promise.all([
    q(numbered(series.sql), series.params),
    q(numbered(profiles.sql), profiles.params).then(async (rows) => {
      if (rows.length === 0) return [];
      const c = layoutCountsStatement(orgId, rows.map((r) => r.layout_fingerprint));
      const counts = new Map((await q(numbered(c.sql), c.params)).map((r) => [r.fp, r]));
      return rows.map((r) => {
        const n = counts.get(r.layout_fingerprint);
        return {
          layoutFingerprint: r.layout_fingerprint, seenCount: r.seen_count, exampleCount: n?.examples ?? 0,
          correctionRate: r.seen_count > 0 ? Math.min(1, (n?.corrected_docs ?? 0) / r.seen_count) : 0, lastSeenAt: r.last_seen_at,
        };
      });
    }),
  ]);
  return { eventsByDay: s.by_day, eventsByType: s.by_type, correctedFields: s.fields, layoutStats, confidenceTrend: s.trend };
}

/** FOVEATED selection (30% earliest, 30% relevant, 40% recent) over chronologically ordered candidates. */
export function foveated(cands: Row[], query: string | undefined, budget: number): Row[] {
  const words = (s: string) => new Set(s.toLowerCase().split(/\s+/).filter(Boolean));
  const qw = query ? words(query) : null;
  const zone = (ranked: Row[], b: number) => {
    const out: Row[] = [];
    let used = 0;
    for (const c of ranked) if (used + c.token_estimate <= b) { out.push(c); used += c.token_estimate; }
    return out;
  };
  const early = zone(cands.slice(0, 3), Math.floor(budget * 0.3));
  let relevant: Row[] = [];
  if (qw) {
    const scored = cands.map((c, i) => {
      const w = words(c.content);
      let inter = 0;
      for (const x of w) if (qw.has(x)) inter++;
      return { c, i, j: inter / (w.size + qw.size - inter || 1) };
    }).filter((x) => x.j > 0);
    scored.sort((a, b) => b.j - a.j || a.i - b.i);
    relevant = zone(scored.map((x) => x.c), Math.floor(budget * 0.3));
  }
  const recent = zone([...cands].reverse(), Math.floor(budget * 0.4));
  const chosen = new Set([...early, ...relevant, ...recent]);
  const out: Row[] = [];
  let total = 0;
  for (const c of cands) if (chosen.has(c) && total + c.token_estimate <= budget) { out.push(c); total += c.token_estimate; }
  return out;
}

/** The same questions as the GraphQL scenarios, answered with hand-written SQL. */
export function rawHandlers(pool: pg.Pool, count: (n: number) => void): Record<string, (orgId: string, v: Row) => Promise<unknown>> {
  const q: Q = async (sql, params) => {
    count(1);
    return (await pool.query(sql, params)).rows;
  };
  const handlers: Record<string, (orgId: string, v: Row) => Promise<unknown>> = {
    viewer: async (orgId, v) => ({ orgId, apiKeyId: v.viewer.id, apiKeyName: v.viewer.name, role: v.viewer.role, orgName: v.viewer.org_name }),
    episodes: async (orgId, v) => {
      const first = v.first ?? 20;
      const eps = await q(`SELECT ${EP_COLS} FROM episodes WHERE org_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, [orgId, first + 1]);
      const page = eps.slice(0, first);
      return { edges: await withContext(q, orgId, page), hasNextPage: eps.length > first };
    },
    episode: async (orgId, v) => {
      const eps = await q(`SELECT ${EP_COLS} FROM episodes WHERE org_id = $1 AND id = $2`, [orgId, v.id]);
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
      return { examples: rows, hintExamplesJson: rows.length ? JSON.stringify(rows.map((r) => ({ input_snippet: r.input_snippet, output: r.output }))) : '' };
    },
    analytics: (orgId, v) => learningAnalytics(q, orgId, v),
    // the server's ranking statement (query contexts included), with the organization's embedding
    // dimension taken as known
    recall: async (orgId, v) => {
      const p = validateRecall(v.input);
      const [sql, params] = rankingQuery(orgId, p, p.queryEmbedding);
      return q(numbered(sql), params);
    },
    // the server's statement (its dimension check included)
    'recall-episodes': async (orgId, v) => {
      const lambda = loadConfig({ DECAY_LAMBDA: process.env.DECAY_LAMBDA }).decayLambda;
      const [sql, params] = episodeRankingStatement(orgId, lambda, { agentId: v.agentId, query: v.query, emb: v.emb ?? null, limit: 10, since: null });
      return q(numbered(sql), params);
    },
    'memory-context': async (orgId, v) => {
      const i = v.input;
      const max = i.maxCandidates ?? 2000;
      const base = `SELECT s.id, s.episode_id, s.role, s.content, s.created_at, s.token_estimate, e.created_at AS ep_at, s.seq
        FROM episode_segments s JOIN episodes e ON e.org_id = s.org_id AND e.id = s.episode_id
       WHERE s.org_id = $1 AND e.agent_id = $2`;
      const [early, recent] = await Promise.all([
        q(`${base} ORDER BY s.created_at, e.created_at, s.seq LIMIT 3`, [orgId, i.agentId]),
        q(`${base} ORDER BY s.created_at DESC, e.created_at DESC, s.seq DESC LIMIT $3`, [orgId, i.agentId, Math.max(0, max - 3)]),
      ]);
      const seen = new Set(early.map((r) => r.id));
      const cands = [...early, ...recent.reverse().filter((r) => !seen.has(r.id))];
      const entries = foveated(cands, i.query, i.tokenBudget);
      return { entries, tokenEstimate: entries.reduce((a, e) => a + e.token_estimate, 0), policy: 'FOVEATED', candidatesConsidered: cands.length, memoriesSelected: entries.length };
    },
  };
  return handlers;
}
