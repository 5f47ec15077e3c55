import { useLayoutEffect, useState } from 'preact/hooks';
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { request } from './api';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload(): void;
}

/** Runs `load` whenever `deps` change; the result of a superseded run is dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], skip = false): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean }>({
    data: null,
    error: null,
    loading: !skip,
  });
  const [tick, setTick] = useState(0);
  // started as the view is drawn, not a frame later (an effect waits for the next animation frame)
  useLayoutEffect(() => {
    if (skip) return;
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    load().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (e: Error) => live && setState({ data: null, error: e.message, loading: false }),
    );
    return () => {
      live = false;
    };
    // runs again only when a listed value changes: `load` is a new closure on every render
  }, [...deps, tick, skip]);
  return { ...state, reload: () => setTick((t) => t + 1) };
}

/** Runs a query with the signed-in key whenever `variables` change (compared as JSON). */
export function useQuery<T, V>(key: string, doc: DocumentTypeDecoration<T, V>, variables: V, skip = false): Loaded<T> {
  return useLoad(() => request(key, doc, variables), [key, doc, JSON.stringify(variables ?? null)], skip);
}
