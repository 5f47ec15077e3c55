import { CreditResolver } from './credit.resolver';
import { TraceCreditResolver } from './trace.credit.resolver';
import { TraceEpisodeResolver } from './trace.episode.resolver';
import { MemoryTrace as MemoryTraceEntity, OrgCreditSettings as OrgCreditSettingsEntity } from './trace.entity';

export const traceEntities = [MemoryTraceEntity, OrgCreditSettingsEntity];
export const traceResolvers = [TraceEpisodeResolver, TraceCreditResolver, CreditResolver];

export { creditEpisode, creditSignals } from './credit.service';
export { CREDIT_DEFAULTS, creditingCost, type CreditSettingsChange, creditSettingsProblem, setCreditSettings } from './credit-settings';
