'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261127173043_otlp_ingest extends Migration {

  async up() {
    this.addSql(`create table "otlp_episodes" ("org_id" uuid not null, "trace_id" text not null, "anchor" text not null, "episode_id" uuid not null, constraint "otlp_episodes_pkey" primary key ("org_id", "trace_id", "anchor"));`);
    this.addSql(`create index "otlp_episodes_org_id_episode_id_index" on "otlp_episodes" ("org_id", "episode_id");`);

    this.addSql(`create table "otlp_spans" ("org_id" uuid not null, "trace_id" text not null, "span_id" text not null, "record" jsonb not null, constraint "otlp_spans_pkey" primary key ("org_id", "trace_id", "span_id"));`);

    this.addSql(`create table "otlp_traces" ("org_id" uuid not null, "trace_id" text not null, "last_span_at" timestamptz not null default now(), constraint "otlp_traces_pkey" primary key ("org_id", "trace_id"));`);
    this.addSql(`create index "otlp_traces_last_span_at_index" on "otlp_traces" ("last_span_at");`);
  }

  async down() {
    this.addSql(`drop table if exists "otlp_episodes" cascade;`);

    this.addSql(`drop table if exists "otlp_spans" cascade;`);

    this.addSql(`drop table if exists "otlp_traces" cascade;`);
  }

}
exports.Migration20261127173043_otlp_ingest = Migration20261127173043_otlp_ingest;
