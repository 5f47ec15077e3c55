import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { bearer } from './session';

export const graphqlUrl = '/graphql';
export const wsUrl = (): string => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;

/** A refused or failed operation, with the server's own words. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

type Op<T, V> = DocumentTypeDecoration<T, V> & { toString(): string };

/** One operation over HTTP with the signed-in key; throws ApiError on any error. */
export async function request<T, V>(key: string, doc: Op<T, V>, variables?: V): Promise<T> {
  let res: Response;
  try {
    res = await fetch(graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: bearer(key) },
      body: JSON.stringify({ query: doc.toString(), variables }),
    });
  } catch {
    throw new ApiError('the server cannot be reached', 0);
  }
  const body = (await res.json().catch(() => ({}))) as { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };
  const first = body.errors?.[0];
  if (first || !body.data) throw new ApiError(first?.message ?? `HTTP ${res.status}`, res.status, first?.extensions?.code);
  return body.data;
}
