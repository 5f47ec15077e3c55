'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261127135757_lexical extends Migration {

  async up() {
    // btree_gin lets one GIN index hold the organization and bank with the words, so a lexical match is scoped in the index
    this.addSql(`create extension if not exists btree_gin;`);
    this.addSql(`alter table "facts" add column "text_tsv" tsvector generated always as (to_tsvector('english'::regconfig, text)) stored not null;`);
    this.addSql(`create index "facts_lexical" on "facts" using gin ("org_id", "bank_id", "text_tsv");`);
  }

  async down() {
    this.addSql(`drop index "facts_lexical";`);
    this.addSql(`alter table "facts" drop column "text_tsv";`);
  }

}
exports.Migration20261127135757_lexical = Migration20261127135757_lexical;
