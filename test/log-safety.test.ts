import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeError } from '../src/core/log-errors';
import { hashToken } from '../src/core/tokens';
import { ViewerDocument } from './generated/graphql';
import { codeOf, gql } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let org: { orgId: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  org = await s.createOrg('logs');
});
afterAll(() => s?.close());

const em = () => s.app.db.orm.em.fork();
/** Runs `fn` with a table renamed away, so that statements on it fail in PostgreSQL. */
async function withoutTable<T>(table: string, fn: () => Promise<T>): Promise<T> {
  await em().execute(`ALTER TABLE ${table} RENAME TO ${table}_gone`);
  try {
    return await fn();
  } finally {
    await em().execute(`ALTER TABLE ${table}_gone RENAME TO ${table}`);
  }
}
const logsOf = (requestId: string) => JSON.stringify(s.logs.filter((l) => l.requestId === requestId));

describe('error logs carry statement text, never values', () => {
  it('logs a failed write as its statement with placeholders, without the content it carried', async () => {
    const secret = 'secret-title-7f3a9c';
    const r = await withoutTable('episodes', () =>
      gql(
        s.url,
        'mutation($input: RecordEpisodeInput!) { recordEpisode(input: $input) { id } }',
        { input: { agentId: 'agent-9d2e', title: secret, metadata: { note: 'private-note-41b7' } } },
        org.token,
        { 'x-request-id': 'req-logsafety-write' },
      ),
    );
    expect(codeOf(r)).toBe('INTERNAL_SERVER_ERROR');
    const line = s.logs.find((l) => l.requestId === 'req-logsafety-write' && l.msg === 'unexpected error') as {
      err: { statement: string; message: string; code: string };
    };
    expect(line.err.statement).toMatch(/insert into/i);
    expect(line.err.statement).toContain('?');
    expect(line.err.message).toBe('relation "episodes" does not exist');
    expect(line.err.code).toBe('42P01');
    const text = logsOf('req-logsafety-write');
    for (const value of [secret, 'private-note-41b7', 'agent-9d2e', org.orgId]) expect(text).not.toContain(value);
  });

  it('never logs a token or its hash, even when authentication fails in the database', async () => {
    // a key never used before, so that it is looked up in the database rather than the key cache
    const key = await s.createKey(org.orgId, 'VIEWER');
    const r = await withoutTable('organizations', () =>
      gql(s.url, ViewerDocument, {}, key.token, { 'x-request-id': 'req-logsafety-auth' }),
    );
    expect(codeOf(r)).toBe('INTERNAL_SERVER_ERROR');
    const text = logsOf('req-logsafety-auth');
    expect(text).toContain('token_hash = ?');
    for (const value of [key.token, key.token.slice(3), hashToken(key.token)]) expect(text).not.toContain(value);
  });

  it('drops the detail of a constraint violation, which quotes the row', async () => {
    const [{ id }] = await em().execute('SELECT id FROM organizations WHERE id = ?', [org.orgId]);
    const err = await em()
      .execute("INSERT INTO organizations (id, name, created_at) VALUES (?, 'dup-name-5c1e', now())", [id])
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(String((err as Error).message)).toContain(id); // what MikroORM and the driver put in the message
    const logged = JSON.stringify(serializeError(err));
    expect(logged).not.toContain(id);
    expect(logged).not.toContain('dup-name-5c1e');
    expect(serializeError(err)).toMatchObject({
      type: 'UniqueConstraintViolationException',
      code: '23505',
      table: 'organizations',
      statement: 'INSERT INTO organizations (id, name, created_at) VALUES (?, ?, now())',
    });
  });

  it('keeps the message of errors that are not from the database', () => {
    expect(serializeError(new Error('the bus is closed'))).toMatchObject({ type: 'Error', message: 'the bus is closed' });
  });
});
