'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261122205242_recall_norms extends Migration {

  async up() {
    // the sum of squares of an embedding in array order (what float8 sum over unnest adds up), for the stored norm columns
    this.addSql(`create or replace function sum_of_squares(v double precision[]) returns double precision language sql immutable strict parallel safe as $$ select sum(x * x) from unnest(v) as x $$;`);

    // embeddings stay in the row up to about 8 KB, so recall's subscripts read them in place (see usefulness.sql.ts)
    for (const [table, column] of [['facts', 'embedding'], ['fact_query_contexts', 'query_embedding']]) {
      this.addSql(`alter table "${table}" set (toast_tuple_target = 8160);`);
      this.addSql(`alter table "${table}" alter column "${column}" set storage main;`);
    }

    this.addSql(`alter table "facts" add column "embedding_norm_sq" double precision generated always as (sum_of_squares(embedding)) stored null;`);

    this.addSql(`alter table "fact_query_contexts" add column "query_embedding_norm_sq" double precision generated always as (sum_of_squares(query_embedding)) stored null;`);
  }

  async down() {
    this.addSql(`alter table "fact_query_contexts" drop column "query_embedding_norm_sq";`);

    this.addSql(`alter table "facts" drop column "embedding_norm_sq";`);

    this.addSql(`drop function if exists sum_of_squares(double precision[]);`);

    for (const [table, column] of [['facts', 'embedding'], ['fact_query_contexts', 'query_embedding']]) {
      this.addSql(`alter table "${table}" alter column "${column}" set storage extended;`);
      this.addSql(`alter table "${table}" reset (toast_tuple_target);`);
    }
  }

}
exports.Migration20261122205242_recall_norms = Migration20261122205242_recall_norms;
