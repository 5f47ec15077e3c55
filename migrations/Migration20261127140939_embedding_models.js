'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261127140939_embedding_models extends Migration {

  async up() {
    this.addSql(`alter table "episodes" add column "embedding_model" text null, add column "embedding_next" double precision[] null;`);

    this.addSql(`alter table "facts" add column "embedding_model" text null, add column "embedding_next" double precision[] null;`);

    this.addSql(`alter table "fact_query_contexts" add column "embedding_model" text null, add column "embedding_next" double precision[] null;`);

    // every vector stored so far came from a client
    this.addSql(`update "episodes" set "embedding_model" = 'client' where "embedding" is not null;`);
    this.addSql(`update "facts" set "embedding_model" = 'client' where "embedding" is not null;`);
    this.addSql(`update "fact_query_contexts" set "embedding_model" = 'client' where "query_embedding" is not null;`);
  }

  async down() {
    this.addSql(`alter table "episodes" drop column "embedding_model", drop column "embedding_next";`);

    this.addSql(`alter table "fact_query_contexts" drop column "embedding_model", drop column "embedding_next";`);

    this.addSql(`alter table "facts" drop column "embedding_model", drop column "embedding_next";`);
  }

}
exports.Migration20261127140939_embedding_models = Migration20261127140939_embedding_models;
