'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261127173040_erasure extends Migration {

  async up() {
    this.addSql(`create table "erasures" ("id" uuid not null, "org_id" uuid not null, "created_at" timestamptz not null default now(), "api_key_id" uuid null, "operation" text not null, "selector" jsonb not null, "target_ids" text[] null, "target_keys" text[] null, "dry_run" boolean not null, "counts" jsonb not null, constraint "erasures_pkey" primary key ("id"));`);
    this.addSql(`create index "erasures_targets" on "erasures" using gin ("org_id", "target_ids");`);
    this.addSql(`create index "erasures_org_id_created_at_id_index" on "erasures" ("org_id", "created_at", "id");`);

    this.addSql(`create table "fact_versions" ("id" uuid not null, "org_id" uuid not null, "created_at" timestamptz not null default now(), "fact_id" uuid not null, "seq" bigint not null, "bank_id" text not null, "text" text not null, "kind" text null, "value" text null, "status" text not null, "embedding" double precision[] null, "embedding_norm_sq" double precision generated always as (sum_of_squares(embedding)) stored null, "embedding_model" text null, "text_tsv" tsvector generated always as (to_tsvector('english'::regconfig, text)) stored not null, "superseded_by" uuid null, "valid_from" timestamptz null, "valid_to" timestamptz null, "version_from" timestamptz not null, "written_by" uuid null, "changed_by" uuid null, "changed" text[] not null, constraint "fact_versions_pkey" primary key ("id"));`);
    this.addSql(`create index "fact_versions_lexical" on "fact_versions" using gin ("org_id", "bank_id", "text_tsv");`);
    this.addSql(`create index "fact_versions_bank_seq" on "fact_versions" ("org_id", "bank_id", "seq");`);
    this.addSql(`create index "fact_versions_fact_id_created_at_index" on "fact_versions" ("fact_id", "created_at");`);

    this.addSql(`alter table "facts" add column "superseded_by" uuid null, add column "valid_from" timestamptz null, add column "valid_to" timestamptz null, add column "version_at" timestamptz null, add column "updated_by" uuid null;`);
    this.addSql(`alter table "facts" add constraint facts_validity check (valid_to > valid_from);`);

    // every change of what a fact says keeps the version before it, whoever writes (one row per fact changed)
    this.addSql(`create or replace function keep_fact_version() returns trigger language plpgsql as $$
      declare
        changed text[];
      begin
        changed := array_remove(array[
          case when new.text is distinct from old.text then 'text' end,
          case when new.value is distinct from old.value then 'value' end,
          case when new.status is distinct from old.status then 'status' end,
          case when new.kind is distinct from old.kind then 'kind' end,
          case when new.embedding is distinct from old.embedding then 'embedding' end,
          case when new.bank_id is distinct from old.bank_id then 'bankId' end,
          case when new.valid_from is distinct from old.valid_from then 'validFrom' end,
          case when new.valid_to is distinct from old.valid_to then 'validTo' end,
          case when new.superseded_by is distinct from old.superseded_by then 'supersededBy' end], null);
        if cardinality(changed) = 0 then
          return new;
        end if;
        insert into fact_versions (id, org_id, created_at, fact_id, seq, bank_id, text, kind, value, status, embedding, embedding_model,
                                   superseded_by, valid_from, valid_to, version_from, written_by, changed_by, changed)
        values (gen_random_uuid(), old.org_id, now(), old.id, old.seq, old.bank_id, old.text, old.kind, old.value, old.status, old.embedding,
                old.embedding_model, old.superseded_by, old.valid_from, old.valid_to, coalesce(old.version_at, old.created_at), old.updated_by,
                new.updated_by, changed);
        new.version_at := now();
        return new;
      end $$;`);
    this.addSql(`create trigger "facts_keep_version" before update on "facts" for each row execute function keep_fact_version();`);
  }

  async down() {
    this.addSql(`drop trigger if exists "facts_keep_version" on "facts";`);
    this.addSql(`drop function if exists keep_fact_version();`);

    this.addSql(`drop table if exists "erasures" cascade;`);

    this.addSql(`drop table if exists "fact_versions" cascade;`);

    this.addSql(`alter table "facts" drop constraint if exists facts_validity;`);
    this.addSql(`alter table "facts" drop column "superseded_by", drop column "valid_from", drop column "valid_to", drop column "version_at", drop column "updated_by";`);
  }

}
exports.Migration20261127173040_erasure = Migration20261127173040_erasure;
