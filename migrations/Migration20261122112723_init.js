'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261122112723_init extends Migration {

  async up() {
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create table "api_keys" ("id" uuid not null, "org_id" uuid not null, "created_at" timestamptz not null default now(), "name" text not null, "role" text not null, "token_hash" text not null, "token_prefix" text not null, "revoked_at" timestamptz null, constraint "api_keys_pkey" primary key ("id"));`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "api_keys_org_id_created_at_index" on "api_keys" ("org_id", "created_at");`);

    this.addSql(`create table "idempotency_keys" ("org_id" uuid not null, "key" text not null, "operation" text not null, "request_hash" text not null, "result" jsonb null, "created_at" timestamptz not null default now(), "expires_at" timestamptz not null, constraint "idempotency_keys_pkey" primary key ("org_id", "key"));`);
    this.addSql(`create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");`);

    this.addSql(`create table "organizations" ("id" uuid not null, "name" text not null, "created_at" timestamptz not null default now(), constraint "organizations_pkey" primary key ("id"));`);
  }

  async down() {
    this.addSql(`drop table if exists "api_keys" cascade;`);

    this.addSql(`drop table if exists "idempotency_keys" cascade;`);

    this.addSql(`drop table if exists "organizations" cascade;`);
  }

}
exports.Migration20261122112723_init = Migration20261122112723_init;
