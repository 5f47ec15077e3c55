import type { NonEmptyArray } from 'type-graphql';
import { IdempotencyKey } from '../core/idempotency.entity';
import { ApiKey } from './orgs/api-key.entity';
import { Organization } from './orgs/organization.entity';
import { OrgsResolver } from './orgs/orgs.resolver';
import { HeartbeatResolver } from './system/heartbeat.resolver';

/** Every entity the ORM knows; each module adds its own here. */
export const entities: Function[] = [Organization, ApiKey, IdempotencyKey];

/** Every resolver of the schema; each module adds its own here. */
export const resolvers: NonEmptyArray<Function> = [OrgsResolver, HeartbeatResolver];
