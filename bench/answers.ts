import type { Target } from './load';
import type { Scenario } from './scenarios';

/** How far the two servers' answers to the same requests of one scenario agree. */
export interface Agreement {
  requests: number;
  same: number;
  /** what was compared: every value, or (writes) the shape and types, each of which answers once */
  compared: 'values' | 'shape';
  /** the first difference found, as a path and the two values */
  firstDifference: string | null;
}

// scores computed from the clock (usefulness and recency decay) move between the two requests
const TOLERANCE = 1e-6;

/**
 * The first difference of two answers, or null. Numbers agree within a relative 1e-6; with
 * `shapeOnly`, only keys, array lengths and value types must agree. Objects the raw baseline
 * answers with fewer keys (recall, recallEpisodes: ids and scores only) are compared on its keys.
 */
export function difference(gql: unknown, raw: unknown, shapeOnly: boolean, path = ''): string | null {
  const at = path || '(answer)';
  if (gql === null || raw === null || typeof gql !== 'object' || typeof raw !== 'object') {
    if (typeof gql !== typeof raw || (gql === null) !== (raw === null)) return `${at}: ${JSON.stringify(gql)} vs ${JSON.stringify(raw)}`;
    if (shapeOnly) return null;
    if (typeof gql === 'number' && typeof raw === 'number')
      return Math.abs(gql - raw) <= TOLERANCE * Math.max(1, Math.abs(gql), Math.abs(raw)) ? null : `${at}: ${gql} vs ${raw}`;
    return gql === raw ? null : `${at}: ${JSON.stringify(gql)} vs ${JSON.stringify(raw)}`;
  }
  if (Array.isArray(gql) !== Array.isArray(raw)) return `${at}: list vs not a list`;
  if (Array.isArray(gql) && Array.isArray(raw)) {
    if (gql.length !== raw.length) return `${at}: ${gql.length} items vs ${raw.length}`;
    for (let k = 0; k < gql.length; k++) {
      const d = difference(gql[k], raw[k], shapeOnly, `${path}[${k}]`);
      if (d) return d;
    }
    return null;
  }
  const g = gql as Record<string, unknown>;
  const r = raw as Record<string, unknown>;
  for (const key of Object.keys(r)) {
    if (!(key in g)) return `${path}.${key}: missing in the GraphQL answer`;
    const d = difference(g[key], r[key], shapeOnly, `${path}.${key}`);
    if (d) return d;
  }
  return null;
}

async function answer(t: Target, body: string): Promise<unknown> {
  const res = await fetch(t.url, { method: 'POST', headers: { 'content-type': 'application/json', ...t.headers }, body });
  return ((await res.json()) as { data?: unknown }).data;
}

/**
 * Sends the same requests to both servers and compares the answers: the GraphQL answer's root
 * field against the raw answer. Reads compare every value the raw baseline returns; writes (which
 * create new ids and move counters) compare the shape.
 */
export async function compareAnswers(s: Scenario, targets: Target[], body: (i: number) => string, requests = 5): Promise<Agreement> {
  const gql = targets.find((t) => t.name === 'graphql')!;
  const raw = targets.find((t) => t.name === 'raw')!;
  const n = s.write ? 1 : requests;
  let same = 0;
  let firstDifference: string | null = null;
  for (let i = 0; i < n; i++) {
    const g = (await answer(gql, body(i))) as Record<string, unknown> | undefined;
    const r = await answer(raw, body(i));
    const d = difference(g?.[s.root.field], r, s.write);
    if (d === null) same += 1;
    else firstDifference ??= `request ${i}: ${d}`;
  }
  return { requests: n, same, compared: s.write ? 'shape' : 'values', firstDifference };
}
