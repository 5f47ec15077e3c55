'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261127173015_loop_traces extends Migration {

  async up() {
    this.addSql(`create table "memory_traces" ("id" uuid not null, "org_id" uuid not null, "episode_id" uuid not null, "created_at" timestamptz not null default now(), "operation" text not null, "seq" int null, "query" text null, "query_embedding" double precision[] null, "strategy" text null, "mode" text null, "budget" int null, "items" jsonb not null, constraint "memory_traces_pkey" primary key ("id"));`);
    this.addSql(`create index "memory_traces_org_id_episode_id_created_at_index" on "memory_traces" ("org_id", "episode_id", "created_at");`);

    this.addSql(`create table "org_credit_settings" ("org_id" uuid not null, "enabled" boolean null, "used_confidence" double precision null, "ignored_confidence" double precision null, "feedback_confidence" double precision null, "max_facts_per_event" int null, constraint "org_credit_settings_pkey" primary key ("org_id"));`);

    this.addSql(`alter table "memory_traces" add constraint "memory_traces_episode_id_foreign" foreign key ("episode_id") references "episodes" ("id") on update no action on delete cascade;`);

    this.addSql(`alter table "fact_signals" add column "ord" int not null default 0, add column "source" text null, add column "feedback_id" uuid null, add column "episode_id" uuid null, add column "trace_id" uuid null, add column "credit_key" text null;`);
    this.addSql(`create index "fact_signals_org_id_episode_id_index" on "fact_signals" ("org_id", "episode_id");`);
    this.addSql(`create index "fact_signals_org_id_feedback_id_index" on "fact_signals" ("org_id", "feedback_id");`);
    this.addSql(`alter table "fact_signals" add constraint "fact_signals_org_id_credit_key_unique" unique ("org_id", "credit_key");`);
  }

  async down() {
    this.addSql(`drop table if exists "memory_traces" cascade;`);

    this.addSql(`drop table if exists "org_credit_settings" cascade;`);

    this.addSql(`drop index "fact_signals_org_id_episode_id_index";`);
    this.addSql(`drop index "fact_signals_org_id_feedback_id_index";`);
    this.addSql(`alter table "fact_signals" drop constraint "fact_signals_org_id_credit_key_unique";`);
    this.addSql(`alter table "fact_signals" drop column "ord", drop column "source", drop column "feedback_id", drop column "episode_id", drop column "trace_id", drop column "credit_key";`);
  }

}
exports.Migration20261127173015_loop_traces = Migration20261127173015_loop_traces;
