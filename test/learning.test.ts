import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addEventCounts } from '../src/modules/shared/learning-event-counts';
import { layoutFingerprint } from '../src/modules/learning/fingerprint';
import {
  ConfirmMappingDocument,
  FeedbackPageDocument,
  FewShotExamplesDocument,
  LayoutProfileDocument,
  LayoutProfilesDocument,
  LearningAnalyticsDocument,
  RecordCorrectionDocument,
  RecordDocumentLayoutDocument,
  RejectMappingDocument,
  ResolveMappingDocument,
} from './generated/graphql';
import { codeOf, fieldOf, gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let a: { orgId: string; token: string };
let b: { orgId: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createOrg('A');
  b = await s.createOrg('B');
});
afterAll(() => s?.close());

const layout = { pageCount: 1, pageDimensions: [[612, 792]], tableCount: 2, textCoverageRatio: 0.42 };
const recordLayout = (input: Record<string, unknown>, token = a.token) =>
  gqlOk(s.url, RecordDocumentLayoutDocument, { input: { ...layout, ...input } as never }, token).then((r) => r.recordDocumentLayout);
const correct = (input: Record<string, unknown>, token = a.token) =>
  gqlOk(s.url, RecordCorrectionDocument, { input: { before: {}, after: {}, ...input } as never }, token).then((r) => r.recordCorrection);

describe('operator actions become feedback events', () => {
  it('records a line correction with before/after and the actor', async () => {
    const fb = await correct({ eventType: 'EXTRACTION_LINE_CORRECTED', before: { qty: 10 }, after: { qty: 12 }, actorUserId: 'op-1' });
    expect(fb).toMatchObject({
      feedbackType: 'CORRECTION',
      eventType: 'EXTRACTION_LINE_CORRECTED',
      before: { qty: 10 },
      after: { qty: 12 },
      actorUserId: 'op-1',
    });
    const cust = await correct({ eventType: 'CUSTOMER_SELECTED', before: { candidates: ['c1', 'c2'] }, after: { customer_id: 'c2' } });
    expect(cust.eventType).toBe('CUSTOMER_SELECTED');
  });
});

describe('layout fingerprints', () => {
  it('gives two documents of one layout the same fingerprint and counts them in one profile', async () => {
    const first = await recordLayout({ documentId: 'inv-1', extractionConfidence: 0.8 });
    expect(first.fingerprint).toBe(layoutFingerprint(layout));
    expect(first.isNew).toBe(true);
    expect(first.profile.seenCount).toBe(1);
    const second = await recordLayout({ documentId: 'inv-2', extractionConfidence: 0.6 });
    expect(second).toMatchObject({ fingerprint: first.fingerprint, isNew: false });
    expect(second.profile.seenCount).toBe(2);
    expect(second.profile.stats).toMatchObject({ avgPageCount: 1, avgTableCount: 2, confidenceSamples: 2 });
    expect((second.profile.stats as { avgExtractionConfidence: number }).avgExtractionConfidence).toBeCloseTo(0.7, 10);
    // the same document again is not counted twice
    const again = await recordLayout({ documentId: 'inv-2' });
    expect(again.profile.seenCount).toBe(2);
    const other = await recordLayout({ documentId: 'inv-3', textCoverageRatio: 0.9 });
    expect(other.isNew).toBe(true);
    expect(other.fingerprint).not.toBe(first.fingerprint);
  });

  it('makes one profile with seenCount 20 from 20 concurrent first sightings', async () => {
    const o = await s.createOrg('concurrent');
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => recordLayout({ documentId: `c-${i}`, tableCount: 7 }, o.token)));
    expect(results.filter((r) => r.isNew)).toHaveLength(1);
    const { layoutProfile } = await gqlOk(s.url, LayoutProfileDocument, { fp: results[0].fingerprint }, o.token);
    expect(layoutProfile?.seenCount).toBe(20);
    const [{ n }] = await s.app.db.orm.em.fork().execute('SELECT count(*)::int AS n FROM layout_profiles WHERE org_id = ?', [o.orgId]);
    expect(n).toBe(1);
  });

  it.each([
    [{ pageCount: -1 }, 'input.pageCount'],
    [{ tableCount: -2 }, 'input.tableCount'],
    [{ pageDimensions: [[612]] }, 'input.pageDimensions.0'],
    [{ pageDimensions: [[612, 0]] }, 'input.pageDimensions.0'],
    [{ textCoverageRatio: 1.2 }, 'input.textCoverageRatio'],
    [{ extractionConfidence: -0.1 }, 'input.extractionConfidence'],
  ])('refuses %o on %s and writes nothing', async (extra, field) => {
    const [{ n: before }] = await s.app.db.orm.em.fork().execute('SELECT count(*)::int AS n FROM documents');
    const r = await gql(s.url, RecordDocumentLayoutDocument, { input: { ...layout, documentId: 'bad', ...extra } as never }, a.token);
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(fieldOf(r)).toBe(field);
    const [{ n: after }] = await s.app.db.orm.em.fork().execute('SELECT count(*)::int AS n FROM documents');
    expect(after).toBe(before);
  });

  it('keeps profiles per organization and pages them', async () => {
    const fp = layoutFingerprint(layout);
    expect((await gqlOk(s.url, LayoutProfileDocument, { fp }, b.token)).layoutProfile).toBeNull();
    const page = await gqlOk(s.url, LayoutProfilesDocument, { first: 1 }, a.token);
    expect(page.layoutProfiles.edges).toHaveLength(1);
    const next = await gqlOk(s.url, LayoutProfilesDocument, { first: 100, after: page.layoutProfiles.pageInfo.endCursor }, a.token);
    expect(next.layoutProfiles.edges.map((e) => e.node.layoutFingerprint)).not.toContain(
      page.layoutProfiles.edges[0].node.layoutFingerprint,
    );
    expect(codeOf(await gql(s.url, LayoutProfileDocument, { fp: 'ABC' }, a.token))).toBe('BAD_USER_INPUT');
  });
});

describe('few-shot examples', () => {
  it('returns the 3 latest corrections of the layout, snippets cut to 1,500 characters, as Python would inject them', async () => {
    const o = await s.createOrg('fewshot');
    const fp = (await recordLayout({ documentId: 'doc-a' }, o.token)).fingerprint;
    expect((await gqlOk(s.url, FewShotExamplesDocument, { fp }, o.token)).fewShotExamples).toEqual({ examples: [], hintExamplesJson: '' });
    for (let i = 0; i < 10; i++) {
      await correct(
        {
          eventType: i % 2 ? 'EXTRACTION_LINE_CORRECTED' : 'EXTRACTION_FIELD_CORRECTED',
          documentId: 'doc-a',
          before: { qty: i },
          after: { qty: i + 1, note: 'café' },
          meta: { input_snippet: `${i}:` + 'é'.repeat(2000) },
        },
        o.token,
      );
    }
    await correct({ eventType: 'CUSTOMER_SELECTED', documentId: 'doc-a' }, o.token);
    const { fewShotExamples: f } = await gqlOk(s.url, FewShotExamplesDocument, { fp }, o.token);
    expect(f.examples.map((e) => (e.output as { qty: number }).qty)).toEqual([10, 9, 8]);
    expect(f.examples[0].inputSnippet).toHaveLength(1500);
    expect(f.hintExamplesJson.startsWith('[{"input_snippet": "9:\\u00e9\\u00e9')).toBe(true);
    expect(f.hintExamplesJson).toContain('"output": {"qty": 10, "note": "caf\\u00e9"}');
    // corrections follow into the profile
    const { layoutProfile } = await gqlOk(s.url, LayoutProfileDocument, { fp }, o.token);
    expect(layoutProfile).toMatchObject({ exampleCount: 11, correctionRate: 1 });
    // another organization gets none of them
    expect((await gqlOk(s.url, FewShotExamplesDocument, { fp }, b.token)).fewShotExamples.examples).toEqual([]);
    expect(fieldOf(await gql(s.url, FewShotExamplesDocument, { fp, limit: 101 }, o.token))).toBe('limit');
  });

  it('is served by the layout index on 100,000 corrections (no sequential scan)', async () => {
    const o = await s.createOrg('explain');
    const em = s.app.db.orm.em.fork();
    // inserted in bulk and counted into the daily learning event counts, as every feedback write is
    await em.execute(
      `WITH f AS (
         INSERT INTO feedback (id, org_id, created_at, actor_id, feedback_type, event_type, layout_fingerprint, before, after, meta)
         SELECT gen_random_uuid(), ?, now() - (g % 90) * interval '1 day', gen_random_uuid(), 'CORRECTION',
                CASE WHEN g % 3 = 0 THEN 'EXTRACTION_FIELD_CORRECTED' ELSE 'EXTRACTION_LINE_CORRECTED' END,
                encode(sha256(convert_to((g % 500)::text, 'UTF8')), 'hex'), '{"qty": 0, "field": "qty"}', jsonb_build_object('qty', g, 'field', 'qty'), '{"input_snippet": "x"}'
           FROM generate_series(1, 100000) g
         RETURNING org_id, created_at, feedback_type, event_type, changed_fields),
       c AS (${addEventCounts('f', 1)})
       SELECT count(*) FROM f`,
      [o.orgId],
    );
    await em.execute('ANALYZE feedback');
    const [{ fp }] = await em.execute("SELECT encode(sha256(convert_to('7', 'UTF8')), 'hex') AS fp");
    const plan = (
      await em.execute(
        `EXPLAIN SELECT id, meta->>'input_snippet' AS snippet, after, created_at FROM feedback
        WHERE org_id = ? AND layout_fingerprint = ? AND event_type IN ('EXTRACTION_LINE_CORRECTED', 'EXTRACTION_FIELD_CORRECTED')
        ORDER BY created_at DESC, id DESC LIMIT 3`,
        [o.orgId, fp],
      )
    )
      .map((r: Record<string, string>) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).toMatch(/Index Scan|Index Only Scan|Bitmap Index Scan/);
    expect(plan).not.toMatch(/Seq Scan on feedback/);
    const t0 = performance.now();
    const { fewShotExamples } = await gqlOk(s.url, FewShotExamplesDocument, { fp }, o.token);
    const fewShotMs = performance.now() - t0;
    expect(fewShotExamples.examples).toHaveLength(3);
    const t1 = performance.now();
    const end = new Date(Date.now() + 60_000);
    const { learningAnalytics } = await gqlOk(
      s.url,
      LearningAnalyticsDocument,
      { start: new Date(end.getTime() - 91 * 86_400_000).toISOString(), end: end.toISOString() },
      o.token,
    );
    console.log(
      `100,000 corrections: fewShotExamples ${fewShotMs.toFixed(1)} ms, learningAnalytics over 90 days ${(performance.now() - t1).toFixed(1)} ms`,
    );
    expect(learningAnalytics.eventsByDay.reduce((n, d) => n + d.count, 0)).toBe(100_000);
    expect(learningAnalytics.correctedFields[0]).toEqual({ field: 'qty', count: 100_000 });
  });
});

describe('mappings', () => {
  it('confirms, counts support, restarts on a new value, rejects with halved confidence, and resolves per customer', async () => {
    const c1 = await gqlOk(
      s.url,
      ConfirmMappingDocument,
      { input: { scope: 'cust-1', key: 'ABC-123', value: 'INT-999', actorUserId: 'op' } },
      a.token,
    );
    expect(c1.confirmMapping).toMatchObject({ bankId: 'mappings', status: 'CONFIRMED', confidence: 1, supportCount: 1 });
    expect(c1.confirmMapping.lastUsedAt).not.toBeNull();
    const c2 = await gqlOk(s.url, ConfirmMappingDocument, { input: { scope: 'cust-1', key: 'ABC-123', value: 'INT-999' } }, a.token);
    expect(c2.confirmMapping.supportCount).toBe(2);
    // another customer's mapping of the same SKU is independent
    await gqlOk(s.url, ConfirmMappingDocument, { input: { scope: 'cust-2', key: 'ABC-123', value: 'INT-111' } }, a.token);
    expect((await gqlOk(s.url, ResolveMappingDocument, { scope: 'cust-1', key: 'ABC-123' }, a.token)).resolveMapping?.value).toBe(
      'INT-999',
    );
    expect((await gqlOk(s.url, ResolveMappingDocument, { scope: 'cust-2', key: 'ABC-123' }, a.token)).resolveMapping?.value).toBe(
      'INT-111',
    );
    const changed = await gqlOk(s.url, ConfirmMappingDocument, { input: { scope: 'cust-1', key: 'ABC-123', value: 'INT-555' } }, a.token);
    expect(changed.confirmMapping).toMatchObject({ value: 'INT-555', supportCount: 1 });
    // rejecting another value leaves the mapping as is
    const other = await gqlOk(s.url, RejectMappingDocument, { input: { scope: 'cust-1', key: 'ABC-123', value: 'INT-999' } }, a.token);
    expect(other.rejectMapping).toMatchObject({ value: 'INT-555', status: 'CONFIRMED', confidence: 1 });
    const rejected = await gqlOk(s.url, RejectMappingDocument, { input: { scope: 'cust-1', key: 'ABC-123', value: 'INT-555' } }, a.token);
    expect(rejected.rejectMapping).toMatchObject({ status: 'REJECTED', confidence: 0.5 });
    expect((await gqlOk(s.url, ResolveMappingDocument, { scope: 'cust-1', key: 'ABC-123' }, a.token)).resolveMapping).toBeNull();
    const fresh = await gqlOk(s.url, RejectMappingDocument, { input: { scope: 'cust-3', key: 'NEW', value: 'INT-1' } }, a.token);
    expect(fresh.rejectMapping).toMatchObject({ status: 'REJECTED', confidence: 0 });
    const events = await gqlOk(
      s.url,
      FeedbackPageDocument,
      { filter: { eventTypes: ['MAPPING_CONFIRMED', 'MAPPING_REJECTED'] }, first: 100 },
      a.token,
    );
    expect(events.feedback.edges).toHaveLength(7);
    const [row] = await s.app.db.orm.em
      .fork()
      .execute(
        "SELECT before, after, meta FROM feedback WHERE org_id = ? AND event_type = 'MAPPING_REJECTED' ORDER BY created_at DESC LIMIT 1",
        [a.orgId],
      );
    expect(row.meta).toEqual({ rejectedValue: 'INT-1' });
    // resolving records nothing, and another organization resolves nothing
    const [{ n }] = await s.app.db.orm.em.fork().execute('SELECT count(*)::int AS n FROM feedback WHERE org_id = ?', [a.orgId]);
    await gqlOk(s.url, ResolveMappingDocument, { scope: 'cust-2', key: 'ABC-123' }, a.token);
    expect((await s.app.db.orm.em.fork().execute('SELECT count(*)::int AS n FROM feedback WHERE org_id = ?', [a.orgId]))[0].n).toBe(n);
    expect((await gqlOk(s.url, ResolveMappingDocument, { scope: 'cust-2', key: 'ABC-123' }, b.token)).resolveMapping).toBeNull();
    const viewer = await s.createKey(a.orgId, 'VIEWER');
    expect(codeOf(await gql(s.url, ConfirmMappingDocument, { input: { scope: 's', key: 'k', value: 'v' } }, viewer.token))).toBe(
      'FORBIDDEN',
    );
  });
});

describe('learning analytics', () => {
  it("shows events per day and type, top corrected fields, layout coverage, confidence trend and a layout's corrections", async () => {
    const o = await s.createOrg('analytics');
    const fp = (await recordLayout({ documentId: 'an-1', extractionConfidence: 0.5 }, o.token)).fingerprint;
    await recordLayout({ documentId: 'an-2', extractionConfidence: 0.7 }, o.token);
    const fields = [...Array(4).fill('qty'), ...Array(3).fill('sku'), ...Array(2).fill('uom'), 'price'];
    for (const f of fields)
      await correct({ eventType: 'EXTRACTION_LINE_CORRECTED', documentId: 'an-1', before: { [f]: 1 }, after: { [f]: 2 } }, o.token);
    await correct({ eventType: 'EXTRACTION_FIELD_CORRECTED', documentId: 'an-1', before: {}, after: { field: 'qty', value: 3 } }, o.token);
    await gqlOk(s.url, ConfirmMappingDocument, { input: { scope: 'c', key: 'k', value: 'v' } }, o.token);
    const start = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const end = new Date(Date.now() + 60_000).toISOString();
    const { learningAnalytics: la } = await gqlOk(s.url, LearningAnalyticsDocument, { start, end }, o.token);
    expect(la.eventsByDay).toEqual([{ date: new Date().toISOString().slice(0, 10), count: 12 }]);
    expect(la.eventsByType).toEqual([
      { eventType: 'EXTRACTION_LINE_CORRECTED', count: 10 },
      { eventType: 'EXTRACTION_FIELD_CORRECTED', count: 1 },
      { eventType: 'MAPPING_CONFIRMED', count: 1 },
    ]);
    expect(la.correctedFields.slice(0, 4)).toEqual([
      { field: 'qty', count: 5 },
      { field: 'sku', count: 3 },
      { field: 'uom', count: 2 },
      { field: 'price', count: 1 },
    ]);
    expect(la.layoutStats).toEqual([
      expect.objectContaining({ layoutFingerprint: fp, seenCount: 2, exampleCount: 11, correctionRate: 0.5 }),
    ]);
    expect(la.confidenceTrend).toHaveLength(1);
    expect(la.confidenceTrend[0].averageConfidence).toBeCloseTo(0.6, 10);
    expect(la.corrections).toEqual([]);
    const withFp = await gqlOk(s.url, LearningAnalyticsDocument, { start, end, fp }, o.token);
    expect(withFp.learningAnalytics.corrections).toHaveLength(11);
    // another organization sees none of it, and the roles and range are checked
    const other = await gqlOk(s.url, LearningAnalyticsDocument, { start, end }, b.token);
    expect(other.learningAnalytics.layoutStats.map((l) => l.layoutFingerprint)).not.toContain(fp);
    expect(other.learningAnalytics.eventsByType.map((e) => e.eventType)).not.toContain('MAPPING_CONFIRMED');
    const op = await s.createKey(o.orgId, 'OPERATOR');
    expect(codeOf(await gql(s.url, LearningAnalyticsDocument, { start, end }, op.token))).toBe('FORBIDDEN');
    const integrator = await s.createKey(o.orgId, 'INTEGRATOR');
    expect((await gql(s.url, LearningAnalyticsDocument, { start, end }, integrator.token)).errors).toBeUndefined();
    expect(fieldOf(await gql(s.url, LearningAnalyticsDocument, { start: end, end: start }, o.token))).toBe('endDate');
    expect(
      fieldOf(await gql(s.url, LearningAnalyticsDocument, { start: '2020-01-01T00:00:00Z', end: '2021-06-01T00:00:00Z' }, o.token)),
    ).toBe('endDate');
    const c = wsClient(s.wsUrl, op.token);
    expect((await wsOnce(c, LearningAnalyticsDocument, { start, end })).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    await c.dispose();
  });
});
