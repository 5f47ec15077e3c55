import { OrgQuota, OrgUsage } from './usage.entity';
import { UsageResolver } from './usage.resolver';

export const usageEntities = [OrgUsage, OrgQuota];
export const usageResolvers = [UsageResolver];

export { largestOrganizations, setOrgQuota, storageUsage, writeDefaultQuotas } from './usage.service';
