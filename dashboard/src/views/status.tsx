import type { Loaded } from '../hooks';

/** loading and error lines of a query */
export function Status({ q }: { q: Loaded<unknown> }) {
  if (q.error)
    return (
      <p class="error" role="alert">
        {q.error}
      </p>
    );
  return q.loading ? <p class="loading">Loading…</p> : null;
}
