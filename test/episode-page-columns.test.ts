import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let org: { orgId: string; token: string };
let other: { orgId: string; token: string };
/** Every field of `Episode` whose value is a scalar and that takes no required argument. */
let leaves: string[];

type Node = Record<string, unknown>;
type Page = { episodes: { edges: { cursor: string; node: Node }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } };

const page = (selection: string, extra = '') =>
  `{ episodes(first: 4) { edges { cursor node { ${selection} } } pageInfo { hasNextPage endCursor } } } ${extra}`;

/** decayScore is computed at the moment of each request: compared apart, to a relative 1e-4. */
const TIMED = 'decayScore';

beforeAll(async () => {
  s = await startTestServer();
  org = await s.createOrg('page-columns');
  other = await s.createOrg('page-columns-other');
  // every column of an episode set, some rejected and some with a low score (decayScore reads both)
  await s.app.db.orm.em.fork().execute(
    `INSERT INTO episodes (id, org_id, agent_id, session_id, title, task, intent, topic, blueprint, created_at, updated_at, ended_at,
                           execution_ids, generation_config, metadata, canvas_action_count, feedback_count,
                           feedback_score_sum, feedback_score_count, overall_score, accepted)
     SELECT gen_random_uuid(), o, 'agent-' || g, 'session-' || g, 'title ' || g, 'task ' || g, 'intent ' || g, 'topic ' || g, 'bp ' || g,
            now() - g * interval '1.000123 hour', now(), now() - g * interval '1 minute',
            ARRAY['run-' || g, 'run-x'], jsonb_build_object('model', 'm' || g, 'temperature', 0.25),
            jsonb_build_object('n', g, 'nested', jsonb_build_object('deep', ARRAY[1.5, 2])),
            g, g + 1, g * 0.25, g, CASE WHEN g % 2 = 0 THEN 0.25 ELSE 0.75 END, CASE WHEN g % 3 = 0 THEN false ELSE true END
       FROM generate_series(1, 6) g, unnest(ARRAY[?::uuid, ?::uuid]) o`,
    [org.orgId, other.orgId],
  );
  const t = await gqlOk<{ __type: { fields: { name: string; args: { type: { kind: string } }[]; type: Node }[] } }, unknown>(
    s.url,
    `{ __type(name: "Episode") { fields { name args { type { kind } } type { kind ofType { kind ofType { kind ofType { kind } } } } } } }`,
    {},
    org.token,
  );
  const leaf = (type: Node): boolean => {
    const kind = type.kind as string;
    if (kind === 'NON_NULL' || kind === 'LIST') return leaf(type.ofType as Node);
    return kind === 'SCALAR' || kind === 'ENUM';
  };
  leaves = t.__type.fields.filter((f) => leaf(f.type) && f.args.every((a) => a.type.kind !== 'NON_NULL')).map((f) => f.name);
});
afterAll(() => s?.close());

/** The page's own statement of the last request (the API key is cached after the first). */
const pageStatement = () => s.sql.statements.find((q) => /from "episodes" as "e"/.test(q)) ?? '';

/** The answer without its timed field, and that field apart. */
function untimed(p: Page): { rest: Page; timed: unknown[] } {
  const timed = p.episodes.edges.map((e) => e.node[TIMED]);
  const rest = structuredClone(p);
  for (const e of rest.episodes.edges) delete e.node[TIMED];
  return { rest, timed };
}

function expectSameAnswer(a: Page, b: Page) {
  const [x, y] = [untimed(a), untimed(b)];
  expect(x.rest).toEqual(y.rest);
  x.timed.forEach((v, i) => {
    if (v === undefined) expect(y.timed[i]).toBeUndefined();
    else expect(Math.abs((v as number) - (y.timed[i] as number))).toBeLessThan(1e-4 * Math.abs(y.timed[i] as number));
  });
}

describe('the episode page reads the columns its selection needs', () => {
  it('answers every field of Episode selected alone as the page selecting all of them, and as episode(id)', async () => {
    expect(leaves).toEqual(expect.arrayContaining(['id', 'title', 'createdAt', 'aggregateFeedbackScore', 'decayScore', 'metadata']));
    const all = await gqlOk<Page, unknown>(s.url, page(leaves.join(' ')), {}, org.token);
    expect(all.episodes.edges).toHaveLength(4);
    for (const field of leaves) {
      const alone = await gqlOk<Page, unknown>(s.url, page(field), {}, org.token);
      const expected = structuredClone(all);
      for (const e of expected.episodes.edges) e.node = { [field]: e.node[field] };
      expectSameAnswer(alone, expected);
    }
    // episode(id) reads every column
    for (const { node } of all.episodes.edges) {
      const one = await gqlOk<{ episode: Node }, unknown>(
        s.url,
        `query ($id: ID!) { episode(id: $id) { ${leaves.join(' ')} } }`,
        { id: node.id },
        org.token,
      );
      expectSameAnswer(
        { episodes: { edges: [{ cursor: '', node: one.episode }], pageInfo: all.episodes.pageInfo } },
        { episodes: { edges: [{ cursor: '', node }], pageInfo: all.episodes.pageInfo } },
      );
    }
  });

  it('reads only the columns of the fields it selects, with the id and the sort key of its cursors', async () => {
    await gqlOk(s.url, page('id'), {}, org.token);
    s.sql.reset();
    await gqlOk(s.url, page('id'), {}, org.token);
    expect(s.sql.count, s.sql.statements.join('\n')).toBe(1);
    const idOnly = pageStatement();
    expect(idOnly).toMatch(/select "e"\."id", to_char\(/);
    s.sql.reset();
    await gqlOk(s.url, page('title aggregateFeedbackScore decayScore'), {}, org.token);
    // the columns it selects: the text up to the table
    const some = pageStatement().slice(0, pageStatement().indexOf(' from "episodes"'));
    expect(some).toMatch(
      /select "e"\."id", "e"\."created_at", "e"\."title", "e"\."feedback_score_sum", "e"\."feedback_score_count", "e"\."overall_score", "e"\."accepted", to_char\(/,
    );
    for (const column of ['metadata', 'generation_config', 'execution_ids', 'task', 'agent_id', 'updated_at', 'org_id']) {
      expect(some).not.toMatch(new RegExp(`"e"\\."${column}"`));
    }
  });

  it('carries the rows of the page and of its lists as arrays of their values, answering as rows read on their own do', async () => {
    const lists = 'canvasContext { id action createdAt } feedbackContext { id score createdAt } segments { id seq content }';
    await gqlOk(s.url, page('id'), {}, org.token);
    s.sql.reset();
    const together = await gqlOk<Page, unknown>(s.url, page(`id title metadata ${lists}`), {}, org.token);
    expect(s.sql.count, s.sql.statements.join('\n')).toBe(1);
    const [text] = s.sql.statements;
    expect(text.match(/json_agg\(json_build_array\(q\d+\./g)).toHaveLength(4);
    expect(text).not.toMatch(/json_agg\(q\d+\)/);
    // the lists read after the page, each alone: rows as the driver makes them
    const after = await gqlOk<Page, unknown>(s.url, page(`id title metadata ... @include(if: true) { ${lists} }`), {}, org.token);
    expect(together).toEqual(after);
  });

  it('reads the columns of fields under fragments and directives, and pages by its cursors as before', async () => {
    const fragment = 'fragment F on Episode { title metadata }';
    const selection = `id ...F @include(if: true) ... on Episode { executionIds } ... @skip(if: true) { task }`;
    const full = await gqlOk<Page, unknown>(s.url, page('id title metadata executionIds'), {}, org.token);
    expect(await gqlOk<Page, unknown>(s.url, page(selection, fragment), {}, org.token)).toEqual(full);
    // the next page, after the cursor of a page read with the id alone, is the next page read with every column
    const ids = await gqlOk<Page, unknown>(s.url, page('id'), {}, org.token);
    const next = (cursor: string, selection: string) =>
      gqlOk<{ episodes: { edges: { node: Node }[] } }, unknown>(
        s.url,
        `query ($after: String) { episodes(first: 4, after: $after) { edges { node { ${selection} } } } }`,
        { after: cursor },
        org.token,
      );
    const a = await next(ids.episodes.pageInfo.endCursor!, 'id');
    const b = await next(full.episodes.pageInfo.endCursor!, leaves.filter((f) => f !== TIMED).join(' '));
    expect(a.episodes.edges.map((e) => e.node.id)).toEqual(b.episodes.edges.map((e) => e.node.id));
    expect(a.episodes.edges).toHaveLength(2);
  });

  it('answers over WebSocket as over HTTP, and each organization its own episodes only', async () => {
    const selection = 'id agentId title createdAt canvasActionCount feedbackCount aggregateFeedbackScore';
    for (const who of [org, other]) {
      const http = await gqlOk<Page, unknown>(s.url, page(selection), {}, who.token);
      const client = wsClient(s.wsUrl, who.token);
      try {
        expect(await wsOnce(client, page(selection), {})).toEqual({ data: http });
      } finally {
        await client.dispose();
      }
      const count = await s.app.db.orm.em
        .fork()
        .execute<{ n: string }[]>(`SELECT count(*) AS n FROM episodes WHERE org_id = ? AND id = any(?::uuid[])`, [
          who.orgId,
          `{${http.episodes.edges.map((e) => e.node.id as string).join(',')}}`,
        ]);
      expect(Number(count[0].n)).toBe(4);
    }
  });
});
