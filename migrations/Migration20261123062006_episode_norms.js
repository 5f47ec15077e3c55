'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261123062006_episode_norms extends Migration {

  async up() {
    // squares too small for a double are 0, as in JavaScript, instead of PostgreSQL's underflow error
    // (1.5717277847026285e-162 is the largest double whose square rounds to 0); otherwise the same sum
    this.addSql(`create or replace function sum_of_squares(v double precision[]) returns double precision language sql immutable strict parallel safe as $$ select sum(case when abs(x) <= '1.5717277847026285e-162'::float8 then 0.0::float8 else x * x end) from unnest(v) as x $$;`);

    // embeddings stay in the row up to about 8 KB, so recallEpisodes' subscripts read them in place (see usefulness.sql.ts)
    this.addSql(`alter table "episodes" set (toast_tuple_target = 8160);`);
    this.addSql(`alter table "episodes" alter column "embedding" set storage main;`);

    this.addSql(`alter table "episodes" add column "embedding_norm_sq" double precision generated always as (sum_of_squares(embedding)) stored null;`);
    this.addSql(`create index "episodes_embedded" on "episodes" ("org_id", "created_at") where "embedding" is not null;`);
  }

  async down() {
    this.addSql(`drop index "episodes_embedded";`);
    this.addSql(`alter table "episodes" drop column "embedding_norm_sq";`);

    this.addSql(`alter table "episodes" alter column "embedding" set storage extended;`);
    this.addSql(`alter table "episodes" reset (toast_tuple_target);`);

    this.addSql(`create or replace function sum_of_squares(v double precision[]) returns double precision language sql immutable strict parallel safe as $$ select sum(x * x) from unnest(v) as x $$;`);
  }

}
exports.Migration20261123062006_episode_norms = Migration20261123062006_episode_norms;
