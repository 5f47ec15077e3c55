'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261127185351_otlp_retrieval_traces extends Migration {

  async up() {
    this.addSql(`alter table "memory_traces" add column "span_id" text null;`);
    this.addSql(`alter table "memory_traces" add constraint "memory_traces_org_id_episode_id_span_id_unique" unique ("org_id", "episode_id", "span_id");`);
  }

  async down() {
    this.addSql(`alter table "memory_traces" drop constraint "memory_traces_org_id_episode_id_span_id_unique";`);
    this.addSql(`alter table "memory_traces" drop column "span_id";`);
  }

}
exports.Migration20261127185351_otlp_retrieval_traces = Migration20261127185351_otlp_retrieval_traces;
