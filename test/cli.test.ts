import { execFile } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../src/modules/orgs/orgs.service';
import { initOrm } from '../src/db/orm';
import { entities } from '../src/modules';
import { projectRoot } from '../src/db/paths';
import { runCli } from './helpers/process';
import { cloneDatabase } from './helpers/db';

let env: Record<string, string>;
beforeAll(async () => {
  env = { DATABASE_URL: await cloneDatabase(), MIGRATE_ON_START: 'false' };
});

/** The command exactly as the README documents it: through npm, with `-s`. */
function npmCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '-s', 'cli', '--', ...args], { cwd: projectRoot, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
const json = (stdout: string) => {
  const lines = stdout.split('\n').filter((l) => l !== '');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
};

describe('the CLI', () => {
  it('prints one JSON line and nothing else on stdout when run as the README says (npm run -s cli)', async () => {
    const r = await npmCli(['create-org', 'Piped']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\{.*\}\n$/);
    expect(json(r.stdout)).toEqual({ orgId: expect.any(String), token: expect.stringMatching(/^ml_/) });
  });

  it('prints its help on stdout with exit code 0 for help and --help; an unknown command exits 2', async () => {
    for (const arg of ['help', '--help']) {
      const r = await runCli([arg], env);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('list-orgs');
      expect(r.stdout).toContain('create-key --org <name or id>');
    }
    const bad = await runCli(['create-orgs', 'x'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown command "create-orgs"');
    expect(bad.stdout).toBe('');
  });

  it('lists organizations with their active keys, and makes a key for an organization named by name or id', async () => {
    const created = json((await runCli(['create-org', 'Listed Co'], env)).stdout);
    const byName = await runCli(['create-key', '--org', 'listed co', '--role', 'agent', '--name', 'runtime'], env);
    expect(byName.code).toBe(0);
    expect(json(byName.stdout)).toEqual({ orgId: created.orgId, token: expect.stringMatching(/^ml_/) });
    const byId = await runCli(['create-key', '--org', created.orgId, '--role', 'VIEWER', '--name', 'dash'], env);
    expect(json(byId.stdout).orgId).toBe(created.orgId);
    const listed = json((await runCli(['list-orgs'], env)).stdout) as {
      organizations: { id: string; name: string; activeKeys: number; createdAt: string }[];
    };
    expect(listed.organizations.find((o) => o.id === created.orgId)).toEqual({
      id: created.orgId,
      name: 'Listed Co',
      activeKeys: 3,
      createdAt: expect.any(String),
    });
  });

  it('refuses a second organization of the same name (any case) with a clear error and exit code 2', async () => {
    expect((await runCli(['create-org', 'Unique Ltd'], env)).code).toBe(0);
    const again = await runCli(['create-org', 'UNIQUE ltd'], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/an organization named "UNIQUE ltd" exists already/);
    expect(again.stdout).toBe('');
    const listed = json((await runCli(['list-orgs'], env)).stdout) as { organizations: { name: string }[] };
    expect(listed.organizations.filter((o) => o.name.toLowerCase() === 'unique ltd')).toHaveLength(1);
  });

  it('creates one organization when the same name is asked for at once', async () => {
    const orm = await initOrm({ clientUrl: env.DATABASE_URL, entities });
    try {
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => createOrganization(orm.em.fork(), 'Raced')));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect((r.reason as { code?: string }).code).toBe('CONFLICT');
    } finally {
      await orm.close();
    }
  });

  it('keeps organizations that already share a name working: a name that several share asks for the id', async () => {
    const first = json((await runCli(['create-org', 'Twin'], env)).stdout);
    // a duplicate from before names were unique
    const orm = await initOrm({ clientUrl: env.DATABASE_URL, entities });
    let twin: string;
    try {
      [{ id: twin }] = await orm.em
        .fork()
        .execute<{ id: string }[]>(
          "INSERT INTO organizations (id, name, created_at) VALUES (gen_random_uuid(), 'twin', now()) RETURNING id",
        );
    } finally {
      await orm.close();
    }
    const ambiguous = await runCli(['create-key', '--org', 'Twin', '--role', 'ADMIN', '--name', 'again'], env);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('2 organizations are named "Twin"');
    expect(ambiguous.stderr).toContain(first.orgId);
    expect(ambiguous.stderr).toContain(twin);
    const byId = await runCli(['create-key', '--org', twin, '--role', 'ADMIN', '--name', 'again'], env);
    expect(json(byId.stdout).orgId).toBe(twin);
    const unknown = await runCli(['create-key', '--org', 'Nobody', '--role', 'ADMIN', '--name', 'x'], env);
    expect([unknown.code, unknown.stderr.trim()]).toEqual([2, 'memory-loop: organization "Nobody" not found']);
  });

  it('sets credit settings of an organization, refusing bad values with exit code 2', async () => {
    const orm = await initOrm({ clientUrl: env.DATABASE_URL, entities });
    const org = { orgId: (await createOrganization(orm.em.fork(), 'Credited')).org.id };
    await orm.close(true);
    const set = await runCli(['set-credit', '--org', 'Credited', '--enabled', 'false', '--max-facts', '7'], env);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({
      orgId: org.orgId,
      credit: { enabled: false, usedConfidence: 0.3, ignoredConfidence: 0.2, feedbackConfidence: 1, maxFactsPerEvent: 7 },
    });
    const bad = await runCli(['set-credit', '--org', org.orgId, '--used', '2'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/usedConfidence must be 0..1/);
  });
});
