import pg from 'pg';
import { addEventCounts } from '../src/modules/shared';
import { reportingRows } from './progress';

/** Row volumes of one seeding run; `scale` multiplies the per-org volumes of the default. */
export interface SeedPlan {
  orgs: number;
  agents: number;
  episodes: number;
  segmentsPerEpisode: number;
  canvasPerEpisode: number;
  feedbackPerEpisode: number;
  corrections: number;
  layouts: number;
  facts: number;
  embeddingDim: number;
  /** episodes with embeddings of one more agent, for recallEpisodes (older than the others, without segments) */
  recallEpisodes: number;
}

function seedPlan(scale: number, overrides: Partial<SeedPlan> = {}): SeedPlan {
  const n = (v: number) => Math.max(1, Math.round(v * scale));
  return {
    orgs: 2,
    agents: 10,
    episodes: n(10_000),
    segmentsPerEpisode: 10,
    canvasPerEpisode: 5,
    feedbackPerEpisode: 3,
    corrections: n(100_000),
    layouts: n(500),
    facts: n(100_000),
    embeddingDim: 64,
    recallEpisodes: n(10_000),
    ...overrides,
  };
}

export interface SeedResult {
  plan: SeedPlan;
  /** the organization every scenario runs in (all volumes above are in it) */
  orgId: string;
  /** the second organization (a 10% copy of episodes, so isolation filters have work to do) */
  otherOrgId: string;
  bankId: string;
  agentId: string;
  /** the agent whose episodes recallEpisodes ranks */
  recallAgentId: string;
  ms: number;
}

const BENCH_BANK = 'agent-0';
const BENCH_AGENT = 'agent-0';
const BENCH_RECALL_AGENT = 'agent-recall';
/** the agent of the episodes the recordEpisode scenario writes */
export const BENCH_WRITER_AGENT = 'agent-writer';
const ACTOR_ID = '00000000-0000-4000-8000-000000000001';

/** sha256 hex fingerprint of layout k, the same expression in SQL and in scenario setup */
const layoutFingerprintSql = (k: string) => `encode(sha256(convert_to('layout-' || ${k}, 'UTF8')), 'hex')`;

async function seedEpisodes(c: pg.ClientBase, orgId: string, p: SeedPlan, count: number): Promise<void> {
  // episodes spread over 10 agents and the last 90 days; sessions of 10 episodes
  await c.query(
    `INSERT INTO episodes (id, org_id, created_at, updated_at, agent_id, session_id, title, task, intent, topic, execution_ids, metadata)
     SELECT gen_random_uuid(), $1, now() - (g::float8 / $2::int) * interval '90 days', now(), 'agent-' || (g % $3::int), 'session-' || (g / 10),
            'Episode ' || g, 'Explain topic ' || (g % 50) || ' to the learner', 'teach', 'topic-' || (g % 50), ARRAY['exec-' || g], '{"source":"bench"}'::jsonb
       FROM generate_series(1, $4::int) g`,
    [orgId, count, p.agents, count],
  );
  await c.query(
    `INSERT INTO episode_segments (id, org_id, created_at, episode_id, seq, role, content, token_estimate)
     SELECT gen_random_uuid(), e.org_id, e.created_at + s * interval '1 second', e.id, s,
            (ARRAY['user','assistant','tool','system'])[1 + s % 4], 'turn ' || s || ' about ' || e.topic || ' with some words to match a query',
            12 + s % 7
       FROM episodes e CROSS JOIN generate_series(0, $2::int - 1) s WHERE e.org_id = $1`,
    [orgId, p.segmentsPerEpisode],
  );
  await c.query(
    `INSERT INTO canvas_audits (id, org_id, created_at, agent_id, session_id, episode_id, canvas_id, canvas_type, component_type, action, metadata)
     SELECT gen_random_uuid(), e.org_id, e.created_at + s * interval '5 seconds', e.agent_id, e.session_id, e.id, 'canvas-' || e.id,
            (ARRAY['generic','docs','email','sheets','charts'])[1 + s % 5], 'component-' || (s % 3),
            (ARRAY['PRESENT','UPDATE','EXECUTE','SUBMIT','CLOSE'])[1 + s % 5], '{"k":1}'::jsonb
       FROM episodes e CROSS JOIN generate_series(0, $2::int - 1) s WHERE e.org_id = $1`,
    [orgId, p.canvasPerEpisode],
  );
  // THUMBS_UP, THUMBS_DOWN, RATING (1..5), repeated
  await c.query(
    `INSERT INTO feedback (id, org_id, created_at, episode_id, agent_id, session_id, actor_id, feedback_type, rating, score)
     SELECT gen_random_uuid(), x.org_id, x.created_at + x.s * interval '1 minute', x.id, x.agent_id, x.session_id, $3, x.t, x.r,
            CASE x.t WHEN 'THUMBS_UP' THEN 1.0 WHEN 'THUMBS_DOWN' THEN -1.0 ELSE (x.r - 3) / 2.0 END
       FROM (SELECT e.*, s, (ARRAY['THUMBS_UP','THUMBS_DOWN','RATING'])[1 + s % 3] AS t,
                    CASE WHEN s % 3 = 2 THEN 1 + (abs(hashtext(e.id::text)) % 5) END AS r
               FROM episodes e CROSS JOIN generate_series(0, $2::int - 1) s WHERE e.org_id = $1) x`,
    [orgId, p.feedbackPerEpisode, ACTOR_ID],
  );
}

/**
 * The recall agent's episodes, each with its own embedding (the correlated subquery), 90 to 180 days
 * old so that the other scenarios' newest episodes and samples stay the agents' with segments.
 */
async function seedRecallEpisodes(c: pg.ClientBase, orgId: string, p: SeedPlan): Promise<void> {
  await c.query(
    `INSERT INTO episodes (id, org_id, created_at, updated_at, agent_id, session_id, title, task, intent, topic, embedding)
     SELECT gen_random_uuid(), $1, now() - interval '90 days' - (g::float8 / $2::int) * interval '90 days', now(), $3, 'recall-session-' || (g / 10),
            'Episode ' || g, 'Explain topic ' || (g % 50) || ' to the learner', 'teach', 'topic-' || (g % 50),
            (SELECT array_agg(random() - 0.5) FROM generate_series(1, $4::int) d WHERE g > 0)
       FROM generate_series(1, $2::int) g`,
    [orgId, p.recallEpisodes, BENCH_RECALL_AGENT, p.embeddingDim],
  );
}

/** The counters of every episode of the org recomputed from the linked rows (exact, set-based). */
async function syncCounters(c: pg.ClientBase, orgId: string): Promise<void> {
  await c.query(
    `UPDATE episodes e SET canvas_action_count = COALESCE(ca.n, 0), feedback_count = COALESCE(f.n, 0),
            feedback_score_sum = COALESCE(f.sum, 0), feedback_score_count = COALESCE(f.scored, 0)
       FROM episodes e2
       LEFT JOIN (SELECT episode_id, count(*) n FROM canvas_audits WHERE org_id = $1 AND episode_id IS NOT NULL GROUP BY 1) ca ON ca.episode_id = e2.id
       LEFT JOIN (SELECT episode_id, count(*) n, sum(score) sum, count(score) scored FROM feedback WHERE org_id = $1 AND episode_id IS NOT NULL GROUP BY 1) f ON f.episode_id = e2.id
      WHERE e.id = e2.id AND e.org_id = $1 AND e2.org_id = $1`,
    [orgId],
  );
}

async function seedLearning(c: pg.ClientBase, orgId: string, p: SeedPlan): Promise<void> {
  const fp = layoutFingerprintSql('k::text');
  await c.query(
    `INSERT INTO documents (id, org_id, created_at, updated_at, document_id, layout_fingerprint, page_count, page_dimensions, table_count, text_coverage_ratio, extraction_confidence)
     SELECT gen_random_uuid(), $1, now() - (d % 90) * interval '1 day', now(), 'doc-' || d, ${fp.replaceAll('k::text', '(d % $2::int)::text')},
            1 + d % 4, '[[612.0, 792.0]]'::jsonb, d % 3, 0.5 + (d % 50) / 100.0, 0.6 + (d % 40) / 100.0
       FROM generate_series(0, $2::int * 4 - 1) d`,
    [orgId, p.layouts],
  );
  await c.query(
    `INSERT INTO layout_profiles (id, org_id, created_at, updated_at, layout_fingerprint, seen_count, last_seen_at, stats)
     SELECT gen_random_uuid(), $1, now() - interval '90 days', now(), ${fp}, 4, now() - (k % 90) * interval '1 day', '{"pageCount":2}'::jsonb
       FROM generate_series(0, $2::int - 1) k`,
    [orgId, p.layouts],
  );
  // counted into the daily learning event counts in the same statement, as the server's writes are
  await c.query(
    `WITH f AS (
     INSERT INTO feedback (id, org_id, created_at, agent_id, actor_id, feedback_type, event_type, entity_type, entity_id, document_id,
                           layout_fingerprint, before, after, meta)
     SELECT gen_random_uuid(), $1, now() - ((g - 1)::float8 / $2::int) * interval '90 days', 'agent-' || (g % 10), $4,
            CASE WHEN g % 10 < 8 THEN 'CORRECTION' WHEN g % 10 = 8 THEN 'CONFIRMATION' ELSE 'REJECTION' END,
            (ARRAY['EXTRACTION_LINE_CORRECTED','EXTRACTION_FIELD_CORRECTED','EXTRACTION_FIELD_CORRECTED','EXTRACTION_LINE_CORRECTED',
                   'EXTRACTION_FIELD_CORRECTED','EXTRACTION_LINE_CORRECTED','EXTRACTION_FIELD_CORRECTED','EXTRACTION_LINE_CORRECTED',
                   'MAPPING_CONFIRMED','MAPPING_REJECTED'])[1 + g % 10],
            'invoice_line', 'line-' || g, 'doc-' || (g % ($3::int * 4)), ${fp.replaceAll('k::text', '(g % $3::int)::text')},
            jsonb_build_object('field', 'qty', 'qty', g % 7, 'sku', 'A' || (g % 13)),
            jsonb_build_object('field', (ARRAY['qty','sku','price'])[1 + g % 3], 'qty', g % 5, 'sku', 'A' || (g % 13)),
            jsonb_build_object('input_snippet', 'Line ' || g || ': 3 x widget at 4.20 EUR')
       FROM generate_series(1, $2::int) g
     RETURNING org_id, created_at, feedback_type, event_type, changed_fields),
     c AS (${addEventCounts('f', 1)})
     SELECT count(*) FROM f`,
    [orgId, p.corrections, p.layouts, ACTOR_ID],
  );
}

async function seedFacts(c: pg.ClientBase, orgId: string, p: SeedPlan): Promise<void> {
  // the correlated subquery (g > 0) gives every fact its own random embedding
  await c.query(
    `INSERT INTO facts (id, org_id, created_at, updated_at, bank_id, text, kind, external_id, status, confidence, support_count,
                        embedding, usefulness, signal_count, last_signal_at)
     SELECT gen_random_uuid(), $1, now() - (g % 90) * interval '1 day', now(), $2, 'Fact ' || g || ' about topic ' || (g % 50) || ' and its details',
            (ARRAY['definition','procedure','example'])[1 + g % 3], 'FACT_' || lpad(to_hex(g), 8, '0'),
            (ARRAY['SUGGESTED','CONFIRMED','REJECTED'])[1 + (g % 10 = 0)::int + (g % 10 = 1)::int * 2], 0.5 + (g % 5) / 10.0, g % 4,
            (SELECT array_agg(random() - 0.5) FROM generate_series(1, $4::int) d WHERE g > 0), 0.2 + (g % 61) / 100.0, g % 9,
            CASE WHEN g % 9 > 0 THEN now() - (g % 30) * interval '1 day' END
       FROM generate_series(1, $3::int) g`,
    [orgId, BENCH_BANK, p.facts, p.embeddingDim],
  );
  // signal history: every signalled fact has a query context (scored by its own query embedding,
  // as submitSignals keeps them) and its log of signal_count signals
  await c.query(
    `WITH ctx AS (
       INSERT INTO fact_query_contexts (id, org_id, created_at, fact_id, query, normalized_query, query_embedding, usefulness, signal_count, last_signal_at)
       SELECT gen_random_uuid(), f.org_id, f.last_signal_at, f.id, q.query, q.query,
              (SELECT array_agg(random() - 0.5) FROM generate_series(1, $3::int) d WHERE f.id IS NOT NULL), f.usefulness, f.signal_count, f.last_signal_at
         FROM facts f CROSS JOIN LATERAL (SELECT 'topic ' || substring(f.text FROM 'topic ([0-9]+)') || ' details' AS query) q
        WHERE f.org_id = $1 AND f.bank_id = $2 AND f.signal_count > 0
       RETURNING id, org_id, fact_id, query, signal_count, last_signal_at)
     INSERT INTO fact_signals (id, org_id, created_at, fact_id, context_id, signal_type, confidence, delta, query, actor_id)
     SELECT gen_random_uuid(), ctx.org_id, ctx.last_signal_at - s * interval '1 hour', ctx.fact_id, ctx.id, t.type, 1.0, t.delta, ctx.query, $4
       FROM ctx CROSS JOIN LATERAL generate_series(0, ctx.signal_count - 1) s
       CROSS JOIN LATERAL (SELECT (ARRAY['USED','IGNORED','HELPFUL','NOT_HELPFUL'])[1 + s % 4] AS type, (ARRAY[0.1, -0.05, 0.15, -0.1])[1 + s % 4] AS delta) t`,
    [orgId, BENCH_BANK, p.embeddingDim, ACTOR_ID],
  );
  // the organization's embedding dimension, as the first upsertFacts with embeddings records it
  await c.query('INSERT INTO fact_embedding_dimensions (org_id, dimension) VALUES ($1, $2) ON CONFLICT (org_id) DO NOTHING', [
    orgId,
    p.embeddingDim,
  ]);
}

/**
 * Seeds the benchmark volume with set-based SQL. `orgId` is the organization to fill (created when
 * absent, e.g. the server's first organization); a second organization receives a 10% copy of the
 * episode volume.
 */
export async function seed(url: string, scale: number, orgId?: string, overrides: Partial<SeedPlan> = {}): Promise<SeedResult> {
  const started = Date.now();
  const plan = seedPlan(scale, overrides);
  const c = reportingRows(new pg.Client({ connectionString: url }));
  await c.connect();
  try {
    await c.query('BEGIN');
    const main =
      orgId ?? (await c.query(`INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'bench') RETURNING id`)).rows[0].id;
    const other = (await c.query(`INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'bench-other') RETURNING id`)).rows[0].id;
    await seedEpisodes(c, main, plan, plan.episodes);
    await seedEpisodes(c, other, plan, Math.max(1, Math.round(plan.episodes / 10)));
    await seedRecallEpisodes(c, main, plan);
    // without statistics the planner takes the fresh tables for empty and joins the counters row by row (minutes)
    await c.query('ANALYZE episodes, canvas_audits, feedback');
    await syncCounters(c, main);
    await syncCounters(c, other);
    await seedLearning(c, main, plan);
    await seedFacts(c, main, plan);
    await c.query('COMMIT');
    // as autovacuum leaves a table that has settled: statistics, and visibility maps for index-only scans
    await c.query('VACUUM ANALYZE');
    return {
      plan,
      orgId: main,
      otherOrgId: other,
      bankId: BENCH_BANK,
      agentId: BENCH_AGENT,
      recallAgentId: BENCH_RECALL_AGENT,
      ms: Date.now() - started,
    };
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await c.end();
  }
}
