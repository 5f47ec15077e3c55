'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261122115125_facts_signals extends Migration {

  async up() {
    this.addSql(`create table "fact_embedding_dimensions" ("org_id" uuid not null, "dimension" int not null, "created_at" timestamptz not null default now(), constraint "fact_embedding_dimensions_pkey" primary key ("org_id"));`);

    this.addSql(`create table "fact_query_contexts" ("id" uuid not null, "org_id" uuid not null, "created_at" timestamptz not null default now(), "fact_id" uuid not null, "query" text not null, "normalized_query" text not null, "query_embedding" double precision[] null, "usefulness" double precision not null default 0.5, "signal_count" int not null default 0, "last_signal_at" timestamptz null, constraint "fact_query_contexts_pkey" primary key ("id"));`);
    this.addSql(`create index "fact_query_contexts_org_id_normalized_query_index" on "fact_query_contexts" ("org_id", "normalized_query");`);
    this.addSql(`create index "fact_query_contexts_org_id_fact_id_index" on "fact_query_contexts" ("org_id", "fact_id");`);

    this.addSql(`create table "fact_signals" ("id" uuid not null, "org_id" uuid not null, "created_at" timestamptz not null default now(), "fact_id" uuid not null, "context_id" uuid not null, "signal_type" text not null, "confidence" double precision not null, "delta" double precision not null, "query" text not null, "context" text null, "actor_id" uuid null, constraint "fact_signals_pkey" primary key ("id"));`);
    this.addSql(`create index "fact_signals_org_id_created_at_index" on "fact_signals" ("org_id", "created_at");`);
    this.addSql(`create index "fact_signals_org_id_fact_id_created_at_index" on "fact_signals" ("org_id", "fact_id", "created_at");`);
  }

  async down() {
    this.addSql(`drop table if exists "fact_embedding_dimensions" cascade;`);

    this.addSql(`drop table if exists "fact_query_contexts" cascade;`);

    this.addSql(`drop table if exists "fact_signals" cascade;`);
  }

}
exports.Migration20261122115125_facts_signals = Migration20261122115125_facts_signals;
