'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261127141947_fact_order extends Migration {

  async up() {
    this.addSql(`alter table "facts" add column "seq" bigserial;`);
    this.addSql(`create index "facts_bank_seq" on "facts" ("org_id", "bank_id", "seq");`);
  }

  async down() {
    this.addSql(`drop index "facts_bank_seq";`);
    this.addSql(`alter table "facts" drop column "seq";`);
  }

}
exports.Migration20261127141947_fact_order = Migration20261127141947_fact_order;
