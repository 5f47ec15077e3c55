import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from '../config';
import { rows, sql } from '../db/typed-sql';
import { purgeExpiredIdempotencyKeys } from '../core/idempotency';
import { forgetEpisodes, purgeExpiredFeedback } from '../modules/memory';
import type { Logger } from '../core/logger';
import { createApiKey, createOrganization, findOrganization, listOrganizations, ROLES, type Role } from '../modules/orgs';

class UsageError extends Error {
  override name = 'UsageError';
}

type Args = { positional: string[]; flags: Record<string, string> };
export type Command = (em: EntityManager, args: Args, log: Logger) => Promise<Record<string, unknown>>;

/** The CLI commands; each returns the one JSON object printed on stdout. */
export const commands: Record<string, Command> = {
  'create-org': async (em, { positional }) => {
    const name = positional.join(' ').trim();
    if (!name) throw new UsageError('create-org needs a name: npm run -s cli -- create-org <name>');
    const { org, token } = await createOrganization(em, name);
    return { orgId: org.id, token };
  },

  'create-key': async (em, { flags }) => {
    const { org, role, name } = flags;
    if (!org || !role || !name) throw new UsageError('create-key needs --org <name or id> --role <ROLE> --name <name>');
    const upper = role.toUpperCase() as Role;
    if (!ROLES.includes(upper)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
    const orgId = (await findOrganization(em, org)).id;
    const { token } = await createApiKey(em, orgId, name, upper);
    return { orgId, token };
  },

  'list-orgs': async (em) => ({ organizations: await listOrganizations(em) }),

  // retention and forgetting for every organization, with the defaults (for a cron or a scheduler)
  maintain: async (em, _args, log) => {
    const lambda = loadConfig().decayLambda;
    let feedbackDeleted = 0;
    let episodesDeleted = 0;
    const orgs = await rows(em, sql.selectFrom('organizations').select('id').orderBy('id'));
    for (const { id } of orgs) {
      feedbackDeleted += await purgeExpiredFeedback(em, id);
      episodesDeleted += (await forgetEpisodes(em, id, lambda, {})).deleted;
    }
    const idempotencyKeysDeleted = await purgeExpiredIdempotencyKeys(em);
    log.info({ organizations: orgs.length, feedbackDeleted, episodesDeleted, idempotencyKeysDeleted }, 'maintenance done');
    return { organizations: orgs.length, feedbackDeleted, episodesDeleted, idempotencyKeysDeleted };
  },
};
