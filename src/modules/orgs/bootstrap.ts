import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { rows, sql } from '../../db/typed-sql';
import { createOrganization } from './orgs.service';

export interface FirstStart {
  orgId: string;
  orgName: string;
  /** set only when a token was generated here and must be shown to the operator */
  generatedToken?: string;
}

/**
 * On a database with no organization: create the one named by INIT_ORG_NAME with the ADMIN token
 * INIT_ADMIN_TOKEN, or (embedded mode) org `default` with a fresh token. Instances starting at
 * once serialise on an advisory lock, so exactly one creates it.
 */
export async function ensureFirstOrganization(
  em: EntityManager,
  init: { orgName: string | null; adminToken: string | null; embedded: boolean },
): Promise<FirstStart | null> {
  if (!init.orgName && !init.embedded) return null;
  return em.transactional(async (tx) => {
    await rows(tx, sql.selectNoFrom(raw<unknown>`pg_advisory_xact_lock(hashtext('memory-loop:first-start'))`.as('locked')));
    const [{ n }] = await rows(tx, sql.selectFrom('organizations').select(raw<number>`count(*)::int`.as('n')));
    if (n > 0) return null;
    if (init.orgName && init.adminToken) {
      const { org } = await createOrganization(tx, init.orgName, init.adminToken);
      return { orgId: org.id, orgName: org.name };
    }
    const { org, token } = await createOrganization(tx, 'default');
    return { orgId: org.id, orgName: org.name, generatedToken: token };
  });
}
