import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/core/errors';
import { idempotent, purgeExpiredIdempotencyKeys } from '../src/core/idempotency';
import { startTestServer, type TestServer } from './helpers/server';

// The mechanism every write mutation uses, exercised on the real database with real concurrency.
let s: TestServer;
let orgId: string;
let em: () => EntityManager;

beforeAll(async () => {
  s = await startTestServer();
  orgId = (await s.createOrg()).orgId;
  em = () => s.app.db.orm.em.fork();
  await em().execute('CREATE TABLE IF NOT EXISTS idem_probe (id serial primary key, org_id uuid, note text)');
});
afterAll(() => s?.close());

const write = (note: string) => async (tx: EntityManager) => {
  const [row] = await tx.execute<{ id: number }[]>('INSERT INTO idem_probe (org_id, note) VALUES (?, ?) RETURNING id', [orgId, note]);
  await new Promise((r) => setTimeout(r, 50)); // keep the transaction open while repeats arrive
  return { id: row.id };
};
const rows = async (note: string) => (await em().execute('SELECT count(*)::int AS n FROM idem_probe WHERE note = ?', [note]))[0].n;

describe('idempotency keys', () => {
  it('runs 5 concurrent repeats once and gives each the first result', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        idempotent(em(), { orgId, key: 'k-concurrent', operation: 'probe', input: { a: 1 } }, write('concurrent')),
      ),
    );
    expect(await rows('concurrent')).toBe(1);
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
  });

  it('refuses the same key with a different input with CONFLICT and writes nothing', async () => {
    await idempotent(em(), { orgId, key: 'k-conflict', operation: 'probe', input: { a: 1 } }, write('conflict'));
    const again = idempotent(em(), { orgId, key: 'k-conflict', operation: 'probe', input: { a: 2 } }, write('conflict'));
    await expect(again).rejects.toMatchObject({ code: 'CONFLICT', field: 'idempotencyKey' });
    expect(await rows('conflict')).toBe(1);
  });

  it('treats the same key for another mutation as a conflict', async () => {
    await idempotent(em(), { orgId, key: 'k-op', operation: 'probe', input: {} }, write('op'));
    await expect(idempotent(em(), { orgId, key: 'k-op', operation: 'other', input: {} }, write('op'))).rejects.toBeInstanceOf(AppError);
  });

  it('keeps keys per organization', async () => {
    const other = (await s.createOrg('other')).orgId;
    await idempotent(em(), { orgId, key: 'k-shared', operation: 'probe', input: {} }, write('shared'));
    await idempotent(em(), { orgId: other, key: 'k-shared', operation: 'probe', input: {} }, write('shared'));
    expect(await rows('shared')).toBe(2);
  });

  it('forgets a key whose write rolled back, so a retry runs', async () => {
    const failing = idempotent(em(), { orgId, key: 'k-rollback', operation: 'probe', input: {} }, async (tx) => {
      await write('rollback')(tx);
      throw new AppError('BAD_USER_INPUT', 'nope', 'x');
    });
    await expect(failing).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(await rows('rollback')).toBe(0);
    await idempotent(em(), { orgId, key: 'k-rollback', operation: 'probe', input: {} }, write('rollback'));
    expect(await rows('rollback')).toBe(1);
  });

  it('lets a key expire after 24 hours and purges expired keys', async () => {
    await idempotent(em(), { orgId, key: 'k-expire', operation: 'probe', input: { v: 1 } }, write('expire'));
    await em().execute("UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = 'k-expire'");
    // an expired key is free again, even with another input
    await idempotent(em(), { orgId, key: 'k-expire', operation: 'probe', input: { v: 2 } }, write('expire'));
    expect(await rows('expire')).toBe(2);
    const [{ hours }] = await em().execute(
      "SELECT round(extract(epoch FROM expires_at - created_at) / 3600) AS hours FROM idempotency_keys WHERE key = 'k-expire'",
    );
    expect(Number(hours)).toBe(24);
    await em().execute("UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = 'k-expire'");
    expect(await purgeExpiredIdempotencyKeys(em())).toBeGreaterThanOrEqual(1);
    expect((await em().execute("SELECT count(*)::int AS n FROM idempotency_keys WHERE key = 'k-expire'"))[0].n).toBe(0);
  });

  it('refuses a key over 128 characters', async () => {
    await expect(idempotent(em(), { orgId, key: 'k'.repeat(129), operation: 'probe', input: {} }, write('long'))).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'idempotencyKey',
    });
  });
});
