'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261122205043_learning_event_counts extends Migration {

  async up() {
    // the fields a correction changed: `after.field` of a field correction, else each top-level key
    // whose value differs between before and after (null for other feedback types)
    this.addSql(`create function feedback_changed_fields(feedback_type text, event_type text, before jsonb, after jsonb) returns text[]
      language sql immutable parallel safe as $$
        select case when feedback_type <> 'CORRECTION' then null
                    when event_type = 'EXTRACTION_FIELD_CORRECTED' and after->>'field' is not null then array[after->>'field']
                    else array(select k from jsonb_object_keys(coalesce(before, '{}') || coalesce(after, '{}')) k where before->k is distinct from after->k) end
      $$;`);

    this.addSql(`create table "learning_event_counts" ("org_id" uuid not null, "day" date not null, "kind" text not null, "key_hash" uuid not null, "key" text not null, "count" int not null, constraint "learning_event_counts_pkey" primary key ("org_id", "day", "kind", "key_hash"));`);

    this.addSql(`alter table "feedback" add column "changed_fields" text[] generated always as (feedback_changed_fields(feedback_type, event_type, before, after)) stored null;`);
    this.addSql(`create index "feedback_layout_corrections_index" on "feedback" ("org_id", "layout_fingerprint", "document_id") where "feedback_type" = 'CORRECTION';`);

    // the counts of the feedback already written
    this.addSql(`insert into "learning_event_counts" ("org_id", "day", "kind", "key_hash", "key", "count")
      select f.org_id, (f.created_at at time zone 'UTC')::date, k.kind, md5(k.key)::uuid, min(k.key), count(*)
        from feedback f
        cross join lateral (select 'type' as kind, coalesce(f.event_type, f.feedback_type) as key union all select 'field', unnest(f.changed_fields)) k
       where f.feedback_type in ('CORRECTION', 'CONFIRMATION', 'REJECTION')
       group by 1, 2, 3, 4;`);
  }

  async down() {
    this.addSql(`drop table if exists "learning_event_counts" cascade;`);

    this.addSql(`drop index "feedback_layout_corrections_index";`);
    this.addSql(`alter table "feedback" drop column "changed_fields";`);
    this.addSql(`drop function feedback_changed_fields(text, text, jsonb, jsonb);`);
  }

}
exports.Migration20261122205043_learning_event_counts = Migration20261122205043_learning_event_counts;
