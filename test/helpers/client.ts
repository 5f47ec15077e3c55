import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { type GraphQLFormattedError, print } from 'graphql';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

export interface GqlResult<T> {
  status: number;
  data?: T | null;
  errors?: GraphQLFormattedError[];
}

type Doc<T, V> = TypedDocumentNode<T, V> | string;

const text = (doc: TypedDocumentNode<any, any> | string) => (typeof doc === 'string' ? doc : print(doc));

/** One GraphQL operation over HTTP. */
export async function gql<T, V>(
  url: string,
  doc: Doc<T, V>,
  variables?: V,
  token?: string | null,
  headers: Record<string, string> = {},
): Promise<GqlResult<T>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify({ query: text(doc), variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: GraphQLFormattedError[] };
  return { status: res.status, ...body };
}

/** Like `gql`, but fails the test on any error and returns the data. */
export async function gqlOk<T, V>(url: string, doc: Doc<T, V>, variables: V, token: string): Promise<T> {
  const r = await gql(url, doc, variables, token);
  if (r.errors?.length || !r.data) throw new Error(`GraphQL errors: ${JSON.stringify(r.errors)}`);
  return r.data;
}

export const codeOf = (r: { errors?: readonly GraphQLFormattedError[] }) => r.errors?.[0]?.extensions?.code;
export const fieldOf = (r: { errors?: readonly GraphQLFormattedError[] }) => r.errors?.[0]?.extensions?.field;

/** A graphql-ws client that does not retry, with the close event it ended with. */
export function wsClient(
  wsUrl: string,
  token: string | null,
  extra: Partial<Parameters<typeof createClient>[0]> = {},
): Client & { closed: Promise<{ code: number; reason: string }> } {
  let onClosed!: (e: { code: number; reason: string }) => void;
  const closed = new Promise<{ code: number; reason: string }>((r) => (onClosed = r));
  const client = createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    on: { closed: (e) => onClosed({ code: (e as { code: number }).code, reason: String((e as { reason: unknown }).reason) }) },
    onNonLazyError: () => {},
    ...extra,
  });
  return Object.assign(client, { closed });
}

/** Runs one query or mutation over WebSocket. */
export function wsOnce<T, V>(
  client: Client,
  doc: Doc<T, V>,
  variables?: V,
): Promise<{ data?: T | null; errors?: readonly GraphQLFormattedError[] }> {
  return new Promise((resolve) => {
    let result: { data?: T | null; errors?: readonly GraphQLFormattedError[] } = {};
    client.subscribe<T>(
      { query: text(doc), variables: variables as Record<string, unknown> },
      {
        next: (v) => (result = v as typeof result),
        error: (e) => resolve({ errors: Array.isArray(e) ? e : [{ message: String((e as Error)?.message ?? e) }] }),
        complete: () => resolve(result),
      },
    );
  });
}

/** Collects the events of a subscription until stopped. */
export function wsSubscribe<T, V>(client: Client, doc: Doc<T, V>, variables?: V) {
  const events: { data?: T | null; errors?: readonly GraphQLFormattedError[] }[] = [];
  const errors: unknown[] = [];
  let waiters: (() => void)[] = [];
  const dispose = client.subscribe<T>(
    { query: text(doc), variables: variables as Record<string, unknown> },
    {
      next: (v) => {
        events.push(v);
        waiters.forEach((w) => w());
      },
      error: (e) => {
        errors.push(e);
        waiters.forEach((w) => w());
      },
      complete: () => {},
    },
  );
  return {
    events,
    errors,
    dispose,
    /** resolves once `n` events (or an error) arrived, or after `ms` */
    waitFor: (n: number, ms = 10_000) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        const check = () => {
          if (events.length >= n || errors.length > 0) {
            clearTimeout(timer);
            waiters = waiters.filter((w) => w !== check);
            resolve();
          }
        };
        waiters.push(check);
        check();
      }),
  };
}
