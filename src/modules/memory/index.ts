import { LifecycleResolver } from './lifecycle.resolver';
import { MemoryResolver } from './memory.resolver';

export const memoryEntities = [] as const;
export const memoryResolvers = [MemoryResolver, LifecycleResolver];

export { CandidateCache } from './candidates.cache';
export { forgetEpisodes, purgeExpiredFeedback } from './lifecycle.service';

export { candidateBindings, candidatesColumn } from './candidates.read';
export type { CandidateRow } from './candidates';
export { selectMemories } from './policies';
