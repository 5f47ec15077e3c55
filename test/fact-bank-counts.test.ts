import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteFactsDocument, FactBanksDocument, UpsertFactsDocument } from './generated/graphql';
import { gqlOk, wsClient, wsOnce } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let peer: TestServer;
let org: { orgId: string; token: string };
let other: { orgId: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  // a second instance on the same database, with its own counts
  peer = await startTestServer({ dbUrl: s.dbUrl });
  org = await s.createOrg('banks');
  other = await s.createOrg('other banks');
  await gqlOk(
    s.url,
    UpsertFactsDocument,
    {
      inputs: [
        { bankId: 'orders', text: 'Orders ship on Mondays', externalId: 'o1' },
        { bankId: 'orders', text: 'Orders over 50 euros ship free', externalId: 'o2' },
        { bankId: 'support', text: 'Support answers within a day', externalId: 's1' },
      ],
    },
    org.token,
  );
  await gqlOk(s.url, UpsertFactsDocument, { inputs: [{ bankId: 'orders', text: 'Another organization ships daily' }] }, other.token);
});

afterAll(async () => {
  await peer?.close();
  await s?.close();
});

const banks = async (t: TestServer, token: string) =>
  (await gqlOk(t.url, FactBanksDocument, {}, token)).factBanks.map((b) => [b.bankId, b.facts] as [string, number]);

/** Statements that counted banks since the last reset. */
const countStatements = (t: TestServer) => t.sql.statements.filter((q) => /count\(\*\)::int AS facts/.test(q)).length;

describe('factBanks counts', () => {
  it('answers a second call with no change without counting', async () => {
    expect(await banks(s, org.token)).toEqual([
      ['orders', 2],
      ['support', 1],
    ]);
    s.sql.reset();
    expect(await banks(s, org.token)).toEqual([
      ['orders', 2],
      ['support', 1],
    ]);
    expect(countStatements(s)).toBe(0);
    // the change log check is the only statement besides authentication
    expect(s.sql.besidesAuth).toBe(1);
  });

  it('is exact on the very next request after upsertFacts, an update by external id and deleteFacts', async () => {
    await banks(s, org.token);
    await gqlOk(s.url, UpsertFactsDocument, { inputs: [{ bankId: 'support', text: 'Support is closed on Sundays' }] }, org.token);
    expect(await banks(s, org.token)).toEqual([
      ['orders', 2],
      ['support', 2],
    ]);
    await gqlOk(s.url, UpsertFactsDocument, { inputs: [{ bankId: 'billing', text: 'Invoices go out monthly' }] }, org.token);
    expect(await banks(s, org.token)).toEqual([
      ['orders', 2],
      ['support', 2],
      ['billing', 1],
    ]);
    // an update (no count changes) still answers the same
    await gqlOk(
      s.url,
      UpsertFactsDocument,
      { inputs: [{ bankId: 'orders', text: 'Orders ship on Tuesdays', externalId: 'o1' }] },
      org.token,
    );
    expect(await banks(s, org.token)).toEqual([
      ['orders', 2],
      ['support', 2],
      ['billing', 1],
    ]);
    await gqlOk(s.url, DeleteFactsDocument, { externalIds: ['o2'] }, org.token);
    // equal counts in the order of their names
    expect(await banks(s, org.token)).toEqual([
      ['support', 2],
      ['billing', 1],
      ['orders', 1],
    ]);
    await gqlOk(s.url, DeleteFactsDocument, { bankId: 'billing' }, org.token);
    expect(await banks(s, org.token)).toEqual([
      ['support', 2],
      ['orders', 1],
    ]);
  });

  it('is exact on an instance that counted before another instance wrote', async () => {
    expect(await banks(peer, org.token)).toEqual([
      ['support', 2],
      ['orders', 1],
    ]);
    await gqlOk(s.url, UpsertFactsDocument, { inputs: [{ bankId: 'orders', text: 'Orders can be split' }] }, org.token);
    expect(await banks(peer, org.token)).toEqual([
      ['orders', 2],
      ['support', 2],
    ]);
    await gqlOk(peer.url, DeleteFactsDocument, { bankId: 'orders' }, org.token);
    expect(await banks(s, org.token)).toEqual([['support', 2]]);
    expect(await banks(peer, org.token)).toEqual([['support', 2]]);
  });

  it("never answers another organization's counts over HTTP or WebSocket", async () => {
    // both organizations' counts are held now
    expect(await banks(s, org.token)).toEqual([['support', 2]]);
    expect(await banks(s, other.token)).toEqual([['orders', 1]]);
    await gqlOk(s.url, UpsertFactsDocument, { inputs: [{ bankId: 'orders', text: 'Another organization ships on Sundays' }] }, other.token);
    expect(await banks(s, org.token)).toEqual([['support', 2]]);
    expect(await banks(s, other.token)).toEqual([['orders', 2]]);
    const ws = wsClient(s.wsUrl, other.token);
    const own = wsClient(s.wsUrl, org.token);
    try {
      expect((await wsOnce(ws, FactBanksDocument, {})).data!.factBanks.map((b) => [b.bankId, b.facts])).toEqual([['orders', 2]]);
      expect((await wsOnce(own, FactBanksDocument, {})).data!.factBanks.map((b) => [b.bankId, b.facts])).toEqual([['support', 2]]);
    } finally {
      await ws.dispose();
      await own.dispose();
    }
  });
});
