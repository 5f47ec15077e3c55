import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors';
import { text } from '../../core/validate';
import { words } from '../shared';
import type { CandidateList } from './candidates';
import type { CandidateCache, CandidateKey } from './candidates.cache';
import { candidates } from './candidates.read';
import { readTexts, STALE, wideOverlaps } from './candidates.wide';
import type { MemoryContextInput, MemoryEntry } from './memory.type';
import { LeftOutMemory, LeftOutReason, MemoryContext } from './memory.type';
import { type Policy, POLICIES, type Prepared, type Selection, selectPositions, type Zone } from './policies';

/** Reads of the candidates one request may make when segments are deleted under it. */
const ATTEMPTS = 3;

/**
 * Context for an agent within a token budget: candidates are the earliest 3 and the most recent
 * segments of its episodes (cached with their words split, see candidates.read.ts), chosen by the
 * policy in chronological order. A long segment is chosen on its stored words and token estimate,
 * and only a chosen one's text is read (see candidates.wide.ts).
 */
export async function memoryContext(
  em: EntityManager,
  orgId: string,
  input: MemoryContextInput,
  cache: CandidateCache,
): Promise<MemoryContext> {
  text('input.agentId', input.agentId, 200, { required: true });
  text('input.sessionId', input.sessionId, 200);
  text('input.query', input.query, 10_000);
  if (!Number.isInteger(input.tokenBudget) || input.tokenBudget < 1 || input.tokenBudget > 1_000_000)
    throw badInput('input.tokenBudget', 'tokenBudget must be 1..1,000,000');
  const policy = input.mode ?? 'FOVEATED';
  if (!POLICIES.includes(policy)) throw badInput('input.mode', `mode must be one of ${POLICIES.join(', ')}`);
  const max = input.maxCandidates ?? 2000;
  if (!Number.isInteger(max) || max < 3 || max > 10_000) throw badInput('input.maxCandidates', 'maxCandidates must be 3..10,000');

  const k: CandidateKey = { orgId, agentId: input.agentId, sessionId: input.sessionId || null, maxCandidates: max };
  for (let attempt = 1; ; attempt++) {
    const context = await select(em, cache, k, policy, input, attempt > 1);
    // a segment deleted between the statements: answer from a fresh read, as if the request came after
    if (context !== STALE) return context;
    if (attempt === ATTEMPTS) throw new Error('memoryContext: segments kept changing under the request');
  }
}

async function select(
  em: EntityManager,
  cache: CandidateCache,
  k: CandidateKey,
  policy: Policy,
  input: MemoryContextInput,
  reread: boolean,
): Promise<MemoryContext | typeof STALE> {
  const list = await candidates(em, cache, k, reread);
  const { query, tokenBudget } = input;
  // RECENT and an empty query never rank by relevance
  const wide = query && policy !== 'RECENT' ? await wideOverlaps(em, k.orgId, list, words(query)) : null;
  if (wide === STALE) return STALE;
  const prepared = wide ? { tokens: list.tokens, least: list.least, relevance: (q: string) => list.relevanceWith(q, wide) } : list;
  const selection = selectPositions(policy, list.entries.length, query, tokenBudget, prepared);
  const selected = selection.picked.map((i) => list.entries[i]);
  const grown = await readTexts(em, k.orgId, list, selected);
  if (grown === STALE) return STALE;
  cache.grew(k, list, grown);
  const entries = explained(list.entries, selection);
  return Object.assign(new MemoryContext(), {
    entries,
    tokenEstimate: entries.reduce((n, e) => n + e.tokenEstimate, 0),
    policy,
    candidatesConsidered: list.entries.length,
    memoriesSelected: entries.length,
    leftOutOf: (limit: number) => leftOut(em, cache, k, list, { policy, query, budget: tokenBudget, prepared, selection }, limit),
  });
}

/** The selected entries (cached objects, shared) as copies with the zone that chose each and its relevance. */
function explained(candidates: MemoryEntry[], s: Selection): MemoryEntry[] {
  const zoneOf = new Map<number, Zone>();
  for (const z of s.zones) for (const i of z.chosen) if (!zoneOf.has(i)) zoneOf.set(i, z.zone);
  return s.picked.map((i) => ({ ...candidates[i], zone: zoneOf.get(i), relevance: s.relevance ? s.relevance[i] : null }));
}

interface Ran {
  policy: Policy;
  query: string | null | undefined;
  budget: number;
  prepared: Prepared;
  selection: Selection;
}

/**
 * The candidates a selection left out, at most `limit`, the most relevant first when the policy
 * ranked by relevance, else (and on ties) the newest first, each with why: the selection is walked
 * again noting every candidate a zone reached but could not fit. Texts not read yet are read.
 */
async function leftOut(em: EntityManager, cache: CandidateCache, k: CandidateKey, list: CandidateList, r: Ran, limit: number) {
  if (!Number.isInteger(limit) || limit < 0 || limit > 100) throw badInput('limit', 'limit must be 0..100');
  const n = list.entries.length;
  const missed = new Map<number, { zone: Zone; left: number }>();
  selectPositions(r.policy, n, r.query, r.budget, r.prepared, (zone, i, left) => {
    if (!missed.has(i)) missed.set(i, { zone, left });
  });
  const picked = new Set(r.selection.picked);
  const zoneOf = new Map<number, Zone>();
  for (const z of r.selection.zones) for (const i of z.chosen) if (!zoneOf.has(i)) zoneOf.set(i, z.zone);
  const rel = r.selection.relevance;
  const out: number[] = [];
  for (let i = n - 1; i >= 0; i--) if (!picked.has(i)) out.push(i);
  if (rel) out.sort((a, b) => rel[b] - rel[a] || b - a);
  const shown = out.slice(0, limit);
  const grown = await readTexts(
    em,
    k.orgId,
    list,
    shown.map((i) => list.entries[i]),
  );
  if (grown !== STALE) cache.grew(k, list, grown);
  return shown.map((i) => {
    const e = list.entries[i];
    const merged = zoneOf.get(i);
    const miss = missed.get(i);
    return Object.assign(new LeftOutMemory(), {
      id: e.id,
      episodeId: e.episodeId,
      role: e.role,
      content: e.content ?? null,
      createdAt: e.createdAt,
      tokenEstimate: e.tokenEstimate,
      relevance: rel ? rel[i] : null,
      reason: merged ? LeftOutReason.MERGED_OUT : miss ? LeftOutReason.DID_NOT_FIT : LeftOutReason.RANKED_BELOW,
      zone: merged ?? miss?.zone ?? null,
      tokensLeft: !merged && miss ? miss.left : null,
    });
  });
}
