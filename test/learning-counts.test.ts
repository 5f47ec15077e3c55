import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initOrm } from '../src/db/orm';
import { entities } from '../src/modules';
import {
  ConfirmMappingDocument,
  ForgetEpisodesDocument,
  LearningAnalyticsDocument,
  PurgeExpiredFeedbackDocument,
  RecordCorrectionDocument,
  RecordDocumentLayoutDocument,
  RejectMappingDocument,
  SubmitFeedbackDocument,
} from './generated/graphql';
import { codeOf, gql, gqlOk } from './helpers/client';
import { cloneDatabase, sqlClient } from './helpers/db';
import { startTestServer, type TestServer } from './helpers/server';

// learningAnalytics reads whole days from the daily learning event counts; these tests hold them
// to a computation from the feedback rows (the definition, written independently of the counts).

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const DAY = 86_400_000;
const sql = (q: string, p: unknown[] = []): Promise<any[]> => s.app.db.orm.em.fork().execute(q, p);
const EVENTS = `feedback_type IN ('CORRECTION', 'CONFIRMATION', 'REJECTION')`;
const CHANGED = `CASE WHEN event_type = 'EXTRACTION_FIELD_CORRECTED' AND after->>'field' IS NOT NULL THEN ARRAY[after->>'field']
  ELSE ARRAY(SELECT k FROM jsonb_object_keys(coalesce(before, '{}') || coalesce(after, '{}')) k WHERE before->k IS DISTINCT FROM after->k) END`;

/** eventsByDay, eventsByType, correctedFields, layoutStats and confidenceTrend straight from the rows. */
async function fromRows(orgId: string, start: Date, end: Date, fp?: string) {
  const f = fp ? 'AND layout_fingerprint = ?' : '';
  const range = [orgId, start.toISOString(), end.toISOString(), ...(fp ? [fp] : [])];
  const [r] = await sql(
    `WITH ev AS (SELECT * FROM feedback WHERE org_id = ? AND ${EVENTS} AND created_at >= ? AND created_at < ? ${f})
     SELECT (SELECT coalesce(json_agg(x ORDER BY x.date), '[]') FROM (
               SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, count(*)::int AS count FROM ev GROUP BY 1) x) AS "eventsByDay",
            (SELECT coalesce(json_agg(x ORDER BY x.count DESC, x."eventType"), '[]') FROM (
               SELECT coalesce(event_type, feedback_type) AS "eventType", count(*)::int AS count FROM ev GROUP BY 1) x) AS "eventsByType",
            (SELECT coalesce(json_agg(x ORDER BY x.count DESC, x.field), '[]') FROM (
               SELECT field, count(*)::int AS count FROM (SELECT ${CHANGED} AS fields FROM ev WHERE feedback_type = 'CORRECTION') c, unnest(c.fields) field
                GROUP BY field ORDER BY count DESC, field LIMIT 10) x) AS "correctedFields"`,
    range,
  );
  const layoutStats = await sql(
    `SELECT p.layout_fingerprint AS "layoutFingerprint", p.seen_count AS "seenCount",
            (SELECT count(*)::int FROM feedback c WHERE c.org_id = p.org_id AND c.layout_fingerprint = p.layout_fingerprint AND c.feedback_type = 'CORRECTION') AS "exampleCount",
            least(1, (SELECT count(DISTINCT document_id) FROM feedback c WHERE c.org_id = p.org_id AND c.layout_fingerprint = p.layout_fingerprint AND c.feedback_type = 'CORRECTION')::float8
                     / greatest(p.seen_count, 1)) AS "correctionRate"
       FROM layout_profiles p WHERE p.org_id = ? ${fp ? 'AND p.layout_fingerprint = ?' : ''} ORDER BY p.last_seen_at DESC, p.id DESC`,
    fp ? [orgId, fp] : [orgId],
  );
  const confidenceTrend = await sql(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, avg(extraction_confidence)::float8 AS "averageConfidence" FROM documents
      WHERE org_id = ? AND created_at >= ? AND created_at < ? AND extraction_confidence IS NOT NULL ${f} GROUP BY 1 ORDER BY 1`,
    range,
  );
  return { ...r, layoutStats, confidenceTrend };
}

async function analytics(o: { orgId: string; token: string }, start: Date, end: Date, fp?: string) {
  const { learningAnalytics: la } = await gqlOk(
    s.url,
    LearningAnalyticsDocument,
    { start: start.toISOString(), end: end.toISOString(), fp },
    o.token,
  );
  const { corrections: _, layoutStats, ...rest } = la;
  return { ...rest, layoutStats: layoutStats.map(({ lastSeenAt: _at, ...l }) => l) };
}

/** The daily counts as stored, and as recounted from the rows. */
async function counts(orgId: string) {
  const stored = await sql(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, kind, key, count FROM learning_event_counts WHERE org_id = ? ORDER BY 1, 2, 3`,
    [orgId],
  );
  const recounted = await sql(
    `SELECT to_char((created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, kind, key, count(*)::int AS count FROM (
       SELECT created_at, 'type' AS kind, coalesce(event_type, feedback_type) AS key FROM feedback WHERE org_id = ? AND ${EVENTS}
       UNION ALL SELECT created_at, 'field', unnest(${CHANGED}) FROM feedback WHERE org_id = ? AND feedback_type = 'CORRECTION') e
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    [orgId, orgId],
  );
  return { stored, recounted };
}

const correct = (o: { token: string }, input: Record<string, unknown>) =>
  gqlOk(
    s.url,
    RecordCorrectionDocument,
    { input: { before: {}, after: {}, eventType: 'EXTRACTION_LINE_CORRECTED', ...input } as never },
    o.token,
  );
const ago = (days: number, hours = 0) => new Date(Date.now() - days * DAY - hours * 3_600_000).toISOString();
const midnight = (d: Date) => new Date(Math.floor(d.getTime() / DAY) * DAY);

/** Every case of a changed field, on several days and layouts, plus events that do not count. */
async function writeEvents(o: { orgId: string; token: string }): Promise<string> {
  const layout = { pageCount: 1, pageDimensions: [[612, 792]], tableCount: 0, textCoverageRatio: 0.5 };
  const fp = (
    await gqlOk(s.url, RecordDocumentLayoutDocument, { input: { ...layout, documentId: 'd-1', extractionConfidence: 0.9 } }, o.token)
  ).recordDocumentLayout.fingerprint;
  await gqlOk(
    s.url,
    RecordDocumentLayoutDocument,
    { input: { ...layout, documentId: 'd-2', tableCount: 3, extractionConfidence: 0.4 } },
    o.token,
  );
  const long = 'f'.repeat(3000); // longer than an index entry may be
  const cases: Record<string, unknown>[] = [
    { eventType: 'EXTRACTION_FIELD_CORRECTED', before: { field: 'qty', qty: 1 }, after: { field: 'qty', qty: 2 } },
    { eventType: 'EXTRACTION_FIELD_CORRECTED', before: { price: 1 }, after: { price: 2, note: null } }, // no after.field: changed keys
    { before: { qty: 1, gone: 'x' }, after: { qty: 1.0 } }, // a removed key; 1 equals 1.0
    { before: { a: { x: 1, y: 2 } }, after: { a: { y: 2, x: 1 } } }, // nothing changed
    { before: { sku: 'A' }, after: { sku: 'B', [long]: 1 }, documentId: 'd-2' },
    { before: {}, after: { sku: 'C' }, documentId: 'd-1', layoutFingerprint: fp },
  ];
  for (const [i, c] of cases.entries()) {
    for (const when of [ago(0, 0), ago(1, 2), ago(3, 20), ago(6, i)])
      await correct(o, { ...c, documentId: c.documentId ?? 'd-1', occurredAt: when });
  }
  await correct(o, { eventType: 'CUSTOMER_SELECTED', after: { customer: 'c' }, layoutFingerprint: fp, occurredAt: ago(2) });
  await gqlOk(s.url, ConfirmMappingDocument, { input: { scope: 'c', key: 'k', value: 'v' } }, o.token);
  await gqlOk(s.url, RejectMappingDocument, { input: { scope: 'c', key: 'k', value: 'w' } }, o.token);
  await gqlOk(
    s.url,
    SubmitFeedbackDocument,
    { input: { feedbackType: 'CORRECTION', corrections: 'free text', agentId: 'a', sessionId: 's', occurredAt: ago(4) } },
    o.token,
  );
  await gqlOk(
    s.url,
    SubmitFeedbackDocument,
    { input: { feedbackType: 'THUMBS_UP', agentId: 'a', sessionId: 's', occurredAt: ago(1) } },
    o.token,
  );
  // a replayed write counts once, a refused one not at all, concurrent ones all
  const replay = { after: { qty: 9 }, idempotencyKey: 'replay-1', occurredAt: ago(1) };
  await correct(o, replay);
  await correct(o, replay);
  expect(
    codeOf(
      await gql(
        s.url,
        RecordCorrectionDocument,
        { input: { eventType: 'X_Y', before: {}, after: { q: 1 }, episodeId: '00000000-0000-4000-8000-000000000000' } },
        o.token,
      ),
    ),
  ).toBe('NOT_FOUND');
  await Promise.all(Array.from({ length: 30 }, (_, i) => correct(o, { before: { qty: i }, after: { qty: i + 1, [`k${i % 3}`]: 1 } })));
  return fp;
}

async function expectExact(o: { orgId: string; token: string }, fp: string) {
  const now = new Date();
  const ranges: [Date, Date, string?][] = [
    [new Date(now.getTime() - 10 * DAY), new Date(now.getTime() + 60_000)], // partial first and last day
    [midnight(new Date(now.getTime() - 5 * DAY)), midnight(now)], // whole days only
    [new Date(midnight(now).getTime() - 3 * DAY + 1), new Date(midnight(now).getTime() - 2 * DAY + 7)], // less than a day across midnight
    [new Date(midnight(now).getTime() - DAY + 3_600_000), new Date(midnight(now).getTime() - 1_000)], // inside one day
    [now, now], // empty
    [new Date(now.getTime() - 10 * DAY), new Date(now.getTime() + 60_000), fp], // one layout
  ];
  for (const [start, end, f] of ranges)
    expect(await analytics(o, start, end, f), `${start.toISOString()} ${end.toISOString()} ${f ?? ''}`).toEqual(
      await fromRows(o.orgId, start, end, f),
    );
  const c = await counts(o.orgId);
  expect(c.stored).toEqual(c.recounted);
}

describe('daily learning event counts', () => {
  it('count every learning event write exactly, and analytics over any range equal a computation from the rows', async () => {
    const o = await s.createOrg('counts');
    const fp = await writeEvents(o);
    const { stored } = await counts(o.orgId);
    const long = stored.filter((r) => r.key.length === 3000);
    expect(long.map((r) => [r.kind, r.count])).toEqual([
      ['field', 1],
      ['field', 1],
      ['field', 1],
      ['field', 1],
    ]);
    expect(stored.some((r) => r.key === 'THUMBS_UP' || r.key === 'X_Y')).toBe(false);
    await expectExact(o, fp);
    // another organization's counts stay apart
    const other = await s.createOrg('counts-other');
    expect((await analytics(other, new Date(Date.now() - 10 * DAY), new Date())).eventsByDay).toEqual([]);
  });

  it('stay exact through purgeExpiredFeedback and forgetEpisodes', async () => {
    const o = await s.createOrg('counts-lifecycle');
    const fp = await writeEvents(o);
    for (let i = 0; i < 12; i++) await correct(o, { before: { old: i }, after: { old: i + 1 }, occurredAt: ago(400 + (i % 3), i) });
    // an old episode with linked corrections and a judgement: forgetting deletes it and the judgement, the corrections stay
    const [{ id }] = await sql(
      `INSERT INTO episodes (id, org_id, agent_id, title, created_at, updated_at) VALUES (gen_random_uuid(), ?, 'a', 'old', now() - interval '120 days', now()) RETURNING id`,
      [o.orgId],
    );
    for (let i = 0; i < 3; i++) await correct(o, { episodeId: id, after: { linked: i }, occurredAt: ago(2, i) });
    await sql(
      `INSERT INTO feedback (id, org_id, created_at, episode_id, actor_id, feedback_type, accepted) VALUES (gen_random_uuid(), ?, now(), ?, gen_random_uuid(), 'JUDGEMENT', false)`,
      [o.orgId, id],
    );
    const start = new Date(Date.now() - 10 * DAY);
    const end = new Date(Date.now() + 60_000);
    const old = [new Date(Date.now() - 405 * DAY), new Date(Date.now() - 395 * DAY)] as const;
    const before = await analytics(o, start, end);
    expect((await analytics(o, ...old)).eventsByType).toEqual([{ eventType: 'EXTRACTION_LINE_CORRECTED', count: 12 }]);

    expect((await gqlOk(s.url, PurgeExpiredFeedbackDocument, { retentionDays: 365 }, o.token)).purgeExpiredFeedback.deleted).toBe(12);
    expect(await analytics(o, start, end)).toEqual(before);
    expect(await analytics(o, ...old)).toEqual(await fromRows(o.orgId, ...old));
    expect((await analytics(o, ...old)).eventsByDay).toEqual([]);
    expect((await sql('SELECT count(*)::int AS n FROM learning_event_counts WHERE org_id = ? AND count <= 0', [o.orgId]))[0].n).toBe(0);
    await expectExact(o, fp);

    expect((await gqlOk(s.url, ForgetEpisodesDocument, {}, o.token)).forgetEpisodes.deleted).toBe(1);
    expect(
      (
        await sql(`SELECT count(*)::int AS n FROM feedback WHERE org_id = ? AND after->>'linked' IS NOT NULL AND episode_id IS NULL`, [
          o.orgId,
        ])
      )[0].n,
    ).toBe(3);
    expect(await analytics(o, start, end)).toEqual(before);
    await expectExact(o, fp);
  });

  it('are filled from the feedback already written when the migration runs', async () => {
    const url = await cloneDatabase();
    const orm = await initOrm({ clientUrl: url, entities });
    const db = await sqlClient(url);
    try {
      const org = '00000000-0000-4000-8000-0000000000aa';
      await db.query(
        `INSERT INTO feedback (id, org_id, created_at, actor_id, feedback_type, event_type, before, after)
         SELECT gen_random_uuid(), $1, now() - (g % 5) * interval '1 day', gen_random_uuid(), (ARRAY['CORRECTION', 'CONFIRMATION', 'REJECTION', 'RATING'])[1 + g % 4],
                (ARRAY['EXTRACTION_FIELD_CORRECTED', 'MAPPING_CONFIRMED', NULL, NULL, 'EXTRACTION_LINE_CORRECTED'])[1 + g % 5],
                jsonb_build_object('qty', g % 3), jsonb_build_object('qty', g % 2, 'field', 'f' || (g % 4))
           FROM generate_series(1, 500) g`,
        [org],
      );
      const migrator = orm.getMigrator();
      const names = (await migrator.getExecutedMigrations()).map((m) => m.name);
      await migrator.down(names.find((n) => n.endsWith('_learning_event_counts')));
      expect((await db.query(`SELECT to_regclass('learning_event_counts') AS t`)).rows[0].t).toBeNull();
      await migrator.up();
      const stored = (
        await db.query(
          `SELECT to_char(day, 'YYYY-MM-DD') AS day, kind, key, count FROM learning_event_counts WHERE org_id = $1 ORDER BY 1, 2, 3`,
          [org],
        )
      ).rows;
      const recounted = (
        await db.query(
          `SELECT to_char((created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, kind, key, count(*)::int AS count FROM (
           SELECT created_at, 'type' AS kind, coalesce(event_type, feedback_type) AS key FROM feedback WHERE org_id = $1 AND ${EVENTS}
           UNION ALL SELECT created_at, 'field', unnest(${CHANGED}) FROM feedback WHERE org_id = $1 AND feedback_type = 'CORRECTION') e
          GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
          [org],
        )
      ).rows;
      expect(stored.length).toBeGreaterThan(10);
      expect(stored).toEqual(recounted);
    } finally {
      await db.end();
      await orm.close(true);
    }
  });
});
