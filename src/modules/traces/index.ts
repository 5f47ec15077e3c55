import { MemoryTrace as MemoryTraceEntity, OrgCreditSettings as OrgCreditSettingsEntity } from './trace.entity';

export const traceEntities = [MemoryTraceEntity, OrgCreditSettingsEntity];
export const traceResolvers = [];
