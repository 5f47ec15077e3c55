import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors';
import { text } from '../../core/validate';
import type { MemoryContextInput } from './memory.type';
import { MemoryContext, MemoryEntry } from './memory.type';
import { POLICIES, selectMemories } from './policies';

/**
 * Context for an agent within a token budget: candidates are the earliest 3 and the most recent
 * segments of its episodes (one statement), chosen by the policy in chronological order.
 */
export async function memoryContext(em: EntityManager, orgId: string, input: MemoryContextInput): Promise<MemoryContext> {
  text('input.agentId', input.agentId, 200, { required: true });
  text('input.sessionId', input.sessionId, 200);
  text('input.query', input.query, 10_000);
  if (!Number.isInteger(input.tokenBudget) || input.tokenBudget < 1 || input.tokenBudget > 1_000_000) throw badInput('input.tokenBudget', 'tokenBudget must be 1..1,000,000');
  const policy = input.mode ?? 'FOVEATED';
  if (!POLICIES.includes(policy)) throw badInput('input.mode', `mode must be one of ${POLICIES.join(', ')}`);
  const max = input.maxCandidates ?? 2000;
  if (!Number.isInteger(max) || max < 3 || max > 10_000) throw badInput('input.maxCandidates', 'maxCandidates must be 3..10,000');

  const params: unknown[] = [orgId, input.agentId];
  if (input.sessionId) params.push(input.sessionId);
  const rows = await em.execute<{ id: string; episode_id: string; role: string; content: string; created_at: Date; token_estimate: number }[]>(
    `WITH s AS (
       SELECT g.id, g.episode_id, g.role, g.content, g.created_at, g.token_estimate, g.seq, e.created_at AS episode_created_at
         FROM episodes e JOIN episode_segments g ON g.org_id = e.org_id AND g.episode_id = e.id
        WHERE e.org_id = ? AND e.agent_id = ? ${input.sessionId ? 'AND e.session_id = ?' : ''})
     SELECT * FROM (
       (SELECT * FROM s ORDER BY created_at, episode_created_at, seq LIMIT 3)
       UNION
       (SELECT * FROM s ORDER BY created_at DESC, episode_created_at DESC, seq DESC LIMIT ${max - 3})) c
     ORDER BY created_at, episode_created_at, seq`,
    params,
  );
  const candidates = rows.map((r) =>
    Object.assign(new MemoryEntry(), { id: r.id, episodeId: r.episode_id, role: r.role, content: r.content, createdAt: new Date(r.created_at), tokenEstimate: Number(r.token_estimate) }),
  );
  const entries = selectMemories(policy, candidates, input.query, input.tokenBudget);
  return Object.assign(new MemoryContext(), {
    entries,
    tokenEstimate: entries.reduce((n, e) => n + e.tokenEstimate, 0),
    policy,
    candidatesConsidered: candidates.length,
    memoriesSelected: entries.length,
  });
}
