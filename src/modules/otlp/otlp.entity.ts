import { Entity, Index, type Opt, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A GenAI span received over OTLP, as the fields the episode mapping reads (never the raw span),
 * kept while its trace is open: an episode is rebuilt from all of its trace's spans whenever a new
 * one arrives, so spans may come in any order and any number of exports. Keyed by trace and span
 * id: a span sent again is not stored again.
 */
@Entity({ tableName: 'otlp_spans' })
export class OtlpSpan {
  @PrimaryKey({ type: 'uuid' })
  orgId!: string;

  @PrimaryKey({ type: 'text' })
  traceId!: string;

  @PrimaryKey({ type: 'text' })
  spanId!: string;

  @Property({ type: 'jsonb' })
  record!: Record<string, unknown>;
}

/**
 * A trace that is still open: its spans are kept until no span of it arrived for the trace window
 * (OTLP_TRACE_WINDOW_MINUTES); then the spans and this row are deleted and the trace is closed.
 */
@Entity({ tableName: 'otlp_traces' })
@Index({ properties: ['lastSpanAt'] })
export class OtlpTrace {
  @PrimaryKey({ type: 'uuid' })
  orgId!: string;

  @PrimaryKey({ type: 'text' })
  traceId!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  lastSpanAt: Opt<Date> = new Date();
}

/**
 * The episode made of one agent invocation of a trace: `anchor` is '' for the trace's first agent
 * (or the whole trace when it has no `invoke_agent` span), else the span id of the invocation. Kept
 * after the trace closes: a trace with episodes but no open row is closed, and late spans of it
 * are ignored.
 */
@Entity({ tableName: 'otlp_episodes' })
@Index({ properties: ['orgId', 'episodeId'] })
export class OtlpEpisode {
  @PrimaryKey({ type: 'uuid' })
  orgId!: string;

  @PrimaryKey({ type: 'text' })
  traceId!: string;

  @PrimaryKey({ type: 'text' })
  anchor!: string;

  @Property({ type: 'uuid' })
  episodeId!: string;
}

/**
 * An organization's OTLP settings. `memoryTools`: names of the tools that are its memory: an
 * `execute_tool` span of one of them whose result carries fact ids becomes a memory trace, as a
 * retrieval span does. Set with the CLI (`set-memory-tools`), like credit settings.
 */
@Entity({ tableName: 'org_otlp_settings' })
export class OrgOtlpSettings {
  @PrimaryKey({ type: 'uuid' })
  orgId!: string;

  @Property({ type: 'text[]', defaultRaw: `'{}'` })
  memoryTools: Opt<string[]> = [];
}
