import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecallDocument, type RecallInput } from './generated/graphql';
import { gqlOk } from './helpers/client';
import { seededRandom } from './helpers/random';
import { startTestServer, type TestServer } from './helpers/server';

// One server whose recall index may hold 1 MiB, beside one that ranks in PostgreSQL alone.
let small: TestServer;
let sql: TestServer;
beforeAll(async () => {
  small = await startTestServer({ env: { RECALL_INDEX_MAX_MB: '1' } });
  sql = await startTestServer({ dbUrl: small.dbUrl, env: { RECALL_INDEX_MAX_MB: '0' } });
});
afterAll(async () => {
  await sql?.close();
  await small?.close();
});

const recall = (s: TestServer, token: string, input: RecallInput) =>
  gqlOk(s.url, RecallDocument, { input }, token).then((r) => r.recall.map((x) => x.fact.id));

/** `n` facts with random embeddings of `dim` numbers in `bank`, set-based. */
async function seed(orgId: string, bank: string, n: number, dim: number, random: () => number): Promise<void> {
  const em = small.app.db.orm.em.fork();
  const rows = Array.from({ length: n }, (_, i) => ({ text: `fact ${i}`, embedding: Array.from({ length: dim }, () => random() - 0.5) }));
  await em.execute(
    `INSERT INTO facts (id, org_id, bank_id, text, embedding, created_at, updated_at)
     SELECT gen_random_uuid(), ?, ?, x.text, ARRAY(SELECT e::float8 FROM jsonb_array_elements_text(x.embedding) WITH ORDINALITY a(e, o) ORDER BY o), now(), now()
     FROM jsonb_to_recordset(?::jsonb) AS x(text text, embedding jsonb)`,
    [orgId, bank, JSON.stringify(rows)],
  );
  await em.execute('INSERT INTO fact_embedding_dimensions (org_id, dimension) VALUES (?, ?) ON CONFLICT DO NOTHING', [orgId, dim]);
}

describe('recall index within its memory setting', () => {
  it('ranks a bank larger than the setting in PostgreSQL alone, with the same answer, and says so in the log', async () => {
    const org = await small.createOrg('too-large');
    const random = seededRandom(7);
    await seed(org.orgId, 'big', 3000, 256, random);
    const q = Array.from({ length: 256 }, () => random() - 0.5);
    const input = { bankId: 'big', query: 'q', queryEmbedding: q, limit: 10, boostByUsefulness: true };
    expect(await recall(small, org.token, input)).toEqual(await recall(sql, org.token, input));
    expect(small.logs.some((l) => String(l.msg).includes('larger than RECALL_INDEX_MAX_MB') && l.bankId === 'big')).toBe(true);
    expect(small.app.factIndex!.bytes).toBeLessThanOrEqual(1024 * 1024);
  });

  it('evicts the least recently used bank to hold another, and both keep answering as PostgreSQL does', async () => {
    const org = await small.createOrg('evict');
    const random = seededRandom(8);
    // each about 0.65 MiB held: one fits in 1 MiB, both do not
    await seed(org.orgId, 'one', 2000, 128, random);
    await seed(org.orgId, 'two', 2000, 128, random);
    const q = Array.from({ length: 128 }, () => random() - 0.5);
    for (const bankId of ['one', 'two', 'one', 'two']) {
      const input = { bankId, query: 'q', queryEmbedding: q, limit: 5 };
      expect(await recall(small, org.token, input)).toEqual(await recall(sql, org.token, input));
      expect(small.app.factIndex!.bytes).toBeLessThanOrEqual(1024 * 1024);
      expect(small.app.factIndex!.vectors).toBe(2000);
    }
  });
});
