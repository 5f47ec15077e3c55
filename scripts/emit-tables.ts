// Writes src/db/tables.ts, the row types of every table, from a database migrated with migrations/
// (a test fails when the file drifts). Usage: npm run tables:emit (uses DATABASE_URL, else the
// embedded database).
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../src/app';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/core/logger';
import { projectRoot } from '../src/db/paths';
import { printTables } from '../src/db/tables-print';

async function run(): Promise<void> {
  const db = await openDatabase(loadConfig(), createLogger('warn', 2), { migrate: true });
  try {
    writeFileSync(join(projectRoot, 'src/db/tables.ts'), await printTables(db.orm.em.fork()));
    process.stdout.write('wrote src/db/tables.ts\n');
  } finally {
    await db.close();
  }
}

run().catch((err) => {
  process.stderr.write(String(err instanceof Error ? err.stack : err) + '\n');
  process.exit(1);
});
