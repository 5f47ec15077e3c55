import { Entity, Index, type Opt, Property, Unique } from '@mikro-orm/core';
import { OrgOwned } from '../../db/base.entity';
import type { Role } from './role';

/** An API key. Only the SHA-256 of its token is stored; the token itself is shown once. */
@Entity({ tableName: 'api_keys' })
@Index({ properties: ['orgId', 'createdAt'] })
export class ApiKey extends OrgOwned {
  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  role!: Role;

  @Unique()
  @Property({ type: 'text' })
  tokenHash!: string;

  /** the first characters of the token, so people can tell keys apart */
  @Property({ type: 'text' })
  tokenPrefix!: string;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt: Opt<Date> | null = null;
}
