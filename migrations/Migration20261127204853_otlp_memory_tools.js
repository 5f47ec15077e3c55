'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261127204853_otlp_memory_tools extends Migration {

  async up() {
    this.addSql(`create table "org_otlp_settings" ("org_id" uuid not null, "memory_tools" text[] not null default '{}', constraint "org_otlp_settings_pkey" primary key ("org_id"));`);
  }

  async down() {
    this.addSql(`drop table if exists "org_otlp_settings" cascade;`);
  }

}
exports.Migration20261127204853_otlp_memory_tools = Migration20261127204853_otlp_memory_tools;
