import { ApiKey as ApiKeyEntity } from './api-key.entity';
import { Organization as OrganizationEntity } from './organization.entity';
import { OrgsResolver } from './orgs.resolver';

export const orgEntities = [OrganizationEntity, ApiKeyEntity];
export const orgResolvers = [OrgsResolver] as const;

export { ensureFirstOrganization, type FirstStart } from './bootstrap';
export { KeyCache } from './key-cache';
export {
  authenticate,
  createApiKey,
  createOrganization,
  findOrganization,
  listOrganizations,
  validKeyRoles,
  type Viewer,
} from './orgs.service';
export { CAN, ROLES, type Role } from './role';
