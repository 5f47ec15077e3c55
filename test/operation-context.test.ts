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
  it('forks an EntityManager only for an operation that reads the database', async () => {
    await gqlOk(s.url, '{ viewer { orgId } }', {}, token); // the key is looked up and cached
    forks = 0;
    expect(await gqlOk(s.url, '{ viewer { orgName role } }', {}, token)).toEqual({ viewer: { orgName: 'context', role: 'ADMIN' } });
    expect(forks).toBe(0);
    const page = await gqlOk(s.url, '{ episodes(first: 2) { edges { node { id } } } }', {}, token);
    expect(page).toEqual({ episodes: { edges: [] } });
    expect(forks).toBe(1);
  });
});
