// Writes a migration for the difference between the entities and the database schema.
// Usage: npm run migration:create -- <name>   (uses DATABASE_URL, else the embedded database)
import 'reflect-metadata';
import { openDatabase } from '../src/app';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/core/logger';

async function run(): Promise<void> {
  const name = process.argv[2];
  const log = createLogger('warn', 2);
  const db = await openDatabase(loadConfig(), log, { migrate: true });
  try {
    const result = await db.orm.getMigrator().createMigration(undefined, false, false, name);
    process.stdout.write(result.fileName ? `created migrations/${result.fileName}\n` : 'no changes: no migration needed\n');
  } finally {
    await db.close();
  }
}

run().catch((err) => {
  process.stderr.write(String(err instanceof Error ? err.stack : err) + '\n');
  process.exit(1);
});
