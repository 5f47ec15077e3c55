import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Episode } from '../src/modules/episodes/episode.entity';
import { Fact } from '../src/modules/facts/fact.entity';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let orgId: string;
beforeAll(async () => {
  s = await startTestServer();
  orgId = (await s.createOrg()).orgId;
});
afterAll(() => s?.close());

describe('entities written through the ORM', () => {
  it('store and read back embeddings (double precision[])', async () => {
    const em = s.app.db.orm.em.fork();
    const ep = em.create(Episode, { orgId, agentId: 'orm', embedding: [0.5, -1.25, 3], generationConfig: null, metadata: null });
    const fact = em.create(Fact, { orgId, bankId: 'orm', embedding: [1, 2] });
    await em.persistAndFlush([ep, fact]);
    const fresh = s.app.db.orm.em.fork();
    expect((await fresh.findOneOrFail(Episode, { id: ep.id })).embedding).toEqual([0.5, -1.25, 3]);
    expect((await fresh.findOneOrFail(Fact, { id: fact.id })).embedding).toEqual([1, 2]);
    const [row] = await fresh.execute('SELECT array_length(embedding, 1) AS n FROM episodes WHERE id = ?', [ep.id]);
    expect(row.n).toBe(3);
  });
});
