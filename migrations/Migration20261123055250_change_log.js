'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261123055250_change_log extends Migration {

  async up() {
    this.addSql(`create table "change_log" ("id" bigserial primary key, "org_id" uuid not null, "topic" text not null, "xid" xid8 not null, "keys" text[] not null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "change_log_created_at_index" on "change_log" ("created_at");`);
    this.addSql(`create index "change_log_org_id_topic_xid_index" on "change_log" ("org_id", "topic", "xid");`);

    this.addSql(`create index "facts_text_only" on "facts" ("org_id", "bank_id") where "embedding" is null and "text" <> '';`);

    // every change to facts (with text) and their query contexts is logged as the writing transaction's fact ids
    this.addSql(`create or replace function log_fact_changes() returns trigger language plpgsql as $$
      begin
        if tg_table_name = 'facts' then
          insert into change_log (org_id, topic, xid, keys, created_at)
          select org_id, 'facts', pg_current_xact_id(), array_agg(distinct id::text), now() from changed where text <> '' group by org_id;
        else
          insert into change_log (org_id, topic, xid, keys, created_at)
          select org_id, 'facts', pg_current_xact_id(), array_agg(distinct fact_id::text), now() from changed group by org_id;
        end if;
        return null;
      end $$;`);
    // inserted segments are logged with the agents of their episodes; deleted ones as every agent ('*')
    this.addSql(`create or replace function log_segment_changes() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into change_log (org_id, topic, xid, keys, created_at)
          select s.org_id, 'segments', pg_current_xact_id(), array_agg(distinct coalesce(e.agent_id, '*')), now()
            from changed s left join episodes e on e.org_id = s.org_id and e.id = s.episode_id group by s.org_id;
        else
          insert into change_log (org_id, topic, xid, keys, created_at)
          select org_id, 'segments', pg_current_xact_id(), array['*'], now() from changed group by org_id;
        end if;
        return null;
      end $$;`);
    for (const [table, fn] of [['facts', 'log_fact_changes'], ['fact_query_contexts', 'log_fact_changes'], ['episode_segments', 'log_segment_changes']]) {
      for (const [event, transition] of [['insert', 'new'], ['update', 'new'], ['delete', 'old']]) {
        this.addSql(`create trigger "${table}_log_${event}" after ${event} on "${table}" referencing ${transition} table as changed for each statement execute function ${fn}();`);
      }
    }
  }

  async down() {
    for (const table of ['facts', 'fact_query_contexts', 'episode_segments']) {
      for (const event of ['insert', 'update', 'delete']) this.addSql(`drop trigger if exists "${table}_log_${event}" on "${table}";`);
    }
    this.addSql(`drop function if exists log_fact_changes();`);
    this.addSql(`drop function if exists log_segment_changes();`);

    this.addSql(`drop table if exists "change_log" cascade;`);

    this.addSql(`drop index "facts_text_only";`);
  }

}
exports.Migration20261123055250_change_log = Migration20261123055250_change_log;
