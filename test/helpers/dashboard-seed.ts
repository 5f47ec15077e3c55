import { addEventCounts } from '../../src/modules/shared/learning-event-counts';
import { JudgeEpisodeDocument, RecordDocumentLayoutDocument, RecordEpisodeDocument } from '../generated/graphql';
import { gqlOk } from './client';
import type { TestServer } from './server';

const SEEDED_EPISODES = 45;
const SEEDED_CORRECTIONS = 300;
export const SEEDED_FACTS = 40;

/**
 * What the dashboard tests look at: episodes and learning events inserted in bulk (one statement
 * each), plus one episode with segments, outputs, a verdict and document layouts written through
 * the API. Returns the API-written episode's id.
 */
export async function seedDashboard(s: TestServer, orgId: string, token: string): Promise<{ episodeId: string }> {
  const em = s.app.db.orm.em.fork();
  await em.execute(
    `INSERT INTO episodes (id, org_id, agent_id, session_id, title, topic, accepted, overall_score, created_at, updated_at)
     SELECT gen_random_uuid(), ?, 'agent-' || (g % 3), 'session-' || (g % 7), 'Seeded episode ' || g,
            (ARRAY['invoices', 'contracts', 'receipts'])[1 + g % 3], g % 4 <> 0, (g % 10) / 10.0,
            now() - g * interval '7 hours', now()
       FROM generate_series(1, ${SEEDED_EPISODES}) g`,
    [orgId],
  );
  await em.execute(
    `WITH f AS (
       INSERT INTO feedback (id, org_id, created_at, actor_id, feedback_type, event_type, layout_fingerprint, before, after, meta)
       SELECT gen_random_uuid(), ?, now() - (g % 9) * interval '1 day', gen_random_uuid(), 'CORRECTION',
              CASE WHEN g % 3 = 0 THEN 'EXTRACTION_FIELD_CORRECTED' ELSE 'EXTRACTION_LINE_CORRECTED' END,
              'layout-' || (g % 4),
              jsonb_build_object('qty', 0, 'price', 0, 'sku', 'a'),
              CASE WHEN g % 2 = 0 THEN jsonb_build_object('qty', g, 'price', 0, 'sku', 'a') ELSE jsonb_build_object('qty', 0, 'price', g, 'sku', 'b' || g) END,
              jsonb_build_object('input_snippet', 'row ' || g)
         FROM generate_series(1, ${SEEDED_CORRECTIONS}) g
       RETURNING org_id, created_at, feedback_type, event_type, changed_fields),
     c AS (${addEventCounts('f', 1)})
     SELECT count(*) FROM f`,
    [orgId],
  );
  await em.execute(
    `INSERT INTO facts (id, org_id, bank_id, text, kind, status, usefulness, signal_count, last_signal_at, created_at, updated_at)
     SELECT gen_random_uuid(), ?, 'bank', 'Seeded fact ' || g, 'rule', 'CONFIRMED', (g % 20) / 20.0,
            CASE WHEN g % 2 = 0 THEN g ELSE 0 END, CASE WHEN g % 2 = 0 THEN now() - g * interval '1 hour' END, now() - g * interval '1 minute', now()
       FROM generate_series(1, ${SEEDED_FACTS}) g`,
    [orgId],
  );
  for (const [i, confidence] of [0.62, 0.8, 0.91].entries()) {
    await gqlOk(
      s.url,
      RecordDocumentLayoutDocument,
      {
        input: {
          documentId: `doc-${i}`,
          pageCount: 1 + i,
          pageDimensions: [[612, 792]],
          tableCount: i,
          textCoverageRatio: 0.5,
          extractionConfidence: confidence,
        },
      },
      token,
    );
  }
  const { recordEpisode } = await gqlOk(
    s.url,
    RecordEpisodeDocument,
    {
      input: {
        agentId: 'agent-api',
        sessionId: 'session-api',
        title: 'Invoice from ACME',
        topic: 'invoices',
        task: 'extract the invoice lines',
        segments: [
          { role: 'user', content: 'Extract the lines of this invoice.' },
          { role: 'assistant', content: 'Found 3 lines.' },
          { role: 'tool', content: '{"lines": 3}' },
        ],
        outputs: [{ kind: 'lines', content: { lines: 3 }, qualityScore: 0.8 }],
      },
    },
    token,
  );
  await gqlOk(
    s.url,
    JudgeEpisodeDocument,
    { input: { episodeId: recordEpisode.id, accepted: true, overallScore: 0.9, reason: 'all lines found' } },
    token,
  );
  // canvas actions of the API-written episode's agent: every type presented, some closed, some submitted
  await em.execute(
    `INSERT INTO canvas_audits (id, org_id, agent_id, episode_id, canvas_id, canvas_type, component_type, action, created_at)
     SELECT gen_random_uuid(), ?, 'agent-api', ?, 'canvas-' || (g % 10), (ARRAY['form', 'table', 'chart'])[1 + g % 3], (ARRAY['input', 'grid'])[1 + g % 2],
            (ARRAY['PRESENT', 'PRESENT', 'CLOSE', 'SUBMIT'])[1 + g % 4], now() - (60 - g) * interval '1 minute'
       FROM generate_series(1, 48) g`,
    [orgId, recordEpisode.id],
  );
  return { episodeId: recordEpisode.id };
}
