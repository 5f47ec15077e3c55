'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261127140941_segment_terms extends Migration {

  async up() {
    this.addSql(`alter table "episode_segments" add column "terms" tsvector null, add column "term_count" int generated always as (length(terms)) stored null;`);

    // the distinct words of a text over 512 bytes as the server splits them (src/modules/shared/segment-terms.ts):
    // lower-cased and split on JavaScript's whitespace, a word over 2047 bytes as a space and its SHA-256.
    // Exact for ASCII text only (PostgreSQL lower-cases other letters unlike JavaScript): other text gets
    // null and is read whole, as every text of at most 512 bytes is; the server writes terms for all it inserts
    this.addSql(`create or replace function segment_terms(content text) returns tsvector language sql immutable strict parallel safe as $$
      select case when octet_length(content) <= 512 or content ~ '[^\\x01-\\x7f]' then null
                  else (select array_to_tsvector(coalesce(array_agg(distinct case when octet_length(w) > 2047
                                                                             then ' ' || encode(sha256(convert_to(w, 'UTF8')), 'hex')
                                                                             else w end), '{}'))
                          from regexp_split_to_table(lower(content collate "C"), '[\\t\\n\\v\\f\\r ]+') as w
                         where w <> '')
             end $$;`);
    // rows written by SQL (imports, seeds) get their terms too; a changed text gets new ones
    this.addSql(`create or replace function fill_segment_terms() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          if new.terms is null then new.terms := segment_terms(new.content); end if;
        elsif new.content is distinct from old.content and new.terms is not distinct from old.terms then
          new.terms := segment_terms(new.content);
        end if;
        return new;
      end $$;`);
    this.addSql(`create trigger "episode_segments_terms" before insert or update on "episode_segments" for each row execute function fill_segment_terms();`);
    this.addSql(`update "episode_segments" set "terms" = segment_terms("content") where octet_length("content") > 512;`);
  }

  async down() {
    this.addSql(`drop trigger if exists "episode_segments_terms" on "episode_segments";`);
    this.addSql(`drop function if exists fill_segment_terms();`);
    this.addSql(`drop function if exists segment_terms(text);`);
    this.addSql(`alter table "episode_segments" drop column "term_count";`);
    this.addSql(`alter table "episode_segments" drop column "terms";`);
  }

}
exports.Migration20261127140941_segment_terms = Migration20261127140941_segment_terms;
