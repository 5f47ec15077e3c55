import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Prints the row types of every table of the migrated database as the TypeScript source of
 * `src/db/tables.ts`: the one typed description of the tables that hand-written statements are
 * built against. A column's type is what a raw read returns for it (timestamps as text, bigint and
 * numeric as text, or as numbers when read through a batched JSON read); a column with a default is
 * `Generated` (optional on insert); a nullable one includes `null`.
 */
export async function printTables(em: EntityManager): Promise<string> {
  const columns = await em.execute<ColumnInfo[]>(COLUMNS_SQL);
  const tables = new Map<string, ColumnInfo[]>();
  for (const c of columns) tables.set(c.table_name, [...(tables.get(c.table_name) ?? []), c]);
  const out = [HEADER];
  for (const [table, cols] of tables) {
    out.push(`export interface ${typeName(table)} {`);
    for (const c of cols) out.push(`  ${c.column_name}: ${columnType(c)};`);
    out.push('}', '');
  }
  out.push('/** Every table, by name. */', 'export interface Tables {');
  for (const table of tables.keys()) out.push(`  ${table}: ${typeName(table)};`);
  out.push('}', '');
  return out.join('\n');
}

interface ColumnInfo {
  table_name: string;
  column_name: string;
  udt_name: string;
  nullable: boolean;
  has_default: boolean;
}

const COLUMNS_SQL = `SELECT c.table_name, c.column_name, c.udt_name, c.is_nullable = 'YES' AS nullable,
       (c.column_default IS NOT NULL OR c.is_identity = 'YES') AS has_default
  FROM information_schema.columns c
  JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
 WHERE c.table_schema = current_schema() AND c.table_name <> 'mikro_orm_migrations'
 ORDER BY c.table_name COLLATE "C", c.ordinal_position`;

const HEADER = `// Generated from the migrated database by \`npm run tables:emit\`; a test fails when it drifts.
import type { ColumnType } from 'kysely';

/** A column with a default: optional on insert. */
export type Generated<T> = T extends ColumnType<infer S, infer I, infer U> ? ColumnType<S, I | undefined, U> : ColumnType<T, T | undefined, T>;
/** timestamp / timestamptz / date: text as the database prints it (ISO 8601 when read through JSON). */
export type Timestamp = ColumnType<string, string | Date, string | Date>;
/** bigint / numeric: text, or a number when read through JSON. */
export type BigNumber = ColumnType<string | number, string | number, string | number>;
/** json / jsonb: the parsed value. */
export type Json = ColumnType<unknown, string, string>;
`;

const SCALARS: Record<string, string> = {
  uuid: 'string',
  text: 'string',
  varchar: 'string',
  bpchar: 'string',
  int2: 'number',
  int4: 'number',
  float4: 'number',
  float8: 'number',
  bool: 'boolean',
  int8: 'BigNumber',
  xid8: 'BigNumber',
  numeric: 'BigNumber',
  timestamptz: 'Timestamp',
  timestamp: 'Timestamp',
  date: 'Timestamp',
  json: 'Json',
  jsonb: 'Json',
  bytea: 'Buffer',
  // a tsvector reads as PostgreSQL's text form ('word':1 'other':2)
  tsvector: 'string',
};

function columnType(c: ColumnInfo): string {
  const element = c.udt_name.startsWith('_') ? SCALARS[c.udt_name.slice(1)] : undefined;
  const base = element ? `${element}[]` : SCALARS[c.udt_name];
  if (!base) throw new Error(`no TypeScript type for column ${c.table_name}.${c.column_name} (${c.udt_name})`);
  const type = c.nullable ? `${base} | null` : base;
  return c.has_default ? `Generated<${type}>` : type;
}

const typeName = (table: string) => table.replace(/(^|_)([a-z0-9])/g, (_, __, ch: string) => ch.toUpperCase()) + 'Table';
