import 'reflect-metadata';
import { openDatabase } from '../app';
import { ConfigError, loadConfig } from '../config';
import { AppError } from '../core/errors';
import { createLogger } from '../core/logger';
import { commands } from './commands';

const USAGE = `usage: npm run -s cli -- <command>   (-s keeps npm's own lines off stdout: the result is one JSON line)
  create-org <name>                                          new organization and its ADMIN key: {"orgId","token"}
  create-key --org <name or id> --role <ROLE> --name <name>  new API key: {"orgId","token"}
                                                             (ROLE: ADMIN INTEGRATOR OPERATOR AGENT VIEWER)
  list-orgs                                                  {"organizations":[{"id","name","createdAt","activeKeys"}]}
  usage --org <name or id>                                   stored rows and bytes and the storage quotas of an organization
  set-quota --org <name or id> [--rows <n|default>] [--bytes <n|default>]
                                                             the organization's own storage quotas ("default": QUOTA_ROWS / QUOTA_BYTES)
  set-credit --org <name or id> [--enabled <true|false>] [--used <c>] [--ignored <c>] [--feedback <c>] [--max-facts <n>]
                                                             the organization's credit settings (each also "default")
  set-memory-tools --org <name or id> --tools <name,name,...|none>
                                                             tools whose calls are the organization's memory lookups (OTLP)
  maintain                                                   run the retention and clean-up jobs once
  help                                                       this text`;

/** `--flag value` pairs and positional words. */
export function parseArgs(argv: string[]): { positional: string[]; flags: Record<string, string> } {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const [k, inline] = a.slice(2).split('=', 2);
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`--${k} needs a value`);
      flags[k] = v;
    } else positional.push(a);
  }
  return { positional, flags };
}

async function run(): Promise<number> {
  const [name, ...rest] = process.argv.slice(2);
  if (name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const command = name ? (Object.hasOwn(commands, name) ? commands[name] : undefined) : undefined;
  if (!command) {
    process.stderr.write((name ? `memory-loop: unknown command "${name}"\n` : '') + USAGE + '\n');
    return 2;
  }
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, 2);
  const db = await openDatabase(config, log, { migrate: config.migrateOnStart });
  try {
    const result = await command(db.orm.em.fork(), parseArgs(rest), log);
    process.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  } finally {
    await db.close();
  }
}

run().then(
  (code) => process.exit(code),
  (err: unknown) => {
    const mine = err instanceof AppError || err instanceof ConfigError || (err instanceof Error && err.name === 'UsageError');
    const message = mine ? err.message : err instanceof Error ? String(err.stack) : String(err);
    process.stderr.write(`memory-loop: ${message}\n`);
    process.exit(mine ? 2 : 1);
  },
);
