import { GraphQLError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/core/errors';
import { createLogger } from '../src/core/logger';
import { fieldOf, formatGraphQLError } from '../src/graphql/errors';
import { ViewerDocument } from './generated/graphql';
import { codeOf, gql, gqlOk } from './helpers/client';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
let token: string;

beforeAll(async () => {
  s = await startTestServer();
  token = (await s.createOrg()).token;
});
afterAll(() => s?.close());

describe('error masking', () => {
  it('masks an unexpected failure with a generic message and a request id, and logs the details', async () => {
    const em = s.app.db.orm.em.fork();
    await em.execute('ALTER TABLE organizations RENAME TO organizations_gone');
    try {
      const r = await gql(s.url, ViewerDocument, {}, token, { 'x-request-id': 'req-masking-0001' });
      expect(codeOf(r)).toBe('INTERNAL_SERVER_ERROR');
      expect(r.errors?.[0].extensions?.requestId).toBe('req-masking-0001');
      expect(r.errors?.[0].message).toBe('Unexpected error; quote request id req-masking-0001 when reporting it');
      expect(JSON.stringify(r)).not.toMatch(/organizations|relation|select/i);
      const logged = s.logs.find((l) => l.requestId === 'req-masking-0001' && l.msg === 'unexpected error');
      expect(JSON.stringify(logged)).toContain('organizations');
    } finally {
      await em.execute('ALTER TABLE organizations_gone RENAME TO organizations');
    }
    expect((await gqlOk(s.url, ViewerDocument, {}, token)).viewer.role).toBe('ADMIN');
  });

  it('writes one JSON log line per request with its request id', async () => {
    await gql(s.url, ViewerDocument, {}, token, { 'x-request-id': 'req-logline-0001' });
    const lines = s.logs.filter((l) => l.requestId === 'req-logline-0001' && l.msg === 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: 'POST', path: '/graphql', status: 200, operation: 'Viewer', level: 'info' });
    expect(lines[0].code).toBeUndefined();
  });

  it("logs a request's error code, at warn for a caller's mistake and at error for a server fault", async () => {
    const lineOf = (id: string) => s.logs.find((l) => l.requestId === id && l.msg === 'request');
    const viewerKey = await s.createKey((await gqlOk(s.url, ViewerDocument, {}, token)).viewer.orgId, 'VIEWER');
    const forbidden = await gql(s.url, 'mutation { createApiKey(name: "x", role: ADMIN) { token } }', {}, viewerKey.token, {
      'x-request-id': 'req-logline-forbidden',
    });
    expect([forbidden.status, codeOf(forbidden)]).toEqual([200, 'FORBIDDEN']);
    expect(lineOf('req-logline-forbidden')).toMatchObject({ level: 'warn', status: 200, code: 'FORBIDDEN' });

    await gql(s.url, ViewerDocument, {}, 'ml_not-a-key', { 'x-request-id': 'req-logline-unauth' });
    expect(lineOf('req-logline-unauth')).toMatchObject({ level: 'warn', status: 401, code: 'UNAUTHENTICATED' });

    const malformed = await fetch(s.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-request-id': 'req-logline-badjson' },
      body: '{"query": ',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(lineOf('req-logline-badjson')).toMatchObject({ level: 'warn', status: 400, code: 'BAD_REQUEST' });

    const em = s.app.db.orm.em.fork();
    await em.execute('ALTER TABLE episodes RENAME TO episodes_gone');
    try {
      const r = await gql(s.url, '{ episodes(first: 1) { edges { node { id } } } }', {}, token, { 'x-request-id': 'req-logline-fault' });
      expect(codeOf(r)).toBe('INTERNAL_SERVER_ERROR');
    } finally {
      await em.execute('ALTER TABLE episodes_gone RENAME TO episodes');
    }
    expect(lineOf('req-logline-fault')).toMatchObject({ level: 'error', status: 200, code: 'INTERNAL_SERVER_ERROR' });
  });
});

describe('formatGraphQLError', () => {
  const opts = { production: true, log: createLogger('silent') };

  it('keeps the code and field of an AppError', () => {
    const f = formatGraphQLError(
      new GraphQLError('x', { originalError: new AppError('BAD_USER_INPUT', 'rating must be 1..5', 'input.rating') }),
      opts,
      'r1',
    );
    expect(f).toMatchObject({
      message: 'rating must be 1..5',
      extensions: { code: 'BAD_USER_INPUT', field: 'input.rating', requestId: 'r1' },
    });
  });

  it('names the input path of a variable coercion error', () => {
    expect(fieldOf('Variable "$input" got invalid value 7 at "input.rating"; Int cannot represent')).toBe('input.rating');
    expect(fieldOf('Variable "$first" of required type "Int!" was not provided.')).toBe('first');
  });

  it('drops field suggestions in production', () => {
    const f = formatGraphQLError(new GraphQLError('Cannot query field "orgIdd" on type "Viewer". Did you mean "orgId"?'), opts, 'r2');
    expect(f.message).toBe('Cannot query field "orgIdd" on type "Viewer".');
    expect(f.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('masks an error thrown inside a resolver', () => {
    const f = formatGraphQLError(
      new GraphQLError('db password is hunter2', { path: ['viewer'], originalError: new Error('db password is hunter2') }),
      opts,
      'r3',
    );
    expect(f.message).not.toContain('hunter2');
    expect(f.extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR', requestId: 'r3' });
  });
});
