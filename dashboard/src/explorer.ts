// The GraphQL explorer served on GET /graphql to browsers: GraphiQL bundled from npm (no CDN, no
// telemetry), with the API key typed into a field that becomes the Authorization header on HTTP
// and connectionParams.authorization on graphql-ws. React is used here only, in its own bundle.
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import 'graphiql/graphiql.css';
import { createClient } from 'graphql-ws';
import type { GraphQLSchema } from 'graphql';
import { createElement as h, useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { graphqlUrl, wsUrl } from './api';
import { fetchSchema } from './introspection';
import { bearer, forgetKey, readKey, storeKey } from './session';
import './explorer.css';

function fetcherFor(key: string) {
  const authorization = key ? { authorization: bearer(key) } : undefined;
  const wsClient = createClient({ url: wsUrl(), lazy: true, connectionParams: () => authorization ?? {} });
  const fetcher = createGraphiQLFetcher({ url: graphqlUrl, headers: authorization, wsClient });
  return { fetcher, wsClient };
}

function Explorer() {
  const [typed, setTyped] = useState(() => readKey() ?? '');
  const [key, setKey] = useState(typed);
  const { fetcher, wsClient } = useMemo(() => fetcherFor(key), [key]);
  useEffect(() => () => void wsClient.dispose(), [wsClient]);
  const [schema, setSchema] = useState<GraphQLSchema | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setSchema(null);
    setProblem(null);
    if (!key) return;
    fetchSchema(key).then(
      (s) => live && setSchema(s),
      (e: Error) => live && setProblem(`schema not loaded: ${e.message}`),
    );
    return () => {
      live = false;
    };
  }, [key]);
  const apply = (e: Event) => {
    e.preventDefault();
    const k = typed.trim();
    if (k) storeKey(k);
    else forgetKey();
    setKey(k);
  };
  return h(
    'div',
    { className: 'explorer' },
    h(
      'form',
      { className: 'keybar', onSubmit: apply as never, autoComplete: 'off' },
      h('strong', null, 'memory-loop explorer'),
      h('label', { htmlFor: 'api-key' }, 'API key'),
      h('input', {
        id: 'api-key',
        type: 'password',
        value: typed,
        placeholder: 'ml_…',
        onChange: (e: { target: HTMLInputElement }) => setTyped(e.target.value),
      }),
      h('button', { type: 'submit' }, 'Use key'),
      h(
        'span',
        { className: problem ? 'hint error' : 'hint', 'data-testid': 'key-state' },
        problem ?? (key ? 'sent as Authorization: Bearer …' : 'no key: requests are refused'),
      ),
      h('a', { href: '/' }, 'Dashboard'),
    ),
    // a new key remounts GraphiQL with the schema read with that key
    h(GraphiQL, { key, fetcher, schema, shouldPersistHeaders: false, isHeadersEditorEnabled: false }),
  );
}

createRoot(document.getElementById('explorer')!).render(h(Explorer));
