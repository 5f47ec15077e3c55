// Generated from the migrated database by `npm run tables:emit`; a test fails when it drifts.
import type { ColumnType } from 'kysely';

/** A column with a default: optional on insert. */
export type Generated<T> = T extends ColumnType<infer S, infer I, infer U> ? ColumnType<S, I | undefined, U> : ColumnType<T, T | undefined, T>;
/** timestamp / timestamptz / date: text as the database prints it (ISO 8601 when read through JSON). */
export type Timestamp = ColumnType<string, string | Date, string | Date>;
/** bigint / numeric: text, or a number when read through JSON. */
export type BigNumber = ColumnType<string | number, string | number, string | number>;
/** json / jsonb: the parsed value. */
export type Json = ColumnType<unknown, string, string>;

export interface ApiKeysTable {
  id: string;
  org_id: string;
  created_at: Generated<Timestamp>;
  name: string;
  role: string;
  token_hash: string;
  token_prefix: string;
  revoked_at: Timestamp | null;
}

export interface CanvasAuditsTable {
  id: string;
  org_id: string;
  created_at: Generated<Timestamp>;
  agent_id: string;
  session_id: string | null;
  episode_id: string | null;
  canvas_id: string | null;
  canvas_type: string;
  component_type: string | null;
  action: string;
  metadata: Json | null;
}

export interface ChangeLogTable {
  id: Generated<BigNumber>;
  org_id: string;
  topic: string;
  xid: BigNumber;
  keys: string[];
  created_at: Generated<Timestamp>;
}

export interface DocumentsTable {
  id: string;
  org_id: string;
  created_at: Generated<Timestamp>;
  document_id: string;
  layout_fingerprint: string;
  page_count: number;
  page_dimensions: Json;
  table_count: number;
  text_coverage_ratio: number;
  extraction_confidence: number | null;
  updated_at: Generated<Timestamp>;
}

export interface EpisodeFactsTable {
  episode_id: string;
  fact_id: string;
  org_id: string;
  created_at: Generated<Timestamp>;
}

export interface EpisodeOutputsTable {
  id: string;
  org_id: string;
  created_at: Generated<Timestamp>;
  episode_id: string;
  kind: string;
  content: Json;
  difficulty: string | null;
  quality_score: number | null;
  regeneration_round: Generated<number>;
  updated_at: Generated<Timestamp>;
}

export interface EpisodeSegmentsTable {
  id: string;
  org_id: string;
  created_at: Generated<Timestamp>;
  episode_id: string;
  seq: number;
  role: string;
  content: string;
  token_estimate: number;
  terms: string | null;
  term_count: number | null;
}

export interface EpisodesTable {
  id: string;
  org_id: string;
  created_at: Generated<Timestamp>;
  agent_id: string;
  session_id: string | null;
  title: string | null;
  task: string | null;
  intent: string | null;
  topic: string | null;
  blueprint: string | null;
  ended_at: Timestamp | null;
  execution_ids: Generated<string[]>;
  generation_config: Json | null;
  metadata: Json | null;
  embedding: number[] | null;
  canvas_action_count: Generated<number>;
  feedback_count: Generated<number>;
  feedback_score_sum: Generated<number>;
  feedback_score_count: Generated<number>;
  overall_score: number | null;
  accepted: boolean | null;
  updated_at: Generated<Timestamp>;
  embedding_norm_sq: number | null;
  embedding_model: string | null;
  embedding_next: number[] | null;
}

export interface ErasuresTable {
  id: string;
  org_id: string;
  created_at: Generated<Timestamp>;
  api_key_id: string | null;
  operation: string;
  selector: Json;
  target_ids: string[] | null;
  target_keys: string[] | null;
  dry_run: boolean;
  counts: Json;
}

export interface FactEmbeddingDimensionsTable {
  org_id: string;
  dimension: number;
  created_at: Generated<Timestamp>;
}

export interface FactQueryContextsTable {
  id: string;
  org_id: string;
  created_at: Generated<Timestamp>;
  fact_id: string;
  query: string;
  normalized_query: string;
  query_embedding: number[] | null;
  usefulness: Generated<number>;
  signal_count: Generated<number>;
  last_signal_at: Timestamp | null;
  query_embedding_norm_sq: number | null;
  embedding_model: string | null;
  embedding_next: number[] | null;
}

export interface FactSignalsTable {
  id: string;
  org_id: string;
  created_at: Generated<Timestamp>;
  fact_id: string;
  context_id: string;
  signal_type: string;
  confidence: number;
  delta: number;
  query: string;
  context: string | null;
  actor_id: string | null;
  ord: Generated<number>;
  source: string | null;
  feedback_id: string | null;
  episode_id: string | null;
  trace_id: string | null;
  credit_key: string | null;
}

export interface FactVersionsTable {
  id: string;
  org_id: string;
  created_at: Generated<Timestamp>;
  fact_id: string;
  seq: BigNumber;
  bank_id: string;
  text: string;
  kind: string | null;
  value: string | null;
  status: string;
  embedding: number[] | null;
  embedding_norm_sq: number | null;
  embedding_model: string | null;
  text_tsv: string;
  superseded_by: string | null;
  valid_from: Timestamp | null;
  valid_to: Timestamp | null;
  version_from: Timestamp;
  written_by: string | null;
  changed_by: string | null;
  changed: string[];
}

export interface FactsTable {
  id: string;
  org_id: string;
  created_at: Generated<Timestamp>;
  bank_id: string;
  text: Generated<string>;
  kind: string | null;
  external_id: string | null;
  scope: string | null;
  key: string | null;
  value: string | null;
  status: Generated<string>;
  confidence: Generated<number>;
  support_count: Generated<number>;
  embedding: number[] | null;
  usefulness: Generated<number>;
  signal_count: Generated<number>;
  last_signal_at: Timestamp | null;
  last_used_at: Timestamp | null;
  updated_at: Generated<Timestamp>;
  embedding_norm_sq: number | null;
  text_tsv: string;
  embedding_model: string | null;
  embedding_next: number[] | null;
  seq: Generated<BigNumber>;
  superseded_by: string | null;
  valid_from: Timestamp | null;
  valid_to: Timestamp | null;
  version_at: Timestamp | null;
  updated_by: string | null;
}

export interface FeedbackTable {
  id: string;
  org_id: string;
  created_at: Generated<Timestamp>;
  episode_id: string | null;
  agent_id: string | null;
  session_id: string | null;
  execution_id: string | null;
  actor_id: string;
  actor_user_id: string | null;
  feedback_type: string;
  rating: number | null;
  score: number | null;
  corrections: string | null;
  event_type: string | null;
  entity_type: string | null;
  entity_id: string | null;
  document_id: string | null;
  layout_fingerprint: string | null;
  before: Json | null;
  after: Json | null;
  meta: Json | null;
  accepted: boolean | null;
  reason: string | null;
  changed_fields: string[] | null;
}

export interface IdempotencyKeysTable {
  org_id: string;
  key: string;
  operation: string;
  request_hash: string;
  result: Json | null;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
}

export interface LayoutProfilesTable {
  id: string;
  org_id: string;
  created_at: Generated<Timestamp>;
  layout_fingerprint: string;
  seen_count: Generated<number>;
  last_seen_at: Generated<Timestamp>;
  stats: Generated<Json>;
  updated_at: Generated<Timestamp>;
}

export interface LearningEventCountsTable {
  org_id: string;
  day: Timestamp;
  kind: string;
  key_hash: string;
  key: string;
  count: number;
}

export interface MemoryTracesTable {
  id: string;
  org_id: string;
  episode_id: string;
  created_at: Generated<Timestamp>;
  operation: string;
  seq: number | null;
  query: string | null;
  query_embedding: number[] | null;
  strategy: string | null;
  mode: string | null;
  budget: number | null;
  items: Json;
  span_id: string | null;
}

export interface OrgCreditSettingsTable {
  org_id: string;
  enabled: boolean | null;
  used_confidence: number | null;
  ignored_confidence: number | null;
  feedback_confidence: number | null;
  max_facts_per_event: number | null;
}

export interface OrgOtlpSettingsTable {
  org_id: string;
  memory_tools: Generated<string[]>;
}

export interface OrgQuotasTable {
  org_id: string;
  max_rows: BigNumber | null;
  max_bytes: BigNumber | null;
}

export interface OrgUsageTable {
  org_id: string;
  stripe: number;
  episode_rows: Generated<BigNumber>;
  episode_bytes: Generated<BigNumber>;
  segment_rows: Generated<BigNumber>;
  segment_bytes: Generated<BigNumber>;
  fact_rows: Generated<BigNumber>;
  fact_bytes: Generated<BigNumber>;
}

export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: Generated<Timestamp>;
  name_skeleton: string | null;
}

export interface OtlpEpisodesTable {
  org_id: string;
  trace_id: string;
  anchor: string;
  episode_id: string;
}

export interface OtlpSpansTable {
  org_id: string;
  trace_id: string;
  span_id: string;
  record: Json;
}

export interface OtlpTracesTable {
  org_id: string;
  trace_id: string;
  last_span_at: Generated<Timestamp>;
}

/** Every table, by name. */
export interface Tables {
  api_keys: ApiKeysTable;
  canvas_audits: CanvasAuditsTable;
  change_log: ChangeLogTable;
  documents: DocumentsTable;
  episode_facts: EpisodeFactsTable;
  episode_outputs: EpisodeOutputsTable;
  episode_segments: EpisodeSegmentsTable;
  episodes: EpisodesTable;
  erasures: ErasuresTable;
  fact_embedding_dimensions: FactEmbeddingDimensionsTable;
  fact_query_contexts: FactQueryContextsTable;
  fact_signals: FactSignalsTable;
  fact_versions: FactVersionsTable;
  facts: FactsTable;
  feedback: FeedbackTable;
  idempotency_keys: IdempotencyKeysTable;
  layout_profiles: LayoutProfilesTable;
  learning_event_counts: LearningEventCountsTable;
  memory_traces: MemoryTracesTable;
  org_credit_settings: OrgCreditSettingsTable;
  org_otlp_settings: OrgOtlpSettingsTable;
  org_quotas: OrgQuotasTable;
  org_usage: OrgUsageTable;
  organizations: OrganizationsTable;
  otlp_episodes: OtlpEpisodesTable;
  otlp_spans: OtlpSpansTable;
  otlp_traces: OtlpTracesTable;
}
