import { readFileSync } from 'node:fs';
import { buildSchema } from 'graphql';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../src/db/paths';
import { initOrm } from '../src/db/orm';
import { printAppSchema } from '../src/graphql/build-schema';
import { entities } from '../src/modules';
import { cloneDatabase } from './helpers/db';
import { printTables } from '../src/db/tables-print';

describe('checked-in artefacts', () => {
  it('schema.graphql equals the schema the code emits (run `npm run schema:emit`)', () => {
    expect(readFileSync(join(projectRoot, 'schema.graphql'), 'utf8')).toBe(printAppSchema());
  });

  it('the recall kernel equals its WebAssembly text (run `npm run kernel:build`)', async () => {
    const { compileKernel } = await import('../scripts/build-kernel.mjs');
    expect(readFileSync(join(projectRoot, 'src/modules/facts/vectors/dot-kernel.wasm.ts'), 'utf8')).toBe(await compileKernel());
  });

  it('every type, field and argument of the schema has a description', () => {
    const sdl = printAppSchema();
    const schema = buildSchema(sdl);
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)) continue;
      if (!type.description && !['Query', 'Mutation', 'Subscription'].includes(type.name)) missing.push(type.name);
      if ('getFields' in type) {
        for (const f of Object.values(type.getFields())) {
          if (!f.description) missing.push(`${type.name}.${f.name}`);
          for (const a of 'args' in f ? f.args : []) if (!a.description) missing.push(`${type.name}.${f.name}(${a.name})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('a database migrated with migrations/ needs no further migration', async () => {
    const orm = await initOrm({ clientUrl: await cloneDatabase(), entities });
    try {
      expect(await orm.getMigrator().getPendingMigrations()).toEqual([]);
      const diff = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false });
      expect(diff.trim()).toBe('');
      expect(await orm.getMigrator().checkMigrationNeeded()).toBe(false);
    } finally {
      await orm.close(true);
    }
  });

  it('src/db/tables.ts equals the tables of a database migrated with migrations/ (run `npm run tables:emit`)', async () => {
    const orm = await initOrm({ clientUrl: await cloneDatabase(), entities });
    try {
      expect(readFileSync(join(projectRoot, 'src/db/tables.ts'), 'utf8')).toBe(await printTables(orm.em.fork()));
    } finally {
      await orm.close(true);
    }
  });

  it('migrations go all the way down and up again', async () => {
    const orm = await initOrm({ clientUrl: await cloneDatabase(), entities });
    try {
      const migrator = orm.getMigrator();
      const applied = (await migrator.getExecutedMigrations()).length;
      expect(applied).toBeGreaterThan(0);
      await migrator.down({ to: 0 });
      expect(await migrator.getExecutedMigrations()).toEqual([]);
      await migrator.up();
      expect((await migrator.getExecutedMigrations()).length).toBe(applied);
      expect((await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false })).trim()).toBe('');
    } finally {
      await orm.close(true);
    }
  });
});
