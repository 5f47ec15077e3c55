'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261127184806_check extends Migration {

  async up() {
    this.addSql(`drop table if exists "asof_t" cascade;`);
  }

  async down() {
    this.addSql(`create table "asof_t" ("t" timestamptz(6) null);`);
  }

}
exports.Migration20261127184806_check = Migration20261127184806_check;
