import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput, conflict, notFound } from '../../core/errors';
import { isUuid, parseId } from '../../core/ids';
import { type Selectable, sql as raw } from 'kysely';
import type { ApiKeysTable } from '../../db/tables';
import { rows as runRows, sql, templateRows } from '../../db/typed-sql';
import { hashToken, newToken, tokenPrefix } from '../../core/tokens';
import { ApiKey } from './api-key.entity';
import { nameSkeleton, normaliseName } from './names';
import { Organization } from './organization.entity';
import { ROLES, type Role } from './role';

/** Who is calling: the API key and its organization. */
export interface Viewer {
  apiKeyId: string;
  apiKeyName: string;
  orgId: string;
  orgName: string;
  role: Role;
}

export interface CreatedKey {
  apiKey: ApiKey;
  token: string;
}

const MAX_NAME = 200;

function checkName(field: string, name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw badInput(field, `${field} must not be empty`);
  if (trimmed.length > MAX_NAME) throw badInput(field, `${field} must be at most ${MAX_NAME} characters`);
  return trimmed;
}

/**
 * Resolves a token's SHA-256 (`hashToken`) in one statement: its viewer, 'revoked' for a key that
 * was revoked, null for a token no key has. Only the holder of a token learns what became of it.
 */
export async function authenticate(em: EntityManager, tokenHash: string): Promise<Viewer | 'revoked' | null> {
  const rows = await runRows(
    em,
    sql
      .selectFrom('api_keys as k')
      .innerJoin('organizations as o', 'o.id', 'k.org_id')
      .select(['k.id', 'k.name', 'k.role', 'k.org_id', 'o.name as org_name', (eb) => eb('k.revoked_at', 'is not', null).as('revoked')])
      // the lookup by token hash reads `token_hash = ?` in statement logs, which tell authentication from the request's own work
      .where(raw`k.token_hash`, '=', tokenHash),
  );
  const r = rows[0];
  if (!r) return null;
  return r.revoked ? 'revoked' : { apiKeyId: r.id, apiKeyName: r.name, orgId: r.org_id, orgName: r.org_name, role: r.role as Role };
}

/** The role of each key among `keyIds` that is still valid (open WebSockets re-check with this: revocations and role changes). */
export async function validKeyRoles(em: EntityManager, keyIds: string[]): Promise<Map<string, Role>> {
  if (keyIds.length === 0) return new Map();
  // written as a template so that statement logs read `FROM api_keys WHERE id = ANY`, which tells these periodic re-checks apart
  const rows = await templateRows(
    em,
    raw<
      Pick<Selectable<ApiKeysTable>, 'id' | 'role'>
    >`SELECT id, role FROM api_keys WHERE id = ANY(${keyIds}::uuid[]) AND revoked_at IS NULL`,
  );
  return new Map(rows.map((r) => [r.id, r.role as Role]));
}

export async function createApiKey(em: EntityManager, orgId: string, name: string, role: Role, token = newToken()): Promise<CreatedKey> {
  if (!ROLES.includes(role)) throw badInput('role', `role must be one of ${ROLES.join(', ')}`);
  const apiKey = em.create(ApiKey, {
    orgId,
    name: checkName('name', name),
    role,
    tokenHash: hashToken(token),
    tokenPrefix: tokenPrefix(token),
  });
  await em.persistAndFlush(apiKey);
  return { apiKey, token };
}

/**
 * Creates an organization with its ADMIN key. The name is stored NFKC-normalised, and refused
 * (BAD_USER_INPUT) when it holds control, invisible or bidirectional characters. Names are unique
 * by what they look like: a name whose confusable skeleton (./names.ts: case, look-alike letters
 * of other scripts) another organization's name has is refused with CONFLICT (organizations
 * created before that keep theirs; they are told apart by id).
 */
export async function createOrganization(em: EntityManager, name: string, token?: string): Promise<{ org: Organization } & CreatedKey> {
  const checked = normaliseName('name', name);
  const skeleton = nameSkeleton(checked);
  return em.transactional(async (tx) => {
    // concurrent creations of look-alike names queue here; the check below then sees the first
    await runRows(tx, sql.selectNoFrom(raw<unknown>`pg_advisory_xact_lock(hashtext(${'org-name:' + skeleton}))`.as('locked')));
    const named = sql.selectFrom('organizations').select(['id', 'name']).where('name_skeleton', '=', skeleton);
    const [taken] = await runRows(tx, named.limit(1));
    if (taken) {
      const same = taken.name.toLowerCase() === checked.toLowerCase();
      throw conflict(
        same
          ? `an organization named "${checked}" exists already (${taken.id})`
          : `the name "${checked}" looks like the name of an existing organization, "${taken.name}" (${taken.id})`,
        'name',
      );
    }
    const org = tx.create(Organization, { name: checked, nameSkeleton: skeleton });
    tx.persist(org);
    const created = await createApiKey(tx, org.id, 'admin', 'ADMIN', token);
    return { org, ...created };
  });
}

/** The organization a person names by id or by name; a name that several share is refused with their ids. */
export async function findOrganization(em: EntityManager, idOrName: string): Promise<Organization> {
  if (isUuid(idOrName)) return getOrganization(em, idOrName.toLowerCase());
  const named = sql
    .selectFrom('organizations')
    .select('id')
    .where(raw`lower(name)`, '=', raw`lower(${idOrName.trim()})`);
  const rows = await runRows(em, named.orderBy('created_at').orderBy('id'));
  if (rows.length === 0) throw notFound(`organization "${idOrName}"`, 'org');
  if (rows.length > 1)
    throw conflict(`${rows.length} organizations are named "${idOrName}": name one by id (${rows.map((r) => r.id).join(', ')})`, 'org');
  return getOrganization(em, rows[0].id);
}

/** Every organization, oldest first, with its number of API keys that are not revoked. */
export async function listOrganizations(em: EntityManager): Promise<{ id: string; name: string; createdAt: string; activeKeys: number }[]> {
  const query = sql
    .selectFrom('organizations as o')
    .select((eb) => [
      'o.id',
      'o.name',
      'o.created_at',
      eb
        .selectFrom('api_keys as k')
        .select(eb.fn.countAll<string | number>().as('n'))
        .whereRef('k.org_id', '=', 'o.id')
        .where('k.revoked_at', 'is', null)
        .as('active_keys'),
    ]);
  const rows = await runRows(em, query.orderBy('o.created_at').orderBy('o.id'));
  return rows.map((r) => ({ id: r.id, name: r.name, createdAt: new Date(r.created_at).toISOString(), activeKeys: Number(r.active_keys) }));
}

async function getOrganization(em: EntityManager, orgId: string): Promise<Organization> {
  const org = await em.findOne(Organization, { id: orgId });
  if (!org) throw notFound('organization', 'org');
  return org;
}

/** Revokes a key of the caller's organization. Revoking twice keeps the first revocation time. */
export async function revokeApiKey(em: EntityManager, orgId: string, id: string): Promise<ApiKey> {
  const key = await em.findOne(ApiKey, { id: parseId('id', id), orgId });
  if (!key) throw notFound('API key', 'id');
  if (!key.revokedAt) {
    key.revokedAt = new Date();
    await em.flush();
  }
  return key;
}

export async function listApiKeys(em: EntityManager, orgId: string): Promise<ApiKey[]> {
  return em.find(ApiKey, { orgId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}
