import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors';
import { text } from '../../core/validate';
import type { CandidateCache } from './candidates.cache';
import { candidates } from './candidates.read';
import type { MemoryContextInput } from './memory.type';
import { MemoryContext } from './memory.type';
import { POLICIES, selectMemories } from './policies';

/**
 * Context for an agent within a token budget: candidates are the earliest 3 and the most recent
 * segments of its episodes (cached with their words split, see candidates.read.ts), chosen by the
 * policy in chronological order.
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

  const list = await candidates(em, cache, { orgId, agentId: input.agentId, sessionId: input.sessionId || null, maxCandidates: max });
  const entries = selectMemories(policy, list.entries, input.query, input.tokenBudget, list);
  return Object.assign(new MemoryContext(), {
    entries,
    tokenEstimate: entries.reduce((n, e) => n + e.tokenEstimate, 0),
    policy,
    candidatesConsidered: list.entries.length,
    memoriesSelected: entries.length,
  });
}
