import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recall as recallService } from '../src/modules/facts/recall.service';
import { FactIndex } from '../src/modules/facts/vectors/fact-index';
import { RecallDocument, type RecallInput } from './generated/graphql';
import { gql, gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

// Server `idx` holds recall's index in 1 MiB; server `sql` (same database) ranks in PostgreSQL alone.
const MAX_MB = 1;
let idx: TestServer;
let sql: TestServer;
beforeAll(async () => {
  idx = await startTestServer({ env: { RECALL_INDEX_MAX_MB: String(MAX_MB) } });
  sql = await startTestServer({ dbUrl: idx.dbUrl, env: { RECALL_INDEX_MAX_MB: '0' } });
});
afterAll(async () => {
  await sql?.close();
  await idx?.close();
});

const DIM = 16;
const ids = (s: TestServer, token: string, input: RecallInput) =>
  gqlOk(s.url, RecallDocument, { input }, token).then((r) => r.recall.map((x) => [x.fact.id, x.finalScore]));

/** `n` facts with random embeddings in `bank`, set-based. */
async function seed(orgId: string, bank: string, n: number): Promise<void> {
  const em = idx.app.db.orm.em.fork();
  await em.execute(
    `INSERT INTO facts (id, org_id, bank_id, text, embedding, created_at, updated_at)
     SELECT gen_random_uuid(), ?, ?, 'fact ' || g, (SELECT array_agg(random() - 0.5) FROM generate_series(1, ?) d WHERE g > 0), now(), now()
     FROM generate_series(1, ?) g`,
    [orgId, bank, DIM, n],
  );
  await em.execute('INSERT INTO fact_embedding_dimensions (org_id, dimension) VALUES (?, ?) ON CONFLICT DO NOTHING', [orgId, DIM]);
}

/** Virtual memory of this process (the servers run in it), bytes: each WebAssembly memory reserves its whole range. */
const virtualBytes = () => Number(/VmSize:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

const ALIASES = 30;
const FLOOD = `query Flood($q: [Float!], ${Array.from({ length: ALIASES }, (_, i) => `$b${i}: String!`).join(', ')}) {
  ${Array.from({ length: ALIASES }, (_, i) => `a${i}: recall(input: { bankId: $b${i}, query: "q", queryEmbedding: $q, limit: 5 }) { fact { id } }`).join('\n  ')}
}`;
const floodVars = (q: number[], request: number) => {
  const v: Record<string, unknown> = { q };
  for (let i = 0; i < ALIASES; i++) v[`b${i}`] = `flood-${request}-${i}`;
  return v;
};
const query = Array.from({ length: DIM }, (_, j) => Math.sin(j + 1));

describe('recall index under a flood of bank ids', () => {
  it('answers every recall of thousands of distinct (empty) banks over HTTP and WebSocket, within its memory, keeping another organization’s bank indexed', async () => {
    const flooder = await idx.createOrg('flooder');
    await seed(flooder.orgId, 'seed', 1); // gives the organization its embedding dimension
    const viewer = await idx.createKey(flooder.orgId, 'VIEWER');
    const other = await idx.createOrg('other');
    await seed(other.orgId, 'kept', 1000);
    const input = { bankId: 'kept', query: 'q', queryEmbedding: query, limit: 10, boostByUsefulness: true };
    expect(await ids(idx, other.token, input)).toEqual(await ids(sql, other.token, input));
    expect(idx.app.factIndex!.vectors).toBe(1000); // the other organization's bank is held

    const before = virtualBytes();
    let peak = before;
    const answers: unknown[] = [];
    const errors: unknown[] = [];
    const requests = 30; // 900 bank ids over HTTP, 300 more over WebSocket
    for (let start = 0; start < requests; start += 5) {
      const batch = await Promise.all(Array.from({ length: 5 }, (_, k) => gql(idx.url, FLOOD, floodVars(query, start + k), viewer.token)));
      for (const r of batch) {
        errors.push(...(r.errors ?? []));
        answers.push(...Object.values(r.data ?? {}));
      }
      peak = Math.max(peak, virtualBytes());
      expect(idx.app.factIndex!.bytes).toBeLessThanOrEqual(MAX_MB * 2 ** 20);
      // the other organization keeps answering from its bank, exactly as PostgreSQL does
      if (start % 10 === 0) expect(await ids(idx, other.token, input)).toEqual(await ids(sql, other.token, input));
    }
    const ws = wsClient(idx.wsUrl, viewer.token);
    try {
      for (let r = requests; r < requests + 10; r++) {
        const out = await wsOnce(ws, FLOOD, floodVars(query, r));
        errors.push(...(out.errors ?? []));
        answers.push(...Object.values(out.data ?? {}));
        peak = Math.max(peak, virtualBytes());
      }
    } finally {
      await ws.dispose();
    }
    expect(errors).toEqual([]);
    expect(answers).toHaveLength((requests + 10) * ALIASES);
    expect(answers.every((a) => Array.isArray(a) && a.length === 0)).toBe(true);
    expect(idx.app.factIndex!.bytes).toBeLessThanOrEqual(MAX_MB * 2 ** 20);
    // one shared memory at most (about 10 GiB of address space), not one per bank
    expect(peak - before).toBeLessThan(64 * 2 ** 30);
    // the flood evicted its own banks, never the other organization's
    expect(idx.app.factIndex!.vectors).toBe(1000);
    expect(await ids(idx, other.token, input)).toEqual(await ids(sql, other.token, input));
    expect(idx.logs.filter((l) => l.level === 50)).toEqual([]);
  });

  it('answers from PostgreSQL, as PostgreSQL alone does, when the engine refuses memory for the index', async () => {
    const org = await idx.createOrg('refused');
    await seed(org.orgId, 'first', 300);
    await seed(org.orgId, 'second', 3000);
    const em = () => idx.app.db.orm.em.fork();
    const input = {
      bankId: 'first',
      query: 'q',
      queryEmbedding: query,
      limit: 10,
      boostByUsefulness: true,
      usefulnessWeight: 0.3,
      minUsefulness: 0,
    };
    const ranked = async (bankId: string, index: FactIndex | null) =>
      (await recallService(em(), org.orgId, { ...input, bankId }, index)).map((r) => [r.fact.id, r.finalScore]);
    const Memory = WebAssembly.Memory;
    const grow = Object.getOwnPropertyDescriptor(Memory.prototype, 'grow')!;
    try {
      // no memory at all: the bank is ranked by PostgreSQL
      const refused = new FactIndex(1 << 30);
      (WebAssembly as { Memory: unknown }).Memory = class {
        constructor() {
          throw new RangeError('WebAssembly.Memory(): could not allocate memory');
        }
      };
      expect(await ranked('first', refused)).toEqual(await ranked('first', null));
      expect(refused.vectors).toBe(0);
      (WebAssembly as { Memory: unknown }).Memory = Memory;
      // a memory that cannot grow: the bank that needs more is ranked by PostgreSQL, the one held still answers from the index
      const index = new FactIndex(1 << 30);
      expect(await ranked('first', index)).toEqual(await ranked('first', null));
      expect(index.vectors).toBe(300);
      Object.defineProperty(Memory.prototype, 'grow', {
        ...grow,
        value: () => {
          throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
        },
      });
      expect(await ranked('second', index)).toEqual(await ranked('second', null));
      expect(index.vectors).toBe(300);
      expect(await ranked('first', index)).toEqual(await ranked('first', null));
    } finally {
      (WebAssembly as { Memory: unknown }).Memory = Memory;
      Object.defineProperty(Memory.prototype, 'grow', grow);
    }
  });
});
