import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlOk } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let token: string;
let forks = 0;

beforeAll(async () => {
  s = await startTestServer();
  token = (await s.createOrg('context')).token;
  // count the forks of the server's own ORM (the server is in this process)
  const em = s.app.db.orm.em;
  const fork = em.fork.bind(em);
  em.fork = (...args: Parameters<typeof em.fork>) => {
    forks += 1;
    return fork(...args);
  };
});
afterAll(async () => {
  await s?.close();
});

describe('the context of an operation', () => {
  it('forks an EntityManager only for an operation that writes: reads go through the shared reader', async () => {
    await gqlOk(s.url, '{ viewer { orgId } }', {}, token); // the key is looked up and cached
    forks = 0;
    expect(await gqlOk(s.url, '{ viewer { orgName role } }', {}, token)).toEqual({ viewer: { orgName: 'context', role: 'ADMIN' } });
    expect(forks).toBe(0);
    const { recordEpisode } = await gqlOk<{ recordEpisode: { id: string } }, unknown>(
      s.url,
      'mutation { recordEpisode(input: { agentId: "agent", title: "forked" }) { id } }',
      {},
      token,
    );
    expect(forks).toBeGreaterThan(0);
    forks = 0;
    const lists = 'id title segments { seq } canvasContext { id } feedbackContext { id }';
    const page = await gqlOk(s.url, `{ episodes(first: 2) { edges { node { ${lists} } } } }`, {}, token);
    expect(page).toEqual({
      episodes: { edges: [{ node: { id: recordEpisode.id, title: 'forked', segments: [], canvasContext: [], feedbackContext: [] } }] },
    });
    const one = await gqlOk(s.url, `query($id: ID!) { episode(id: $id) { ${lists} } }`, { id: recordEpisode.id }, token);
    expect(one).toEqual({ episode: { id: recordEpisode.id, title: 'forked', segments: [], canvasContext: [], feedbackContext: [] } });
    expect(forks).toBe(0);
  });
});
