import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors';
import { text } from '../../core/validate';
import { words } from '../shared';
import type { CandidateCache, CandidateKey } from './candidates.cache';
import { candidates } from './candidates.read';
import { readTexts, STALE, wideOverlaps } from './candidates.wide';
import type { MemoryContextInput } from './memory.type';
import { MemoryContext } from './memory.type';
import { type Policy, POLICIES, selectMemories } from './policies';

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
  const zones: string[] = [];
  const entries = selectMemories(policy, list.entries, query, tokenBudget, prepared, zones);
  const grown = await readTexts(em, k.orgId, list, entries);
  if (grown === STALE) return STALE;
  cache.grew(k, list, grown);
  return Object.assign(new MemoryContext(), {
    entries,
    tokenEstimate: entries.reduce((n, e) => n + e.tokenEstimate, 0),
    policy,
    candidatesConsidered: list.entries.length,
    memoriesSelected: entries.length,
    zones,
  });
}
