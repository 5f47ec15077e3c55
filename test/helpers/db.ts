import { inject } from 'vitest';
import pg from 'pg';
import { withDatabase } from '../setup/pg-url';

let counter = 0;

/** A new database cloned from the migrated template; returns its URL. Dropped at the end of the run. */
export async function cloneDatabase(): Promise<string> {
  const adminUrl = inject('pgAdminUrl');
  const template = inject('templateDb');
  const name = `ml_t${template.replace('ml_template_', '')}_${process.pid}_${++counter}_${Date.now() % 100000}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // concurrent clones of one template can collide on its lock; retry briefly
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        break;
      } catch (err) {
        if (attempt >= 20 || !/being accessed by other users/.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  return withDatabase(adminUrl, name);
}

/** A plain pg client on a database (for assertions that read tables directly). */
export async function sqlClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}
