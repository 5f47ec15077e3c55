import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from '../config';
import { rows, sql } from '../db/typed-sql';
import { purgeExpiredIdempotencyKeys } from '../core/idempotency';
import { forgetEpisodes, purgeExpiredFeedback } from '../modules/memory';
import type { Logger } from '../core/logger';
import { createApiKey, createOrganization, findOrganization, listOrganizations, ROLES, type Role } from '../modules/orgs';
import { memoryToolsProblem, setMemoryTools } from '../modules/otlp';
import { setCreditSettings, type CreditSettingsChange, creditSettingsProblem } from '../modules/traces';
import { setOrgQuota, storageUsage } from '../modules/usage';

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

  // an organization's own storage quotas, instead of QUOTA_ROWS / QUOTA_BYTES ("default" goes back to them)
  'set-quota': async (em, { flags }) => {
    if (!flags.org || (flags.rows === undefined && flags.bytes === undefined)) {
      throw new UsageError('set-quota needs --org <name or id> and --rows <n|default> and/or --bytes <n|default>');
    }
    const amount = (flag: string, value: string | undefined): number | null | undefined => {
      if (value === undefined) return undefined;
      if (value === 'default') return null;
      if (!/^\d{1,15}$/.test(value)) throw new UsageError(`--${flag} must be a whole number or "default"`);
      return Number(value);
    };
    const quota = { rows: amount('rows', flags.rows), bytes: amount('bytes', flags.bytes) };
    const orgId = (await findOrganization(em, flags.org)).id;
    await setOrgQuota(em, orgId, quota);
    const { quotaRows, quotaBytes, total } = await storageUsage(em, orgId);
    return { orgId, quotaRows, quotaBytes, usage: total };
  },

  // an organization's credit settings (see docs/algorithms.md, "Credit"); "default" goes back to the default
  'set-credit': async (em, { flags }) => {
    const names = {
      enabled: 'enabled',
      used: 'usedConfidence',
      ignored: 'ignoredConfidence',
      feedback: 'feedbackConfidence',
      'max-facts': 'maxFactsPerEvent',
    } as const;
    if (!flags.org || !Object.keys(names).some((k) => flags[k] !== undefined)) {
      throw new UsageError(
        'set-credit needs --org <name or id> and one or more of --enabled <true|false|default> --used <0..1|default> --ignored <0..1|default> --feedback <0..1|default> --max-facts <1..500|default>',
      );
    }
    const change: CreditSettingsChange = {};
    for (const [flag, key] of Object.entries(names)) {
      const v = flags[flag];
      if (v === undefined) continue;
      if (v === 'default') change[key] = null;
      else if (key === 'enabled') {
        if (v !== 'true' && v !== 'false') throw new UsageError('--enabled must be true, false or "default"');
        change.enabled = v === 'true';
      } else {
        const x = Number(v);
        if (v.trim() === '' || !Number.isFinite(x)) throw new UsageError(`--${flag} must be a number or "default"`);
        change[key] = x;
      }
    }
    const problem = creditSettingsProblem(change);
    if (problem) throw new UsageError(problem);
    const orgId = (await findOrganization(em, flags.org)).id;
    return { orgId, credit: await setCreditSettings(em, orgId, change) };
  },

  // the tools an organization's agents use as their memory, for OTLP traces (see the README's "OpenTelemetry traces")
  'set-memory-tools': async (em, { flags }) => {
    if (!flags.org || flags.tools === undefined)
      throw new UsageError('set-memory-tools needs --org <name or id> and --tools <name,name,...> (or --tools none)');
    const tools =
      flags.tools.trim() === 'none'
        ? []
        : flags.tools
            .split(',')
            .map((t) => t.trim())
            .filter((t) => t !== '');
    if (tools.length === 0 && flags.tools.trim() !== 'none') throw new UsageError('--tools needs one or more names, or "none"');
    const problem = memoryToolsProblem(tools);
    if (problem) throw new UsageError(problem);
    const orgId = (await findOrganization(em, flags.org)).id;
    return { orgId, memoryTools: await setMemoryTools(em, orgId, tools) };
  },

  usage: async (em, { flags }) => {
    if (!flags.org) throw new UsageError('usage needs --org <name or id>');
    const orgId = (await findOrganization(em, flags.org)).id;
    return { orgId, ...(await storageUsage(em, orgId)) };
  },

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
