import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantOf, isIsoTime } from '../src/core/instant';
import { DateTimeScalar } from '../src/graphql/scalars';
import { gql, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

/**
 * Timestamps a read receives as PostgreSQL's text stay text on their way to the answer (no `Date` is
 * built and written back); the answer must carry exactly the text it carried when they were `Date`s:
 * UTC, milliseconds, the fraction cut as `new Date` cuts it.
 */
const pgText = (ms: number, micros: number) => {
  const iso = new Date(ms).toISOString().slice(0, 19);
  const fraction = String(micros).padStart(6, '0').replace(/0+$/, '');
  return `${iso}${fraction ? '.' + fraction : ''}+00:00`;
};

describe('instants read as text', () => {
  it('become the ISO text a Date would write, for any fraction and any year', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const cases = [
      '2026-03-04T05:06:07+00:00',
      '2026-03-04T05:06:07.5+00:00',
      '2026-03-04T05:06:07.12+00:00',
      '2026-03-04T05:06:07.999999+00:00',
    ];
    for (let i = 0; i < 2000; i++) {
      const ms = -62_000_000_000_000 + (next() / 2147483648) * 315_000_000_000_000; // years 0005 to 9950
      cases.push(pgText(Math.floor(ms / 1000) * 1000, next() % 1_000_000));
    }
    for (const text of cases) {
      const kept = instantOf(text);
      expect(typeof kept).toBe('string');
      expect(kept).toBe(new Date(text).toISOString());
      expect(isIsoTime(kept as string)).toBe(true);
    }
    expect(instantOf('2026-03-04T05:06:07.999999+00:00')).toBe('2026-03-04T05:06:07.999Z');
    // a column's own text form, as the driver returns a plain read's timestamps
    for (const text of cases) expect(instantOf(text.replace('T', ' ').replace('+00:00', '+00'))).toBe(new Date(text).toISOString());
  });

  it('stay Dates when the text is not UTC or not a finite time, and a Date stays the same Date', () => {
    const other = instantOf('2026-03-04T05:06:07.5+02:00');
    expect(other).toBeInstanceOf(Date);
    expect((other as Date).toISOString()).toBe('2026-03-04T03:06:07.500Z');
    expect(instantOf('infinity')).toBeInstanceOf(Date);
    const d = new Date();
    expect(instantOf(d)).toBe(d);
  });

  it('are recognised as ISO text only when they name a real instant', () => {
    expect(isIsoTime('2024-02-29T23:59:59.999Z')).toBe(true);
    for (const text of [
      '2023-02-29T00:00:00.000Z',
      '2026-02-30T00:00:00.000Z',
      '2026-04-31T00:00:00.000Z',
      '2026-13-01T00:00:00.000Z',
      '2026-12-31T24:00:00.000Z',
      '2026-12-31T23:59:60.000Z',
      '0000-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00Z',
      '2026-01-01T00:00:00.000z',
      '2026-01-01T00:00:00.000+00:00',
      '2026-1a-01T00:00:00.000Z',
      '2026-01-01T00:00:00.00aZ',
      '-026-01-01T00:00:00.000Z',
      ' 2026-01-01T00:00:00.000Z',
    ])
      expect(isIsoTime(text), text).toBe(false);
  });

  it('are answered by the DateTime scalar as they are, and anything else is checked as before', () => {
    expect(DateTimeScalar.serialize('2024-02-29T23:59:59.999Z')).toBe('2024-02-29T23:59:59.999Z');
    expect(DateTimeScalar.serialize('2026-03-04T07:06:07.5+02:00')).toBe('2026-03-04T05:06:07.500Z');
    expect(() => DateTimeScalar.serialize('2026-02-30T00:00:00.000Z')).toThrow(/invalid date-time/);
    expect(() => DateTimeScalar.serialize('2026-12-31T24:00:00.000Z')).toThrow();
  });
});

let s: TestServer;
let a: { orgId: string; token: string };
let b: { orgId: string; token: string };
let episodeId: string;

/** Times with every length of fraction PostgreSQL writes, for each kind of row a page carries. */
const AT = ['2026-03-04 05:06:07+00', '2026-03-04 05:06:07.5+00', '2026-03-04 05:06:07.12+00', '2026-03-04 05:06:07.999999+00'];
const ANSWERED = ['2026-03-04T05:06:07.000Z', '2026-03-04T05:06:07.500Z', '2026-03-04T05:06:07.120Z', '2026-03-04T05:06:07.999Z'];

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createOrg('instants-a');
  b = await s.createOrg('instants-b');
  const rows = await s.app.db.orm.em.fork().execute(
    `WITH t AS (SELECT at::timestamptz AS at, k FROM (VALUES ${AT.map((at, i) => `('${at}', ${i + 1})`).join(', ')}) AS x(at, k)),
     e AS (
       INSERT INTO episodes (id, org_id, agent_id, title, created_at, ended_at, updated_at, canvas_action_count, feedback_count, feedback_score_sum, feedback_score_count)
       VALUES (gen_random_uuid(), ?, 'agent', 'times', ?::timestamptz, ?::timestamptz, now(), 4, 4, 1, 4) RETURNING id, org_id),
     s AS (INSERT INTO episode_segments (id, org_id, episode_id, seq, role, content, token_estimate, created_at)
       SELECT gen_random_uuid(), e.org_id, e.id, t.k, 'user', 'turn', 1, t.at FROM e, t RETURNING 1),
     c AS (INSERT INTO canvas_audits (id, org_id, created_at, agent_id, episode_id, canvas_type, action)
       SELECT gen_random_uuid(), e.org_id, t.at + t.k * interval '1 day', 'agent', e.id, 'charts', 'PRESENT' FROM e, t RETURNING 1)
     INSERT INTO feedback (id, org_id, episode_id, agent_id, actor_id, feedback_type, rating, score, created_at)
       SELECT gen_random_uuid(), e.org_id, e.id, 'agent', gen_random_uuid(), 'RATING', 4, 0.25, t.at + t.k * interval '1 day' FROM e, t
       RETURNING episode_id`,
    [a.orgId, AT[3], AT[2]],
  );
  episodeId = (rows[0] as { episode_id: string }).episode_id;
});
afterAll(() => s?.close());

const FIELDS = `id createdAt endedAt segments { seq createdAt } canvasContext { createdAt } feedbackContext { createdAt }`;
/** each list's times, oldest first, a day apart for canvas and feedback */
const dayLater = (text: string, days: number) => new Date(Date.parse(text) + days * 86_400_000).toISOString();
const expected = {
  id: '',
  createdAt: ANSWERED[3],
  endedAt: ANSWERED[2],
  segments: ANSWERED.map((createdAt, i) => ({ seq: i + 1, createdAt })),
  canvasContext: ANSWERED.map((t, i) => ({ createdAt: dayLater(t, i + 1) })),
  feedbackContext: ANSWERED.map((t, i) => ({ createdAt: dayLater(t, i + 1) })),
};

describe('timestamps in answers', () => {
  it("are the same whether the rows came inside JSON (a page, an episode read ahead) or as a column's own text (a list read alone)", async () => {
    const want = { ...expected, id: episodeId };
    const page = await gql(s.url, `{ episodes(first: 5) { edges { node { ${FIELDS} } } } }`, {}, a.token);
    expect(page.errors).toBeUndefined();
    expect((page.data as { episodes: { edges: { node: unknown }[] } }).episodes.edges.map((e) => e.node)).toEqual([want]);

    const one = `query One($id: ID!) { episode(id: $id) { ${FIELDS} } }`;
    const ahead = await gql(s.url, one, { id: episodeId }, a.token);
    expect(ahead.errors).toBeUndefined();
    expect(ahead.data).toEqual({ episode: want });
    // one list under a directive waits for its episode and is read alone: its timestamps are the column's text
    for (const [list, fields] of [
      ['segments', 'seq createdAt'],
      ['canvasContext', 'createdAt'],
      ['feedbackContext', 'createdAt'],
    ] as const) {
      const alone = await gql(
        s.url,
        `query One($id: ID!) { episode(id: $id) { ${list} @include(if: true) { ${fields} } } }`,
        { id: episodeId },
        a.token,
      );
      expect(alone.errors).toBeUndefined();
      expect(alone.data).toEqual({ episode: { [list]: want[list] } });
    }
  });

  it('are the same over WebSocket, and another organization sees no episode', async () => {
    const one = `query One($id: ID!) { episode(id: $id) { ${FIELDS} } }`;
    const mine = wsClient(s.wsUrl, a.token);
    const theirs = wsClient(s.wsUrl, b.token);
    try {
      expect(await wsOnce(mine, one, { id: episodeId })).toEqual({ data: { episode: { ...expected, id: episodeId } } });
      expect(await wsOnce(theirs, one, { id: episodeId })).toEqual({ data: { episode: null } });
    } finally {
      await mine.dispose();
      await theirs.dispose();
    }
    const refused = await gql(s.url, one, { id: episodeId }, b.token);
    expect(refused.errors).toBeUndefined();
    expect(refused.data).toEqual({ episode: null });
  });
});
