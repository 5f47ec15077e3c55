'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

// The bytes a row counts for: its text, JSON (as text) and vector contents plus a fixed amount for
// the rest. octet_length of text reads the stored length without decompressing, and is the same
// whether the row was just written (uncompressed) or read back from its table (compressed).
const BYTES = {
  episodes: `64 + octet_length(r.agent_id) + coalesce(octet_length(r.session_id), 0) + coalesce(octet_length(r.title), 0)
    + coalesce(octet_length(r.task), 0) + coalesce(octet_length(r.intent), 0) + coalesce(octet_length(r.topic), 0)
    + coalesce(octet_length(r.blueprint), 0) + octet_length(r.execution_ids::text)
    + coalesce(octet_length(r.generation_config::text), 0) + coalesce(octet_length(r.metadata::text), 0)
    + 8 * coalesce(cardinality(r.embedding), 0)`,
  episode_segments: `48 + octet_length(r.role) + octet_length(r.content)`,
  facts: `64 + octet_length(r.bank_id) + octet_length(r.text) + coalesce(octet_length(r.kind), 0)
    + coalesce(octet_length(r.external_id), 0) + coalesce(octet_length(r.scope), 0) + coalesce(octet_length(r.key), 0)
    + coalesce(octet_length(r.value), 0) + octet_length(r.status) + 8 * coalesce(cardinality(r.embedding), 0)`,
};
// the org_usage columns of each table
const COLUMN = { episodes: 'episode', episode_segments: 'segment', facts: 'fact' };
const STRIPES = 16;
const NIL = '00000000-0000-0000-0000-000000000000';
// documented defaults (QUOTA_ROWS, QUOTA_BYTES); every server start writes its configured values
const DEFAULT_ROWS = 50000000;
const DEFAULT_BYTES = 10 * 1024 * 1024 * 1024;

// The confusable skeleton of an organization name as src/modules/orgs/names.ts computed it when
// this migration was written, for the names that exist before it.
const CAPITALS = { А: 'A', В: 'B', Е: 'E', Ё: 'Ë', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', У: 'Y', Х: 'X', Ѕ: 'S', І: 'I', Ї: 'Ï', Ј: 'J', Ԛ: 'Q', Ԝ: 'W', Ү: 'Y', Һ: 'H', Ӏ: 'I', Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X' };
const SMALL = { а: 'a', е: 'e', ё: 'ë', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', ѕ: 's', і: 'i', ї: 'ï', ј: 'j', ԁ: 'd', һ: 'h', ԛ: 'q', ԝ: 'w', ӏ: 'l', ү: 'y', α: 'a', ο: 'o', ρ: 'p', ι: 'i', κ: 'k', ν: 'v', υ: 'u', χ: 'x', ϲ: 'c', ϳ: 'j', ɡ: 'g', ı: 'i', ȷ: 'j' };
const skeleton = (name) =>
  name
    .normalize('NFKC')
    .replace(/[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu, '')
    .replace(new RegExp(`[${Object.keys(CAPITALS).join('')}]`, 'gu'), (c) => CAPITALS[c])
    .toLowerCase()
    .replace(new RegExp(`[${Object.keys(SMALL).join('')}]`, 'gu'), (c) => SMALL[c])
    .normalize('NFKC')
    .replace(/[\s\p{Zs}]+/gu, ' ')
    .trim();

class Migration20261127135627_org_usage extends Migration {

  async up() {
    this.addSql(`create table "org_quotas" ("org_id" uuid not null, "max_rows" bigint null, "max_bytes" bigint null, constraint "org_quotas_pkey" primary key ("org_id"));`);

    this.addSql(`create table "org_usage" ("org_id" uuid not null, "stripe" smallint not null, "episode_rows" bigint not null default 0, "episode_bytes" bigint not null default 0, "segment_rows" bigint not null default 0, "segment_bytes" bigint not null default 0, "fact_rows" bigint not null default 0, "fact_bytes" bigint not null default 0, constraint "org_usage_pkey" primary key ("org_id", "stripe"));`);

    this.addSql(`alter table "organizations" add column "name_skeleton" text null;`);
    this.addSql(`alter table "organizations" add constraint "organizations_name_skeleton_unique" unique ("name_skeleton");`);

    // existing names: the oldest of names that look alike keeps the skeleton, the others keep working without one
    const orgs = await this.execute(`select id, name from organizations order by created_at, id`);
    const seen = new Set();
    const named = [];
    for (const { id, name } of orgs) {
      const sk = skeleton(name);
      if (seen.has(sk)) continue;
      seen.add(sk);
      named.push({ id, sk });
    }
    if (named.length > 0) {
      this.addSql(
        this.getKnex()
          .raw(`update organizations o set name_skeleton = v.sk from json_to_recordset(?::json) as v(id uuid, sk text) where o.id = v.id`, [JSON.stringify(named)])
          .toQuery(),
      );
    }

    this.addSql(`insert into org_quotas (org_id, max_rows, max_bytes) values ('${NIL}', ${DEFAULT_ROWS}, ${DEFAULT_BYTES});`);

    // Adds a statement's change to the organization's stripe of this connection, then (for growth)
    // refuses it when the organization is over its quota. The stripe's row stays locked to the end
    // of the transaction: writers of one organization queue only when their connections share a
    // stripe. The sum over the stripes sees what other transactions committed, so concurrent writes
    // can pass the quota by at most what each of them adds.
    this.addSql(`create function org_usage_add(p_org uuid, p_column text, p_rows bigint, p_bytes bigint, p_table text) returns void
      language plpgsql as $$
      declare
        total_rows bigint;
        total_bytes bigint;
        quota_rows bigint;
        quota_bytes bigint;
      begin
        if p_rows = 0 and p_bytes = 0 then return; end if;
        insert into org_usage as u (org_id, stripe, episode_rows, episode_bytes, segment_rows, segment_bytes, fact_rows, fact_bytes)
        values (p_org, pg_backend_pid() % ${STRIPES},
          case when p_column = 'episode' then p_rows else 0 end, case when p_column = 'episode' then p_bytes else 0 end,
          case when p_column = 'segment' then p_rows else 0 end, case when p_column = 'segment' then p_bytes else 0 end,
          case when p_column = 'fact' then p_rows else 0 end, case when p_column = 'fact' then p_bytes else 0 end)
        on conflict (org_id, stripe) do update set
          episode_rows = u.episode_rows + excluded.episode_rows, episode_bytes = u.episode_bytes + excluded.episode_bytes,
          segment_rows = u.segment_rows + excluded.segment_rows, segment_bytes = u.segment_bytes + excluded.segment_bytes,
          fact_rows = u.fact_rows + excluded.fact_rows, fact_bytes = u.fact_bytes + excluded.fact_bytes;
        if p_rows <= 0 and p_bytes <= 0 then return; end if;
        select coalesce(sum(episode_rows + segment_rows + fact_rows), 0), coalesce(sum(episode_bytes + segment_bytes + fact_bytes), 0)
          into total_rows, total_bytes from org_usage where org_id = p_org;
        select coalesce(o.max_rows, d.max_rows), coalesce(o.max_bytes, d.max_bytes) into quota_rows, quota_bytes
          from (select) x left join org_quotas d on d.org_id = '${NIL}' left join org_quotas o on o.org_id = p_org;
        if p_bytes > 0 and total_bytes > quota_bytes then
          raise exception 'over the organization''s storage quota of % bytes (% in use, % more asked)', quota_bytes, total_bytes - p_bytes, p_bytes
            using errcode = 'MLQ01',
              detail = json_build_object('resource', 'bytes', 'quota', quota_bytes, 'usage', total_bytes - p_bytes, 'requested', p_bytes, 'table', p_table)::text;
        end if;
        if p_rows > 0 and total_rows > quota_rows then
          raise exception 'over the organization''s storage quota of % rows (% in use, % more asked)', quota_rows, total_rows - p_rows, p_rows
            using errcode = 'MLQ01',
              detail = json_build_object('resource', 'rows', 'quota', quota_rows, 'usage', total_rows - p_rows, 'requested', p_rows, 'table', p_table)::text;
        end if;
      end $$;`);

    for (const [table, bytes] of Object.entries(BYTES)) {
      const column = COLUMN[table];
      this.addSql(`create function org_usage_bytes_${table}(r ${table}) returns bigint language sql immutable as $$ select (${bytes})::bigint $$;`);
      // one call per organization the statement touched, in id order (stripe rows are locked in one order)
      this.addSql(`create function org_usage_track_${table}() returns trigger language plpgsql as $$
        declare c record;
        begin
          if tg_op = 'INSERT' then
            for c in select r.org_id, count(*) as n, sum(org_usage_bytes_${table}(r))::bigint as b from new_rows r group by r.org_id order by r.org_id loop
              perform org_usage_add(c.org_id, '${column}', c.n, c.b, tg_table_name);
            end loop;
          elsif tg_op = 'DELETE' then
            for c in select r.org_id, count(*) as n, sum(org_usage_bytes_${table}(r))::bigint as b from old_rows r group by r.org_id order by r.org_id loop
              perform org_usage_add(c.org_id, '${column}', -c.n, -c.b, tg_table_name);
            end loop;
          else
            for c in select x.org_id, sum(x.n)::bigint as n, sum(x.b)::bigint as b from (
                select r.org_id, 1 as n, org_usage_bytes_${table}(r) as b from new_rows r
                union all select r.org_id, -1, -org_usage_bytes_${table}(r) from old_rows r) x
              group by x.org_id order by x.org_id loop
              perform org_usage_add(c.org_id, '${column}', c.n, c.b, tg_table_name);
            end loop;
          end if;
          return null;
        end $$;`);
      this.addSql(`create trigger "${table}_usage_insert" after insert on "${table}" referencing new table as new_rows for each statement execute function org_usage_track_${table}();`);
      this.addSql(`create trigger "${table}_usage_update" after update on "${table}" referencing old table as old_rows new table as new_rows for each statement execute function org_usage_track_${table}();`);
      this.addSql(`create trigger "${table}_usage_delete" after delete on "${table}" referencing old table as old_rows for each statement execute function org_usage_track_${table}();`);
      // what exists already, in stripe 0
      this.addSql(`insert into org_usage as u (org_id, stripe, ${column}_rows, ${column}_bytes)
        select r.org_id, 0, count(*), sum(org_usage_bytes_${table}(r)) from ${table} r group by r.org_id
        on conflict (org_id, stripe) do update set ${column}_rows = excluded.${column}_rows, ${column}_bytes = excluded.${column}_bytes;`);
    }
  }

  async down() {
    for (const table of Object.keys(BYTES)) {
      for (const event of ['insert', 'update', 'delete']) this.addSql(`drop trigger if exists "${table}_usage_${event}" on "${table}";`);
      this.addSql(`drop function if exists org_usage_track_${table}();`);
      this.addSql(`drop function if exists org_usage_bytes_${table}(${table});`);
    }
    this.addSql(`drop function if exists org_usage_add(uuid, text, bigint, bigint, text);`);

    this.addSql(`drop table if exists "org_quotas" cascade;`);

    this.addSql(`drop table if exists "org_usage" cascade;`);

    this.addSql(`alter table "organizations" drop constraint "organizations_name_skeleton_unique";`);
    this.addSql(`alter table "organizations" drop column "name_skeleton";`);
  }

}
exports.Migration20261127135627_org_usage = Migration20261127135627_org_usage;
