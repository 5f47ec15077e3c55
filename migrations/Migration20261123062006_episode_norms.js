'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261123062006_episode_norms extends Migration {

  async up() {
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
  }

}
exports.Migration20261123062006_episode_norms = Migration20261123062006_episode_norms;
