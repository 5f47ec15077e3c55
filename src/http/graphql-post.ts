import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { type ApolloServer, type BaseContext, HeaderMap, type HTTPGraphQLRequest, type HTTPGraphQLResponse } from '@apollo/server';
import express from 'express';
import { endWithText } from './answer-write';
import { clientAbort } from './body-guard';

/**
 * Whether a request is a POST to `/graphql` whose body is JSON in UTF-8, sent whole with its
 * length (at most `limit` bytes) and no content encoding: the request every GraphQL client sends.
 * Such a request needs nothing of Express's router or body parser; anything else (a chunked or
 * compressed body, another content type or charset, a body over the limit, another path) goes
 * through them.
 */
export function isPlainJsonPost(req: IncomingMessage, limit: number): boolean {
  if (req.method !== 'POST') return false;
  const url = req.url ?? '';
  if (url !== '/graphql' && !url.startsWith('/graphql?')) return false;
  const { headers } = req;
  const length = headers['content-length'];
  if (length === undefined || headers['transfer-encoding'] !== undefined || !(Number(length) <= limit)) return false;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  return isJsonUtf8(headers['content-type']);
}

const JSON_UTF8 = /^application\/json\s*(?:;\s*charset\s*=\s*(?:utf-8|"utf-8")\s*)?$/i;
const isJsonUtf8 = (type: string | undefined) => type !== undefined && JSON_UTF8.test(type);

/** The whole body of a request. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let ended = false;
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      ended = true;
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    });
    req.on('error', reject);
    // a client that goes away mid-body (no error is emitted when the socket was closed on purpose)
    req.on('close', () => ended || reject(clientAbort()));
  });
}

/**
 * The parsed body, as Express's JSON parser reads it (a byte order mark dropped, an empty body
 * read as `{}`, only an object or a list at the top), or undefined when that parser would refuse
 * it: the caller then has the parser itself say why (`bodyRefusal`).
 */
export function parseJsonBody(body: Buffer): unknown {
  let text = body.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length === 0) return {};
  const first = /^[ \t\n\r]*(.)/.exec(text)?.[1];
  if (first !== '{' && first !== '[') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The error Express's JSON parser gives for a body it refuses, found by handing it the same body:
 * malformed requests get the same words on every path, and are too rare to be worth their cost.
 */
export function bodyRefusal(req: IncomingMessage, body: Buffer, limit: number): Promise<{ status?: number; message?: string }> {
  const replay = Object.assign(Readable.from([body]), { headers: req.headers, method: req.method, url: req.url });
  const parse = express.json({ limit });
  return new Promise((resolve) => {
    parse(replay as unknown as express.Request, {} as express.Response, (err?: { status?: number; message?: string }) =>
      resolve(err ?? { status: 400, message: 'bad request' }),
    );
  });
}

/** A Node request and its parsed body, as Apollo Server takes them. */
function graphqlRequest(req: IncomingMessage, body: unknown): HTTPGraphQLRequest {
  const headers = new HeaderMap();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  }
  const url = req.url ?? '';
  const q = url.indexOf('?');
  return { method: (req.method ?? 'GET').toUpperCase(), headers, search: q < 0 ? '' : url.slice(q), body };
}

/** Writes Apollo Server's answer: whole with its length, or piece by piece for incremental delivery. */
async function sendGraphqlResponse(res: ServerResponse, response: HTTPGraphQLResponse, charsPerTurn: number): Promise<void> {
  for (const [key, value] of response.headers) res.setHeader(key, value);
  res.statusCode = response.status ?? 200;
  if (response.body.kind === 'complete') return endWithText(res, response.body.string, charsPerTurn);
  for await (const chunk of response.body.asyncIterator) res.write(chunk);
  res.end();
}

/** Runs one HTTP request through Apollo Server and answers it (a long answer written `charsPerTurn` characters at a time, see ./answer-write.ts). */
export async function serveGraphql<C extends BaseContext>(
  apollo: ApolloServer<C>,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  context: () => Promise<C>,
  charsPerTurn: number,
): Promise<void> {
  const response = await apollo.executeHTTPGraphQLRequest({ httpGraphQLRequest: graphqlRequest(req, body), context });
  await sendGraphqlResponse(res, response, charsPerTurn);
}
