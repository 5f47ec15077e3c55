'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261122113953_domain extends Migration {

  async up() {
    this.addSql(`create table "canvas_audits" ("id" uuid not null, "org_id" uuid not null, "created_at" timestamptz not null default now(), "agent_id" text not null, "session_id" text null, "episode_id" uuid null, "canvas_id" text null, "canvas_type" text not null, "component_type" text null, "action" text not null, "metadata" jsonb null, constraint "canvas_audits_pkey" primary key ("id"));`);
    this.addSql(`create index "canvas_audits_org_id_agent_id_session_id_created_at_index" on "canvas_audits" ("org_id", "agent_id", "session_id", "created_at");`);
    this.addSql(`create index "canvas_audits_org_id_agent_id_canvas_type_created_at_index" on "canvas_audits" ("org_id", "agent_id", "canvas_type", "created_at");`);
    this.addSql(`create index "canvas_audits_org_id_episode_id_created_at_index" on "canvas_audits" ("org_id", "episode_id", "created_at");`);
    this.addSql(`create index "canvas_audits_org_id_created_at_id_index" on "canvas_audits" ("org_id", "created_at", "id");`);

    this.addSql(`create table "episodes" ("id" uuid not null, "org_id" uuid not null, "created_at" timestamptz not null default now(), "agent_id" text not null, "session_id" text null, "title" text null, "task" text null, "intent" text null, "topic" text null, "blueprint" text null, "ended_at" timestamptz null, "execution_ids" text[] not null default '{}', "generation_config" jsonb null, "metadata" jsonb null, "embedding" double precision[] null, "canvas_action_count" int not null default 0, "feedback_count" int not null default 0, "feedback_score_sum" double precision not null default 0, "feedback_score_count" int not null default 0, "overall_score" double precision null, "accepted" boolean null, "updated_at" timestamptz not null default now(), constraint "episodes_pkey" primary key ("id"));`);
    this.addSql(`create index "episodes_org_id_accepted_created_at_index" on "episodes" ("org_id", "accepted", "created_at");`);
    this.addSql(`create index "episodes_org_id_intent_index" on "episodes" ("org_id", "intent");`);
    this.addSql(`create index "episodes_org_id_topic_created_at_index" on "episodes" ("org_id", "topic", "created_at");`);
    this.addSql(`create index "episodes_org_id_session_id_index" on "episodes" ("org_id", "session_id");`);
    this.addSql(`create index "episodes_org_id_agent_id_session_id_created_at_index" on "episodes" ("org_id", "agent_id", "session_id", "created_at");`);
    this.addSql(`create index "episodes_org_id_agent_id_created_at_index" on "episodes" ("org_id", "agent_id", "created_at");`);
    this.addSql(`create index "episodes_org_id_created_at_id_index" on "episodes" ("org_id", "created_at", "id");`);

    this.addSql(`create table "episode_facts" ("episode_id" uuid not null, "fact_id" uuid not null, "org_id" uuid not null, "created_at" timestamptz not null default now(), constraint "episode_facts_pkey" primary key ("episode_id", "fact_id"));`);
    this.addSql(`create index "episode_facts_org_id_episode_id_created_at_index" on "episode_facts" ("org_id", "episode_id", "created_at");`);
    this.addSql(`create index "episode_facts_org_id_fact_id_index" on "episode_facts" ("org_id", "fact_id");`);

    this.addSql(`create table "episode_outputs" ("id" uuid not null, "org_id" uuid not null, "created_at" timestamptz not null default now(), "episode_id" uuid not null, "kind" text not null, "content" jsonb not null, "difficulty" text null, "quality_score" double precision null, "regeneration_round" int not null default 0, "updated_at" timestamptz not null default now(), constraint "episode_outputs_pkey" primary key ("id"));`);
    this.addSql(`create index "episode_outputs_org_id_episode_id_created_at_index" on "episode_outputs" ("org_id", "episode_id", "created_at");`);

    this.addSql(`create table "facts" ("id" uuid not null, "org_id" uuid not null, "created_at" timestamptz not null default now(), "bank_id" text not null, "text" text not null default '', "kind" text null, "external_id" text null, "scope" text null, "key" text null, "value" text null, "status" text not null default 'SUGGESTED', "confidence" double precision not null default 0.5, "support_count" int not null default 0, "embedding" double precision[] null, "usefulness" double precision not null default 0.5, "signal_count" int not null default 0, "last_signal_at" timestamptz null, "last_used_at" timestamptz null, "updated_at" timestamptz not null default now(), constraint "facts_pkey" primary key ("id"));`);
    this.addSql(`create index "facts_org_id_bank_id_created_at_index" on "facts" ("org_id", "bank_id", "created_at");`);
    this.addSql(`create index "facts_org_id_created_at_id_index" on "facts" ("org_id", "created_at", "id");`);
    this.addSql(`create unique index "facts_mapping_unique" on "facts" ("org_id", "scope", "key") where "bank_id" = 'mappings';`);
    this.addSql(`alter table "facts" add constraint "facts_org_id_external_id_unique" unique ("org_id", "external_id");`);

    this.addSql(`create table "feedback" ("id" uuid not null, "org_id" uuid not null, "created_at" timestamptz not null default now(), "episode_id" uuid null, "agent_id" text null, "session_id" text null, "execution_id" text null, "actor_id" uuid not null, "actor_user_id" text null, "feedback_type" text not null, "rating" smallint null, "score" double precision null, "corrections" text null, "event_type" text null, "entity_type" text null, "entity_id" text null, "document_id" text null, "layout_fingerprint" text null, "before" jsonb null, "after" jsonb null, "meta" jsonb null, "accepted" boolean null, "reason" text null, constraint "feedback_pkey" primary key ("id"));`);
    this.addSql(`create index "feedback_org_id_layout_fingerprint_created_at_index" on "feedback" ("org_id", "layout_fingerprint", "created_at");`);
    this.addSql(`create index "feedback_org_id_event_type_created_at_index" on "feedback" ("org_id", "event_type", "created_at");`);
    this.addSql(`create index "feedback_org_id_feedback_type_created_at_index" on "feedback" ("org_id", "feedback_type", "created_at");`);
    this.addSql(`create index "feedback_org_id_agent_id_session_id_created_at_index" on "feedback" ("org_id", "agent_id", "session_id", "created_at");`);
    this.addSql(`create index "feedback_org_id_agent_id_created_at_index" on "feedback" ("org_id", "agent_id", "created_at");`);
    this.addSql(`create index "feedback_org_id_episode_id_created_at_index" on "feedback" ("org_id", "episode_id", "created_at");`);
    this.addSql(`create index "feedback_org_id_created_at_id_index" on "feedback" ("org_id", "created_at", "id");`);

    this.addSql(`create table "episode_segments" ("id" uuid not null, "org_id" uuid not null, "created_at" timestamptz not null default now(), "episode_id" uuid not null, "seq" int not null, "role" text not null, "content" text not null, "token_estimate" int not null, constraint "episode_segments_pkey" primary key ("id"));`);
    this.addSql(`create index "episode_segments_org_id_episode_id_seq_index" on "episode_segments" ("org_id", "episode_id", "seq");`);
    this.addSql(`alter table "episode_segments" add constraint "episode_segments_episode_id_seq_unique" unique ("episode_id", "seq");`);
  }

  async down() {
    this.addSql(`drop table if exists "canvas_audits" cascade;`);

    this.addSql(`drop table if exists "episodes" cascade;`);

    this.addSql(`drop table if exists "episode_facts" cascade;`);

    this.addSql(`drop table if exists "episode_outputs" cascade;`);

    this.addSql(`drop table if exists "facts" cascade;`);

    this.addSql(`drop table if exists "feedback" cascade;`);

    this.addSql(`drop table if exists "episode_segments" cascade;`);
  }

}
exports.Migration20261122113953_domain = Migration20261122113953_domain;
