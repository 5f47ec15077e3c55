'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261122114127_learning_tables extends Migration {

  async up() {
    this.addSql(`create table "documents" ("id" uuid not null, "org_id" uuid not null, "created_at" timestamptz not null default now(), "document_id" text not null, "layout_fingerprint" text not null, "page_count" int not null, "page_dimensions" jsonb not null, "table_count" int not null, "text_coverage_ratio" double precision not null, "extraction_confidence" double precision null, "updated_at" timestamptz not null default now(), constraint "documents_pkey" primary key ("id"));`);
    this.addSql(`create index "documents_org_id_created_at_index" on "documents" ("org_id", "created_at");`);
    this.addSql(`create index "documents_org_id_layout_fingerprint_created_at_index" on "documents" ("org_id", "layout_fingerprint", "created_at");`);
    this.addSql(`alter table "documents" add constraint "documents_org_id_document_id_unique" unique ("org_id", "document_id");`);

    this.addSql(`create table "layout_profiles" ("id" uuid not null, "org_id" uuid not null, "created_at" timestamptz not null default now(), "layout_fingerprint" text not null, "seen_count" int not null default 0, "last_seen_at" timestamptz not null default now(), "stats" jsonb not null default '{}', "updated_at" timestamptz not null default now(), constraint "layout_profiles_pkey" primary key ("id"));`);
    this.addSql(`create index "layout_profiles_org_id_last_seen_at_id_index" on "layout_profiles" ("org_id", "last_seen_at", "id");`);
    this.addSql(`alter table "layout_profiles" add constraint "layout_profiles_org_id_layout_fingerprint_unique" unique ("org_id", "layout_fingerprint");`);
  }

  async down() {
    this.addSql(`drop table if exists "documents" cascade;`);

    this.addSql(`drop table if exists "layout_profiles" cascade;`);
  }

}
exports.Migration20261122114127_learning_tables = Migration20261122114127_learning_tables;
