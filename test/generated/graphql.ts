/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** What happened on a canvas. */
export type CanvasAction =
  /** The user closed it. */
  | 'CLOSE'
  /** Something on it was run. */
  | 'EXECUTE'
  /** The canvas was shown. */
  | 'PRESENT'
  /** The user submitted it. */
  | 'SUBMIT'
  /** Its content changed. */
  | 'UPDATE';

/** One action on a canvas. */
export type CanvasActionInput = {
  /** What happened. */
  action: CanvasAction;
  /** The agent (<= 200 characters). */
  agentId: string;
  /** The canvas instance (<= 200 characters). */
  canvasId?: string | null | undefined;
  /** Canvas type: a lower-case identifier of at most 64 characters. */
  canvasType: string;
  /** Component on the canvas (<= 200 characters). */
  componentType?: string | null | undefined;
  /** The episode to link to. */
  episodeId?: string | number | null | undefined;
  /** Repeat-safe key (<= 128 characters). */
  idempotencyKey?: string | null | undefined;
  /** Free-form metadata (JSON object, <= 10 KB). */
  metadata?: Record<string, unknown> | null | undefined;
  /** When it happened (importers; at most 5 minutes in the future); default now. */
  occurredAt?: string | null | undefined;
  /** The session; without `episodeId`, the action links to the latest episode of this agent and session. */
  sessionId?: string | null | undefined;
};

/** Which canvas audits to list. All conditions must hold. */
export type CanvasAuditFilter = {
  /** Only this action. */
  action?: CanvasAction | null | undefined;
  /** Only this agent. */
  agentId?: string | null | undefined;
  /** Only this canvas type. */
  canvasType?: string | null | undefined;
  /** Only this episode. */
  episodeId?: string | number | null | undefined;
  /** Only this session. */
  sessionId?: string | null | undefined;
  /** Only within this range back from now: "24h", "7d", "4w". */
  timeRange?: string | null | undefined;
};

/** An operator correction event (stored as CORRECTION feedback). */
export type CorrectionInput = {
  /** The caller's own user id. */
  actorUserId?: string | null | undefined;
  /** State after (JSON object). */
  after: Record<string, unknown>;
  /** The agent. */
  agentId?: string | null | undefined;
  /** State before (JSON object). */
  before: Record<string, unknown>;
  /** Free-text corrections (<= 4,000 characters). */
  corrections?: string | null | undefined;
  /** The document; its recorded layout fingerprint is taken. */
  documentId?: string | null | undefined;
  /** Id of the entity corrected. */
  entityId?: string | null | undefined;
  /** Kind of entity corrected. */
  entityType?: string | null | undefined;
  /** The episode. */
  episodeId?: string | number | null | undefined;
  /** Event type, UPPER_SNAKE_CASE (<= 64), e.g. EXTRACTION_FIELD_CORRECTED. */
  eventType: string;
  /** The execution. */
  executionId?: string | null | undefined;
  /** Repeat-safe key (<= 128 characters). */
  idempotencyKey?: string | null | undefined;
  /** Layout fingerprint (64 lower-case hex) when the document has none recorded. */
  layoutFingerprint?: string | null | undefined;
  /** Extra data, e.g. `input_snippet` for few-shot examples. */
  meta?: Record<string, unknown> | null | undefined;
  /** When it happened; default now. */
  occurredAt?: string | null | undefined;
  /** The session. */
  sessionId?: string | null | undefined;
};

/** The layout of a processed document. */
export type DocumentLayoutInput = {
  /** The caller's document id (<= 200 characters); recording it again does not count it twice. */
  documentId: string;
  /** Confidence of the extraction, 0..1 (kept for the trend). */
  extractionConfidence?: number | null | undefined;
  /** Repeat-safe key (<= 128 characters). */
  idempotencyKey?: string | null | undefined;
  /** Pages (>= 0). */
  pageCount: number;
  /** Per page, [width, height] in points (positive numbers). */
  pageDimensions: Array<Array<number>>;
  /** Tables found (>= 0). */
  tableCount: number;
  /** Share of the page area covered by text, 0..1. */
  textCoverageRatio: number;
};

/** Which episodes to list. All conditions must hold. */
export type EpisodeFilter = {
  /** Only judged accepted (true) or rejected (false). */
  accepted?: boolean | null | undefined;
  /** Only this agent. */
  agentId?: string | null | undefined;
  /** With at least one canvas action of this kind (and of `canvasType`, when given). */
  canvasAction?: CanvasAction | null | undefined;
  /** With at least one canvas action of this canvas type. */
  canvasType?: string | null | undefined;
  /** Created at or after this time. */
  createdAfter?: string | null | undefined;
  /** Created before this time. */
  createdBefore?: string | null | undefined;
  /** That used this fact. */
  factId?: string | number | null | undefined;
  /** With (true) or without (false) canvas actions. */
  hasCanvas?: boolean | null | undefined;
  /** Only this intent. */
  intent?: string | null | undefined;
  /** Aggregate feedback score at most this (episodes without scored feedback are left out). */
  maxFeedbackScore?: number | null | undefined;
  /** Aggregate feedback score at least this (episodes without scored feedback are left out). */
  minFeedbackScore?: number | null | undefined;
  /** Only this session. */
  sessionId?: string | null | undefined;
  /** Created within this range back from now: "24h", "7d", "4w". */
  timeRange?: string | null | undefined;
  /** Only this topic. */
  topic?: string | null | undefined;
};

/** Whom an erasure is about; every field given must match (at least one is required). */
export type ErasureSelector = {
  /** An agent: its episodes, feedback, canvas actions, and the facts of its bank (the agent id). */
  agentId?: string | null | undefined;
  /** A memory bank: its facts. */
  bankId?: string | null | undefined;
  /** A metadata key the organization uses for its end users (e.g. userId): episodes, feedback and canvas actions whose metadata has it. */
  metadataKey?: string | null | undefined;
  /** The value metadataKey must have. */
  metadataValue?: string | null | undefined;
  /** A session: its episodes, feedback and canvas actions. */
  sessionId?: string | null | undefined;
};

/** Which facts to list; all conditions must hold. */
export type FactFilter = {
  /** Only facts of this memory bank. */
  bankId?: string | null | undefined;
  /** Only the fact with this external id. */
  externalId?: string | null | undefined;
  /** Also list superseded facts and facts outside their validity (left out by default). */
  includeSuperseded?: boolean;
  /** Only facts of this kind. */
  kind?: string | null | undefined;
  /** Only facts whose usefulness (decayed to now) is at most this, 0..1. */
  maxUsefulness?: number | null | undefined;
  /** Only facts whose usefulness (decayed to now) is at least this, 0..1. */
  minUsefulness?: number | null | undefined;
  /** With bankId: answer NOT_FOUND (field filter.bankId) rather than an empty first page when the organization has no fact in that bank (one the bank list would not show). */
  requireBank?: boolean;
  /** Only mappings of this scope. */
  scope?: string | null | undefined;
  /** Only facts in one of these states. */
  statuses?: Array<FactStatus> | null | undefined;
  /** Only facts whose text matches these words (English stems, web-search syntax: "a phrase", -excluded, or), 1..200 characters. */
  text?: string | null | undefined;
};

/** A fact to create, or to update when a fact with its externalId exists. */
export type FactInput = {
  /** The memory bank (usually an agent id), 1..200 characters. */
  bankId: string;
  /** Embedding; its dimension must match the organization's other fact embeddings. Kept when omitted on an update. */
  embedding?: Array<number> | null | undefined;
  /** Your id for the fact (unique per organization); without it a new fact is created. */
  externalId?: string | null | undefined;
  /** Mappings: the key; kept when omitted on an update. */
  key?: string | null | undefined;
  /** Kind of fact; kept when omitted on an update. */
  kind?: string | null | undefined;
  /** Mappings: the scope; kept when omitted on an update. */
  scope?: string | null | undefined;
  /** The fact, 1 character to 8 KB. */
  text: string;
  /** When the fact starts being true; kept when omitted on an update. */
  validFrom?: string | null | undefined;
  /** When the fact stops being true (after validFrom); kept when omitted on an update. Recall leaves it out from then on. */
  validTo?: string | null | undefined;
  /** Mappings: the value; kept when omitted on an update. */
  value?: string | null | undefined;
};

/** How a page of facts is ordered. */
export type FactOrder =
  /** Most useful first: the global usefulness decayed to the first page's time (kept by its cursors), then id. */
  | 'MOST_USEFUL'
  /** Newest first (created, then id). */
  | 'NEWEST';

/** Review state of a fact or mapping. */
export type FactStatus =
  /** Confirmed by an operator. */
  | 'CONFIRMED'
  /** Rejected by an operator. */
  | 'REJECTED'
  /** Proposed, not reviewed. */
  | 'SUGGESTED';

/** Which feedback to list. All conditions must hold. */
export type FeedbackFilter = {
  /** Only this agent. */
  agentId?: string | null | undefined;
  /** Only this episode. */
  episodeId?: string | number | null | undefined;
  /** Only these event types. */
  eventTypes?: Array<string> | null | undefined;
  /** Only this layout fingerprint. */
  layoutFingerprint?: string | null | undefined;
  /** Only within this range back from now: "24h", "7d", "4w". */
  timeRange?: string | null | undefined;
  /** Only these kinds. */
  types?: Array<FeedbackType> | null | undefined;
};

/** Kind of feedback. */
export type FeedbackType =
  /** An operator confirmed something (no score unless rated). */
  | 'CONFIRMATION'
  /** An operator corrected the output (no score unless rated). */
  | 'CORRECTION'
  /** A judge's verdict (never scored); with accepted = false it is the rejection log. */
  | 'JUDGEMENT'
  /** A rating 1..5; score (rating - 3) / 2. */
  | 'RATING'
  /** An operator rejected something (no score unless rated). */
  | 'REJECTION'
  /** Score -1. */
  | 'THUMBS_DOWN'
  /** Score +1. */
  | 'THUMBS_UP';

/** Which episodes to forget. */
export type ForgetInput = {
  /** Delete episodes whose decay score is below this (0..1). */
  decayThreshold?: number;
  /** Only report what would be deleted. */
  dryRun?: boolean;
  /** Delete unaccepted episodes older than this many days (>= 0). */
  maxAgeDays?: number;
};

/** A judge's verdict on an episode. */
export type JudgeEpisodeInput = {
  /** Accepted or rejected. */
  accepted: boolean;
  /** The episode. */
  episodeId: string | number;
  /** Feedback for the agent (<= 4,000 characters). */
  judgeFeedback?: string | null | undefined;
  /** Changes to outputs of the episode. */
  outputUpdates?: Array<OutputUpdateInput> | null | undefined;
  /** Overall score 0..1. */
  overallScore?: number | null | undefined;
  /** Why (<= 4,000 characters). */
  reason?: string | null | undefined;
};

/** A mapping decision: in `scope` (e.g. a customer), `key` (their SKU) means `value` (our SKU). */
export type MappingInput = {
  /** The operator's own user id. */
  actorUserId?: string | null | undefined;
  /** Key, e.g. the customer SKU (<= 200 characters). */
  key: string;
  /** Scope, e.g. the customer id (<= 200 characters). */
  scope: string;
  /** Value, e.g. the internal SKU (<= 200 characters). */
  value: string;
};

/** What context an agent wants and how many tokens it may take. */
export type MemoryContextInput = {
  /** The agent whose episodes are drawn from. */
  agentId: string;
  /** Candidates considered: the earliest 3 plus the most recent (1..10,000). */
  maxCandidates?: number;
  /** Selection policy. */
  mode?: MemoryPolicy;
  /** The question at hand; without it the relevant zone is empty. */
  query?: string | null | undefined;
  /** Only this session. */
  sessionId?: string | null | undefined;
  /** Token budget, 1..1,000,000. */
  tokenBudget: number;
};

/** Why a candidate memory was not selected. */
export type MemoryLeftOutReason =
  /** A zone reached it but it was longer than the tokens the zone had left (see `zone`, `tokensLeft`). */
  | 'DID_NOT_FIT'
  /** A zone chose it, but merging the zones in chronological order ran out of the total budget. */
  | 'MERGED_OUT'
  /** Every zone was full before its turn came (older, or less relevant, than what was chosen). */
  | 'RANKED_BELOW';

/** How memories are chosen within a token budget. */
export type MemoryPolicy =
  /** 30% earliest turns, 30% relevant, 40% recent, merged in chronological order (the foveated policy). */
  | 'FOVEATED'
  /** Half the budget relevant, half recent. */
  | 'MIXED'
  /** The newest that fit. */
  | 'RECENT'
  /** The best word overlap (Jaccard) with the query that fit. */
  | 'RELEVANT';

/** Records what a read served to an episode (see `Episode.memoryTrace`). */
export type MemoryTraceInput = {
  /** The episode the memory is for; another organization's or an unknown one is NOT_FOUND and nothing is served. */
  episodeId: string | number;
  /** The turn the memory is for (>= 0), as the caller numbers its turns. */
  seq?: number | null | undefined;
};

/** The read a memory trace recorded. */
export type MemoryTraceOperation =
  /** `memoryContext`: segments. */
  | 'MEMORY_CONTEXT'
  /** `recall`: facts. */
  | 'RECALL'
  /** `recallEpisodes`: episodes. */
  | 'RECALL_EPISODES';

/** The part of the policy's token budget a memory was chosen for. */
export type MemoryZone =
  /** The earliest turns (FOVEATED: 30% of the budget). */
  | 'EARLY'
  /** The newest turns (RECENT: all, MIXED: half, FOVEATED: 40%). */
  | 'RECENT'
  /** The best word overlap with the query (RELEVANT: all, MIXED: half, FOVEATED: 30%). */
  | 'RELEVANT';

/** Something an episode produced. */
export type OutputInput = {
  /** The output itself (any JSON, <= 64 KB). */
  content: unknown;
  /** Difficulty label. */
  difficulty?: string | null | undefined;
  /** Kind of output, e.g. "mcq". */
  kind: string;
  /** Quality 0..1. */
  qualityScore?: number | null | undefined;
  /** How many times it was regenerated (>= 0, default 0). */
  regenerationRound?: number | null | undefined;
};

/** A change a judge makes to one output. */
export type OutputUpdateInput = {
  /** The output (of the judged episode). */
  outputId: string | number;
  /** New quality 0..1. */
  qualityScore?: number | null | undefined;
  /** New regeneration round (>= 0). */
  regenerationRound?: number | null | undefined;
};

/** What to recall from a memory bank. */
export type RecallInput = {
  /** Recall as of this past instant: the facts valid then, with their text then, ranked the same way (strategy LEXICAL or HYBRID; usefulness is as of now). */
  asOf?: string | null | undefined;
  /** The memory bank to search. */
  bankId: string;
  /** Rank by a mix of relevance and usefulness. */
  boostByUsefulness?: boolean;
  /** Also recall superseded facts and facts outside their validity (left out by default). */
  includeSuperseded?: boolean;
  /** Only facts of these kinds. */
  kinds?: Array<string> | null | undefined;
  /** How many facts to return, 1..100. */
  limit?: number;
  /** Leave out facts whose usefulness score is below this (0..1). */
  minUsefulness?: number;
  /** The question (non-empty). */
  query: string;
  /** Embedding of the query, for cosine similarity with fact embeddings and query contexts. */
  queryEmbedding?: Array<number> | null | undefined;
  /** Only facts in these states. */
  statuses?: Array<FactStatus> | null | undefined;
  /** How relevance is judged. Default: SEMANTIC when queryEmbedding is given (the ranking of earlier versions), else HYBRID; HYBRID with asOf. */
  strategy?: RecallStrategy | null | undefined;
  /** Share of usefulness in the final score when boosting, 0..1. */
  usefulnessWeight?: number;
};

/** How recall judges how relevant a fact is to the query. */
export type RecallStrategy =
  /** Stemmed word matches (BM25) fused with embedding similarity; LEXICAL when there is no query vector. */
  | 'HYBRID'
  /** Stemmed word matches alone (BM25 over English stems, normalised to 0..1). */
  | 'LEXICAL'
  /** Embedding cosine (pg_trgm word similarity for facts without an embedding), the ranking of earlier versions. */
  | 'SEMANTIC';

/** A new episode with what it holds from the start. */
export type RecordEpisodeInput = {
  /** Importers: a verdict recorded with the episode (no JUDGEMENT feedback is written). */
  accepted?: boolean | null | undefined;
  /** The agent that did it (<= 200 characters). */
  agentId: string;
  /** Blueprint or template followed (<= 2,000 characters). */
  blueprint?: string | null | undefined;
  /** Embedding of the episode (any dimension, the same within an organization). */
  embedding?: Array<number> | null | undefined;
  /** When the episode ended. */
  endedAt?: string | null | undefined;
  /** Execution ids of the runtime (<= 100). */
  executionIds?: Array<string> | null | undefined;
  /** Facts used, by external id; unknown ones become stub facts in the bank of the agent (<= 500). */
  factExternalIds?: Array<string> | null | undefined;
  /** Facts used, by id (<= 500). */
  factIds?: Array<string | number> | null | undefined;
  /** Model and generation settings (JSON object, <= 10 KB). */
  generationConfig?: Record<string, unknown> | null | undefined;
  /** Repeat-safe key (<= 128 characters): a repeat within 24 h returns the first result. */
  idempotencyKey?: string | null | undefined;
  /** What the agent meant to do (<= 200 characters). */
  intent?: string | null | undefined;
  /** Free-form metadata (JSON object, <= 10 KB). */
  metadata?: Record<string, unknown> | null | undefined;
  /** When it happened (importers; at most 5 minutes in the future); default now. */
  occurredAt?: string | null | undefined;
  /** What the episode produced (<= 100). */
  outputs?: Array<OutputInput> | null | undefined;
  /** Importers: overall score 0..1. */
  overallScore?: number | null | undefined;
  /** Initial turns (<= 1,000), numbered from 1. */
  segments?: Array<SegmentInput> | null | undefined;
  /** Conversation or run; same-session canvas actions and feedback without an episode are linked to this one. */
  sessionId?: string | null | undefined;
  /** The input question or request (<= 20,000 characters). */
  task?: string | null | undefined;
  /** Short title (<= 500 characters). */
  title?: string | null | undefined;
  /** Subject area (<= 200 characters). */
  topic?: string | null | undefined;
};

/** What an API key may do. Every role may query; writes follow the role table of the README. */
export type Role =
  /** Everything, including API keys, forgetting and purging. */
  | 'ADMIN'
  /** Agent runtime writes: episodes, canvas actions, facts, signals, feedback. */
  | 'AGENT'
  /** Every write of agents and operators, and learning analytics. */
  | 'INTEGRATOR'
  /** Feedback, corrections, judgements and mapping decisions. */
  | 'OPERATOR'
  /** Read only. */
  | 'VIEWER';

/** One turn of an episode. */
export type SegmentInput = {
  /** What was said or done (<= 100,000 characters). */
  content: string;
  /** When the turn happened (importers); default the episode time or now. */
  occurredAt?: string | null | undefined;
  /** user, assistant, system, tool or event. */
  role: string;
  /** Tokens of the content; default ceil(characters / 4). */
  tokenEstimate?: number | null | undefined;
};

/** How useful a recalled fact was for a query. */
export type SignalInput = {
  /** Confidence in the signal, 0..1. */
  confidence?: number;
  /** Why the signal was given (free text, kept in the signal log). */
  context?: string | null | undefined;
  /** The fact. */
  factId: string | number;
  /** The query the fact was recalled for (required, non-empty): the query context of the signal. */
  query: string;
  /** Embedding of the query; queries with cosine >= 0.85 share a query context. */
  queryEmbedding?: Array<number> | null | undefined;
  /** What happened with the fact. */
  signalType: SignalType;
};

/** What the agent or user did with a recalled fact. */
export type SignalType =
  /** A user marked the fact helpful (+1.5). */
  | 'HELPFUL'
  /** The agent saw the fact but did not use it (-0.5). */
  | 'IGNORED'
  /** A user marked the fact not helpful (-1.0). */
  | 'NOT_HELPFUL'
  /** The agent referenced the fact in its response (+1.0). */
  | 'USED';

/** A rating, a thumb or free-text corrections on agent output. */
export type SubmitFeedbackInput = {
  /** The caller's own user id (<= 200 characters). */
  actorUserId?: string | null | undefined;
  /** The agent (taken from the episode when linked). */
  agentId?: string | null | undefined;
  /** Free-text corrections (<= 4,000 characters). */
  corrections?: string | null | undefined;
  /** The episode. Without it, `agentId` and `sessionId` are required: the feedback links to the latest episode of that agent and session, or to the episode recorded for them later. */
  episodeId?: string | number | null | undefined;
  /** The execution of the runtime. */
  executionId?: string | null | undefined;
  /** Kind of feedback. */
  feedbackType: FeedbackType;
  /** Repeat-safe key (<= 128 characters). */
  idempotencyKey?: string | null | undefined;
  /** When it was given (importers; at most 5 minutes in the future); default now. */
  occurredAt?: string | null | undefined;
  /** Rating 1..5: required for RATING, refused with thumbs. */
  rating?: number | null | undefined;
  /** The session. */
  sessionId?: string | null | undefined;
};

/** Where a recalled fact usefulness score came from. */
export type UsefulnessSource =
  /** No query context matched: the global score of the fact. */
  | 'GLOBAL'
  /** The score of a stored query context matching this query. */
  | 'QUERY_CONTEXT';

export type RecordCanvasActionMutationVariables = Exact<{
  input: CanvasActionInput;
}>;


export type RecordCanvasActionMutation = { recordCanvasAction: { id: string, agentId: string, sessionId: string | null, episodeId: string | null, canvasId: string | null, canvasType: string, componentType: string | null, action: CanvasAction, metadata: Record<string, unknown> | null, createdAt: string } };

export type CanvasAuditsQueryVariables = Exact<{
  filter?: CanvasAuditFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type CanvasAuditsQuery = { canvasAudits: { edges: Array<{ node: { id: string, canvasType: string, action: CanvasAction, episodeId: string | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type EpisodesByCanvasTypeQueryVariables = Exact<{
  agentId: string;
  canvasType: string;
  action?: CanvasAction | null | undefined;
  timeRange?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type EpisodesByCanvasTypeQuery = { episodesByCanvasType: Array<{ id: string, title: string | null, canvasActionCount: number }> };

export type CanvasInsightsQueryVariables = Exact<{
  agentId: string;
  timeRange?: string | null | undefined;
  quickCloseSeconds?: number | null | undefined;
}>;


export type CanvasInsightsQuery = { canvasInsights: { closesQuickly: Array<string>, engages: Array<string>, submits: Array<string>, byType: Array<{ canvasType: string, presentations: number, closes: number, submits: number, avgEngagementSeconds: number | null, avgFeedbackScore: number | null }>, byComponent: Array<{ canvasType: string, componentType: string | null, presentations: number, avgEngagementSeconds: number | null }> } };

export type EnrichedEpisodesQueryVariables = Exact<{
  first?: number | null | undefined;
  limit?: number | null | undefined;
}>;


export type EnrichedEpisodesQuery = { episodes: { edges: Array<{ node: { id: string, canvasIds: Array<string>, canvasActionCount: number, canvasContext: Array<{ id: string, canvasType: string, action: CanvasAction }>, charts: Array<{ id: string }>, segments: Array<{ seq: number, content: string }>, outputs: Array<{ kind: string }>, facts: Array<{ id: string, externalId: string | null }> } }> } };

export type EpisodeRowsQueryVariables = Exact<{
  filter?: EpisodeFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type EpisodeRowsQuery = { episodes: { edges: Array<{ node: { id: string, title: string | null, feedbackCount: number, decayScore: number, aggregateFeedbackScore: number | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type EpisodeDetailQueryVariables = Exact<{
  id: string | number;
}>;


export type EpisodeDetailQuery = { episode: { id: string, decayScore: number, overallScore: number | null, segments: Array<{ role: string }>, outputs: Array<{ id: string }>, feedbackContext: Array<{ id: string, feedbackType: FeedbackType }> } | null };

export type FactUsefulnessQueryVariables = Exact<{
  first: number;
}>;


export type FactUsefulnessQuery = { facts: { edges: Array<{ node: { id: string, usefulness: number, signalCount: number } }> } };

export type EmbeddingStatusQueryVariables = Exact<{ [key: string]: never; }>;


export type EmbeddingStatusQuery = { embeddingStatus: { provider: string, model: string | null, dimension: number | null, pendingVectors: number } };

export type EpisodeFieldsFragment = { id: string, agentId: string, sessionId: string | null, title: string | null, task: string | null, intent: string | null, topic: string | null, createdAt: string, executionIds: Array<string>, canvasActionCount: number, feedbackCount: number, aggregateFeedbackScore: number | null, overallScore: number | null, accepted: boolean | null, decayScore: number, metadata: Record<string, unknown> | null };

export type RecordEpisodeMutationVariables = Exact<{
  input: RecordEpisodeInput;
}>;


export type RecordEpisodeMutation = { recordEpisode: { id: string, agentId: string, sessionId: string | null, title: string | null, task: string | null, intent: string | null, topic: string | null, createdAt: string, executionIds: Array<string>, canvasActionCount: number, feedbackCount: number, aggregateFeedbackScore: number | null, overallScore: number | null, accepted: boolean | null, decayScore: number, metadata: Record<string, unknown> | null, segments: Array<{ seq: number, role: string, content: string, tokenEstimate: number }>, outputs: Array<{ id: string, kind: string, content: unknown, qualityScore: number | null, regenerationRound: number }>, facts: Array<{ id: string, externalId: string | null, bankId: string, text: string }> } };

export type AppendSegmentsMutationVariables = Exact<{
  episodeId: string | number;
  segments: Array<SegmentInput> | SegmentInput;
  idempotencyKey?: string | null | undefined;
}>;


export type AppendSegmentsMutation = { appendSegments: { id: string, segments: Array<{ seq: number, content: string }> } };

export type LinkSessionRecordsMutationVariables = Exact<{
  episodeId: string | number;
}>;


export type LinkSessionRecordsMutation = { linkSessionRecords: { id: string, agentId: string, sessionId: string | null, title: string | null, task: string | null, intent: string | null, topic: string | null, createdAt: string, executionIds: Array<string>, canvasActionCount: number, feedbackCount: number, aggregateFeedbackScore: number | null, overallScore: number | null, accepted: boolean | null, decayScore: number, metadata: Record<string, unknown> | null } };

export type EpisodeQueryVariables = Exact<{
  id: string | number;
}>;


export type EpisodeQuery = { episode: { id: string, agentId: string, sessionId: string | null, title: string | null, task: string | null, intent: string | null, topic: string | null, createdAt: string, executionIds: Array<string>, canvasActionCount: number, feedbackCount: number, aggregateFeedbackScore: number | null, overallScore: number | null, accepted: boolean | null, decayScore: number, metadata: Record<string, unknown> | null, segments: Array<{ seq: number, content: string }> } | null };

export type EpisodesQueryVariables = Exact<{
  filter?: EpisodeFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type EpisodesQuery = { episodes: { edges: Array<{ cursor: string, node: { id: string, agentId: string, topic: string | null, createdAt: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ErasureResultFieldsFragment = { id: string, dryRun: boolean, total: number, counts: Array<{ kind: string, count: number }> };

export type DeleteFactsMutationVariables = Exact<{
  ids?: Array<string | number> | string | number | null | undefined;
  externalIds?: Array<string> | string | null | undefined;
  bankId?: string | null | undefined;
  dryRun?: boolean | null | undefined;
}>;


export type DeleteFactsMutation = { deleteFacts: { id: string, dryRun: boolean, total: number, counts: Array<{ kind: string, count: number }> } };

export type DeleteEpisodesMutationVariables = Exact<{
  ids: Array<string | number> | string | number;
  dryRun?: boolean | null | undefined;
}>;


export type DeleteEpisodesMutation = { deleteEpisodes: { id: string, dryRun: boolean, total: number, counts: Array<{ kind: string, count: number }> } };

export type EraseSubjectMutationVariables = Exact<{
  selector: ErasureSelector;
  dryRun?: boolean | null | undefined;
}>;


export type EraseSubjectMutation = { eraseSubject: { id: string, dryRun: boolean, total: number, counts: Array<{ kind: string, count: number }> } };

export type ErasuresQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ErasuresQuery = { erasures: { edges: Array<{ node: { id: string, createdAt: string, apiKeyId: string | null, operation: string, dryRun: boolean, total: number, selector: { agentId: string | null, sessionId: string | null, bankId: string | null, metadataKey: string | null, metadataValue: string | null, ids: number, externalIds: number }, counts: Array<{ kind: string, count: number }> } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type SupersedeFactMutationVariables = Exact<{
  id: string | number;
  supersededBy?: string | number | null | undefined;
}>;


export type SupersedeFactMutation = { supersedeFact: { id: string, supersededById: string | null, validFrom: string | null, validTo: string | null } };

export type FactHistoryQueryVariables = Exact<{
  id: string | number;
}>;


export type FactHistoryQuery = { fact: { id: string, text: string, supersededById: string | null, validFrom: string | null, validTo: string | null, history: Array<{ text: string, value: string | null, status: string, kind: string | null, bankId: string, hasEmbedding: boolean, validFrom: string | null, validTo: string | null, supersededById: string | null, from: string, to: string, writtenByKeyId: string | null, changedByKeyId: string | null, changed: Array<string> }> } | null };

export type ExplainMemoryContextQueryVariables = Exact<{
  input: MemoryContextInput;
  leftOut?: number | null | undefined;
}>;


export type ExplainMemoryContextQuery = { memoryContext: { tokenEstimate: number, candidatesConsidered: number, memoriesSelected: number, entries: Array<{ id: string, content: string, tokenEstimate: number, zone: MemoryZone | null, relevance: number | null }>, leftOut: Array<{ id: string, content: string | null, tokenEstimate: number, relevance: number | null, reason: MemoryLeftOutReason, zone: MemoryZone | null, tokensLeft: number | null }> } };

export type SearchFactsQueryVariables = Exact<{
  filter?: FactFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  orderBy?: FactOrder | null | undefined;
}>;


export type SearchFactsQuery = { facts: { edges: Array<{ cursor: string, node: { id: string, bankId: string, text: string, kind: string | null, status: FactStatus, usefulness: number, signalCount: number } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type FactBanksQueryVariables = Exact<{
  first?: number | null | undefined;
}>;


export type FactBanksQuery = { factBanks: Array<{ bankId: string, facts: number, lastFactAt: string }> };

export type FactDetailQueryVariables = Exact<{
  id: string | number;
}>;


export type FactDetailQuery = { fact: { id: string, usefulness: number, lastSignalAt: string | null, signalHistory: Array<{ id: string, signalType: SignalType, confidence: number, delta: number, query: string, context: string | null, createdAt: string, source: string | null, usefulnessAfter: number }>, queryContexts: Array<{ query: string, usefulness: number, signalCount: number, lastSignalAt: string | null, embedded: boolean }> } | null };

export type RecallBreakdownQueryVariables = Exact<{
  input: RecallInput;
}>;


export type RecallBreakdownQuery = { recall: Array<{ semanticScore: number | null, lexicalScore: number | null, relevance: number, usefulnessScore: number, usefulnessSource: UsefulnessSource, finalScore: number, fact: { id: string } }> };

export type FactFieldsFragment = { id: string, bankId: string, text: string, kind: string | null, externalId: string | null, scope: string | null, key: string | null, value: string | null, status: FactStatus, confidence: number, supportCount: number, usefulness: number, signalCount: number, lastSignalAt: string | null, lastUsedAt: string | null, createdAt: string, updatedAt: string };

export type FactByIdQueryVariables = Exact<{
  id: string | number;
}>;


export type FactByIdQuery = { fact: { id: string, bankId: string, text: string, kind: string | null, externalId: string | null, scope: string | null, key: string | null, value: string | null, status: FactStatus, confidence: number, supportCount: number, usefulness: number, signalCount: number, lastSignalAt: string | null, lastUsedAt: string | null, createdAt: string, updatedAt: string } | null };

export type FactsQueryVariables = Exact<{
  filter?: FactFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type FactsQuery = { facts: { edges: Array<{ cursor: string, node: { id: string, bankId: string, text: string, kind: string | null, externalId: string | null, scope: string | null, key: string | null, value: string | null, status: FactStatus, confidence: number, supportCount: number, usefulness: number, signalCount: number, lastSignalAt: string | null, lastUsedAt: string | null, createdAt: string, updatedAt: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type UpsertFactsMutationVariables = Exact<{
  inputs: Array<FactInput> | FactInput;
  idempotencyKey?: string | null | undefined;
}>;


export type UpsertFactsMutation = { upsertFacts: Array<{ id: string, bankId: string, text: string, kind: string | null, externalId: string | null, scope: string | null, key: string | null, value: string | null, status: FactStatus, confidence: number, supportCount: number, usefulness: number, signalCount: number, lastSignalAt: string | null, lastUsedAt: string | null, createdAt: string, updatedAt: string }> };

export type SubmitSignalsMutationVariables = Exact<{
  signals: Array<SignalInput> | SignalInput;
  idempotencyKey?: string | null | undefined;
}>;


export type SubmitSignalsMutation = { submitSignals: Array<{ id: string, bankId: string, text: string, kind: string | null, externalId: string | null, scope: string | null, key: string | null, value: string | null, status: FactStatus, confidence: number, supportCount: number, usefulness: number, signalCount: number, lastSignalAt: string | null, lastUsedAt: string | null, createdAt: string, updatedAt: string }> };

export type RecallQueryVariables = Exact<{
  input: RecallInput;
}>;


export type RecallQuery = { recall: Array<{ semanticScore: number | null, lexicalScore: number | null, relevance: number, strategyUsed: RecallStrategy, usefulnessScore: number, usefulnessSource: UsefulnessSource, finalScore: number, fact: { id: string, text: string, usefulness: number } }> };

export type FailedFactsQueryVariables = Exact<{
  topN?: number | null | undefined;
}>;


export type FailedFactsQuery = { failedFacts: Array<{ rejectedEpisodeCount: number, fact: { id: string, externalId: string | null, text: string } }> };

export type FeedbackFieldsFragment = { id: string, episodeId: string | null, agentId: string | null, sessionId: string | null, actorId: string, actorUserId: string | null, feedbackType: FeedbackType, rating: number | null, score: number | null, corrections: string | null, eventType: string | null, documentId: string | null, layoutFingerprint: string | null, before: Record<string, unknown> | null, after: Record<string, unknown> | null, meta: Record<string, unknown> | null, accepted: boolean | null, reason: string | null, createdAt: string };

export type SubmitFeedbackMutationVariables = Exact<{
  input: SubmitFeedbackInput;
}>;


export type SubmitFeedbackMutation = { submitFeedback: { feedback: { id: string, episodeId: string | null, agentId: string | null, sessionId: string | null, actorId: string, actorUserId: string | null, feedbackType: FeedbackType, rating: number | null, score: number | null, corrections: string | null, eventType: string | null, documentId: string | null, layoutFingerprint: string | null, before: Record<string, unknown> | null, after: Record<string, unknown> | null, meta: Record<string, unknown> | null, accepted: boolean | null, reason: string | null, createdAt: string }, episode: { id: string, feedbackCount: number, aggregateFeedbackScore: number | null } | null } };

export type RecordCorrectionMutationVariables = Exact<{
  input: CorrectionInput;
}>;


export type RecordCorrectionMutation = { recordCorrection: { id: string, episodeId: string | null, agentId: string | null, sessionId: string | null, actorId: string, actorUserId: string | null, feedbackType: FeedbackType, rating: number | null, score: number | null, corrections: string | null, eventType: string | null, documentId: string | null, layoutFingerprint: string | null, before: Record<string, unknown> | null, after: Record<string, unknown> | null, meta: Record<string, unknown> | null, accepted: boolean | null, reason: string | null, createdAt: string } };

export type JudgeEpisodeMutationVariables = Exact<{
  input: JudgeEpisodeInput;
}>;


export type JudgeEpisodeMutation = { judgeEpisode: { id: string, accepted: boolean | null, overallScore: number | null, decayScore: number, feedbackCount: number, outputs: Array<{ id: string, qualityScore: number | null, regenerationRound: number }>, feedbackContext: Array<{ id: string, episodeId: string | null, agentId: string | null, sessionId: string | null, actorId: string, actorUserId: string | null, feedbackType: FeedbackType, rating: number | null, score: number | null, corrections: string | null, eventType: string | null, documentId: string | null, layoutFingerprint: string | null, before: Record<string, unknown> | null, after: Record<string, unknown> | null, meta: Record<string, unknown> | null, accepted: boolean | null, reason: string | null, createdAt: string }> } };

export type FeedbackPageQueryVariables = Exact<{
  filter?: FeedbackFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type FeedbackPageQuery = { feedback: { edges: Array<{ node: { id: string, feedbackType: FeedbackType, score: number | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type FeedbackEpisodesQueryVariables = Exact<{
  agentId: string;
  minFeedbackScore?: number | null | undefined;
  timeRange?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type FeedbackEpisodesQuery = { feedbackEpisodes: Array<{ id: string, aggregateFeedbackScore: number | null }> };

export type EpisodesWithFeedbackQueryVariables = Exact<{
  first?: number | null | undefined;
}>;


export type EpisodesWithFeedbackQuery = { episodes: { edges: Array<{ node: { id: string, feedbackIds: Array<string>, feedbackContext: Array<{ id: string, score: number | null }>, thumbs: Array<{ id: string }> } }> } };

export type RecallEpisodesQueryVariables = Exact<{
  agentId: string;
  query: string;
  queryEmbedding?: Array<number> | number | null | undefined;
  limit?: number | null | undefined;
}>;


export type RecallEpisodesQuery = { recallEpisodes: Array<{ relevance: number, recency: number, baseScore: number, canvasBoost: number, feedbackBoost: number, finalScore: number, episode: { id: string, title: string | null, intent: string | null } }> };

export type FeedbackAddedSubscriptionVariables = Exact<{
  agentId?: string | null | undefined;
  episodeId?: string | number | null | undefined;
  types?: Array<FeedbackType> | FeedbackType | null | undefined;
}>;


export type FeedbackAddedSubscription = { feedbackAdded: { feedback: { id: string, feedbackType: FeedbackType, score: number | null, agentId: string | null }, episode: { id: string, feedbackCount: number, aggregateFeedbackScore: number | null } | null } };

export type RecordDocumentLayoutMutationVariables = Exact<{
  input: DocumentLayoutInput;
}>;


export type RecordDocumentLayoutMutation = { recordDocumentLayout: { fingerprint: string, isNew: boolean, profile: { id: string, layoutFingerprint: string, seenCount: number, exampleCount: number, correctionRate: number, stats: Record<string, unknown> } } };

export type LayoutProfileQueryVariables = Exact<{
  fp: string;
}>;


export type LayoutProfileQuery = { layoutProfile: { layoutFingerprint: string, seenCount: number, exampleCount: number, correctionRate: number, lastSeenAt: string } | null };

export type LayoutProfilesQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type LayoutProfilesQuery = { layoutProfiles: { edges: Array<{ node: { layoutFingerprint: string, seenCount: number } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type FewShotExamplesQueryVariables = Exact<{
  fp: string;
  limit?: number | null | undefined;
}>;


export type FewShotExamplesQuery = { fewShotExamples: { hintExamplesJson: string, examples: Array<{ feedbackId: string, inputSnippet: string, output: unknown, createdAt: string }> } };

export type ConfirmMappingMutationVariables = Exact<{
  input: MappingInput;
}>;


export type ConfirmMappingMutation = { confirmMapping: { id: string, bankId: string, scope: string | null, key: string | null, value: string | null, status: FactStatus, confidence: number, supportCount: number, lastUsedAt: string | null } };

export type RejectMappingMutationVariables = Exact<{
  input: MappingInput;
}>;


export type RejectMappingMutation = { rejectMapping: { id: string, value: string | null, status: FactStatus, confidence: number, supportCount: number } };

export type ResolveMappingQueryVariables = Exact<{
  scope: string;
  key: string;
}>;


export type ResolveMappingQuery = { resolveMapping: { id: string, value: string | null, status: FactStatus } | null };

export type LearningAnalyticsQueryVariables = Exact<{
  start: string;
  end: string;
  fp?: string | null | undefined;
}>;


export type LearningAnalyticsQuery = { learningAnalytics: { eventsByDay: Array<{ date: string, count: number }>, eventsByType: Array<{ eventType: string, count: number }>, correctedFields: Array<{ field: string, count: number }>, layoutStats: Array<{ layoutFingerprint: string, seenCount: number, exampleCount: number, correctionRate: number, lastSeenAt: string }>, confidenceTrend: Array<{ date: string, averageConfidence: number }>, corrections: Array<{ id: string, before: Record<string, unknown> | null, after: Record<string, unknown> | null }> } };

export type MemoryContextQueryVariables = Exact<{
  input: MemoryContextInput;
}>;


export type MemoryContextQuery = { memoryContext: { tokenEstimate: number, policy: MemoryPolicy, candidatesConsidered: number, memoriesSelected: number, entries: Array<{ id: string, episodeId: string, role: string, content: string, createdAt: string, tokenEstimate: number }> } };

export type ForgetEpisodesMutationVariables = Exact<{
  input?: ForgetInput | null | undefined;
}>;


export type ForgetEpisodesMutation = { forgetEpisodes: { examined: number, deleted: number, preserved: number, deletedIds: Array<string> } };

export type PurgeExpiredFeedbackMutationVariables = Exact<{
  retentionDays?: number | null | undefined;
}>;


export type PurgeExpiredFeedbackMutation = { purgeExpiredFeedback: { deleted: number } };

export type SimilarEpisodesQueryVariables = Exact<{
  topic?: string | null | undefined;
  factIds?: Array<string | number> | string | number | null | undefined;
  minScore?: number | null | undefined;
  limit?: number | null | undefined;
}>;


export type SimilarEpisodesQuery = { similarEpisodes: Array<{ id: string, title: string | null, overallScore: number | null }> };

export type TopicPerformanceQueryVariables = Exact<{ [key: string]: never; }>;


export type TopicPerformanceQuery = { topicPerformance: Array<{ topic: string, episodes: number, outputs: number, averageScore: number | null, acceptanceRate: number | null }> };

export type TopicTrendQueryVariables = Exact<{
  topic: string;
  days?: number | null | undefined;
}>;


export type TopicTrendQuery = { topicTrend: Array<{ date: string, averageScore: number | null, episodes: number }> };

export type MemorySummaryQueryVariables = Exact<{ [key: string]: never; }>;


export type MemorySummaryQuery = { memorySummary: { episodes: number, segments: number, facts: number, feedback: number, canvasAudits: number, layoutProfiles: number, averageOverallScore: number | null, acceptanceRate: number | null } };

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { viewer: { orgId: string, orgName: string, role: Role, apiKeyId: string, apiKeyName: string } };

export type ApiKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type ApiKeysQuery = { apiKeys: Array<{ id: string, name: string, role: Role, revokedAt: string | null }> };

export type CreateApiKeyMutationVariables = Exact<{
  name: string;
  role: Role;
}>;


export type CreateApiKeyMutation = { createApiKey: { token: string, apiKey: { id: string, name: string, role: Role, tokenPrefix: string, createdAt: string, revokedAt: string | null } } };

export type RevokeApiKeyMutationVariables = Exact<{
  id: string | number;
}>;


export type RevokeApiKeyMutation = { revokeApiKey: { id: string, revokedAt: string | null } };

export type HeartbeatSubscriptionVariables = Exact<{
  intervalSeconds?: number | null | undefined;
}>;


export type HeartbeatSubscription = { heartbeat: string };

export type TracedRecallQueryVariables = Exact<{
  input: RecallInput;
  trace?: MemoryTraceInput | null | undefined;
}>;


export type TracedRecallQuery = { recall: Array<{ finalScore: number, usefulnessScore: number, usefulnessSource: UsefulnessSource, fact: { id: string } }> };

export type TracedRecallEpisodesQueryVariables = Exact<{
  agentId: string;
  query: string;
  trace?: MemoryTraceInput | null | undefined;
}>;


export type TracedRecallEpisodesQuery = { recallEpisodes: Array<{ relevance: number, finalScore: number, episode: { id: string } }> };

export type TracedMemoryContextQueryVariables = Exact<{
  input: MemoryContextInput;
  trace?: MemoryTraceInput | null | undefined;
}>;


export type TracedMemoryContextQuery = { memoryContext: { policy: MemoryPolicy, entries: Array<{ id: string, episodeId: string }> } };

export type EpisodeTracesQueryVariables = Exact<{
  id: string | number;
}>;


export type EpisodeTracesQuery = { episode: { id: string, memoryTrace: Array<{ id: string, operation: MemoryTraceOperation, seq: number | null, query: string | null, strategy: string | null, mode: string | null, budget: number | null, createdAt: string, items: Array<{ rank: number, factId: string | null, episodeId: string | null, segmentId: string | null, zone: string | null, semanticScore: number | null, lexicalScore: number | null, relevance: number | null, usefulnessScore: number | null, usefulnessSource: string | null, finalScore: number | null, used: boolean }> }> } | null };

export type UseFactsMutationVariables = Exact<{
  episodeId: string | number;
  factIds?: Array<string | number> | string | number | null | undefined;
  factExternalIds?: Array<string> | string | null | undefined;
}>;


export type UseFactsMutation = { useFacts: { id: string } };

export type FactSignalsQueryVariables = Exact<{
  id: string | number;
  first?: number | null | undefined;
}>;


export type FactSignalsQuery = { fact: { id: string, usefulness: number, signalCount: number, lastSignalAt: string | null, signals: Array<{ id: string, signalType: SignalType, confidence: number, delta: number, query: string, source: string | null, feedbackId: string | null, episodeId: string | null, traceId: string | null }> } | null };

export type EpisodeTraceCreditQueryVariables = Exact<{
  id: string | number;
}>;


export type EpisodeTraceCreditQuery = { episode: { id: string, memoryTrace: Array<{ id: string, credit: Array<{ id: string, factId: string, signalType: SignalType, source: string | null, traceId: string | null, episodeId: string | null }> }> } | null };

export type StorageUsageQueryVariables = Exact<{ [key: string]: never; }>;


export type StorageUsageQuery = { storageUsage: { quotaRows: number | null, quotaBytes: number | null, episodes: { rows: number, bytes: number }, segments: { rows: number, bytes: number }, facts: { rows: number, bytes: number }, total: { rows: number, bytes: number } } };

export const EpisodeFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EpisodeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Episode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"task"}},{"kind":"Field","name":{"kind":"Name","value":"intent"}},{"kind":"Field","name":{"kind":"Name","value":"topic"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"executionIds"}},{"kind":"Field","name":{"kind":"Name","value":"canvasActionCount"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackCount"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateFeedbackScore"}},{"kind":"Field","name":{"kind":"Name","value":"overallScore"}},{"kind":"Field","name":{"kind":"Name","value":"accepted"}},{"kind":"Field","name":{"kind":"Name","value":"decayScore"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}}]} as unknown as DocumentNode<EpisodeFieldsFragment, unknown>;
export const ErasureResultFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErasureResultFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ErasureResult"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dryRun"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"counts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}}]} as unknown as DocumentNode<ErasureResultFieldsFragment, unknown>;
export const FactFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Fact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"bankId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"externalId"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"supportCount"}},{"kind":"Field","name":{"kind":"Name","value":"usefulness"}},{"kind":"Field","name":{"kind":"Name","value":"signalCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastSignalAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<FactFieldsFragment, unknown>;
export const FeedbackFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FeedbackFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Feedback"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"episodeId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"actorId"}},{"kind":"Field","name":{"kind":"Name","value":"actorUserId"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackType"}},{"kind":"Field","name":{"kind":"Name","value":"rating"}},{"kind":"Field","name":{"kind":"Name","value":"score"}},{"kind":"Field","name":{"kind":"Name","value":"corrections"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"documentId"}},{"kind":"Field","name":{"kind":"Name","value":"layoutFingerprint"}},{"kind":"Field","name":{"kind":"Name","value":"before"}},{"kind":"Field","name":{"kind":"Name","value":"after"}},{"kind":"Field","name":{"kind":"Name","value":"meta"}},{"kind":"Field","name":{"kind":"Name","value":"accepted"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<FeedbackFieldsFragment, unknown>;
export const RecordCanvasActionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RecordCanvasAction"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CanvasActionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recordCanvasAction"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"episodeId"}},{"kind":"Field","name":{"kind":"Name","value":"canvasId"}},{"kind":"Field","name":{"kind":"Name","value":"canvasType"}},{"kind":"Field","name":{"kind":"Name","value":"componentType"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]} as unknown as DocumentNode<RecordCanvasActionMutation, RecordCanvasActionMutationVariables>;
export const CanvasAuditsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CanvasAudits"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CanvasAuditFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"canvasAudits"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"canvasType"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"episodeId"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<CanvasAuditsQuery, CanvasAuditsQueryVariables>;
export const EpisodesByCanvasTypeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EpisodesByCanvasType"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"canvasType"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"action"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CanvasAction"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timeRange"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"episodesByCanvasType"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"canvasType"},"value":{"kind":"Variable","name":{"kind":"Name","value":"canvasType"}}},{"kind":"Argument","name":{"kind":"Name","value":"action"},"value":{"kind":"Variable","name":{"kind":"Name","value":"action"}}},{"kind":"Argument","name":{"kind":"Name","value":"timeRange"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeRange"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"canvasActionCount"}}]}}]}}]} as unknown as DocumentNode<EpisodesByCanvasTypeQuery, EpisodesByCanvasTypeQueryVariables>;
export const CanvasInsightsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CanvasInsights"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timeRange"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"quickCloseSeconds"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"canvasInsights"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"timeRange"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeRange"}}},{"kind":"Argument","name":{"kind":"Name","value":"quickCloseSeconds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"quickCloseSeconds"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"byType"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"canvasType"}},{"kind":"Field","name":{"kind":"Name","value":"presentations"}},{"kind":"Field","name":{"kind":"Name","value":"closes"}},{"kind":"Field","name":{"kind":"Name","value":"submits"}},{"kind":"Field","name":{"kind":"Name","value":"avgEngagementSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"avgFeedbackScore"}}]}},{"kind":"Field","name":{"kind":"Name","value":"byComponent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"canvasType"}},{"kind":"Field","name":{"kind":"Name","value":"componentType"}},{"kind":"Field","name":{"kind":"Name","value":"presentations"}},{"kind":"Field","name":{"kind":"Name","value":"avgEngagementSeconds"}}]}},{"kind":"Field","name":{"kind":"Name","value":"closesQuickly"}},{"kind":"Field","name":{"kind":"Name","value":"engages"}},{"kind":"Field","name":{"kind":"Name","value":"submits"}}]}}]}}]} as unknown as DocumentNode<CanvasInsightsQuery, CanvasInsightsQueryVariables>;
export const EnrichedEpisodesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EnrichedEpisodes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"episodes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"canvasIds"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}]},{"kind":"Field","name":{"kind":"Name","value":"canvasActionCount"}},{"kind":"Field","name":{"kind":"Name","value":"canvasContext"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"canvasType"}},{"kind":"Field","name":{"kind":"Name","value":"action"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"charts"},"name":{"kind":"Name","value":"canvasContext"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"canvasType"},"value":{"kind":"StringValue","value":"charts","block":false}},{"kind":"Argument","name":{"kind":"Name","value":"action"},"value":{"kind":"EnumValue","value":"PRESENT"}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"segments"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"Field","name":{"kind":"Name","value":"outputs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}}]}},{"kind":"Field","name":{"kind":"Name","value":"facts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"externalId"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<EnrichedEpisodesQuery, EnrichedEpisodesQueryVariables>;
export const EpisodeRowsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EpisodeRows"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"EpisodeFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"episodes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackCount"}},{"kind":"Field","name":{"kind":"Name","value":"decayScore"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateFeedbackScore"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<EpisodeRowsQuery, EpisodeRowsQueryVariables>;
export const EpisodeDetailDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EpisodeDetail"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"episode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"decayScore"}},{"kind":"Field","name":{"kind":"Name","value":"overallScore"}},{"kind":"Field","name":{"kind":"Name","value":"segments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}}]}},{"kind":"Field","name":{"kind":"Name","value":"outputs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"feedbackContext"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackType"}}]}}]}}]}}]} as unknown as DocumentNode<EpisodeDetailQuery, EpisodeDetailQueryVariables>;
export const FactUsefulnessDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FactUsefulness"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"facts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"usefulness"}},{"kind":"Field","name":{"kind":"Name","value":"signalCount"}}]}}]}}]}}]}}]} as unknown as DocumentNode<FactUsefulnessQuery, FactUsefulnessQueryVariables>;
export const EmbeddingStatusDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EmbeddingStatus"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"embeddingStatus"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"dimension"}},{"kind":"Field","name":{"kind":"Name","value":"pendingVectors"}}]}}]}}]} as unknown as DocumentNode<EmbeddingStatusQuery, EmbeddingStatusQueryVariables>;
export const RecordEpisodeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RecordEpisode"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RecordEpisodeInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recordEpisode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"EpisodeFields"}},{"kind":"Field","name":{"kind":"Name","value":"segments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"tokenEstimate"}}]}},{"kind":"Field","name":{"kind":"Name","value":"outputs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"qualityScore"}},{"kind":"Field","name":{"kind":"Name","value":"regenerationRound"}}]}},{"kind":"Field","name":{"kind":"Name","value":"facts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"externalId"}},{"kind":"Field","name":{"kind":"Name","value":"bankId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EpisodeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Episode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"task"}},{"kind":"Field","name":{"kind":"Name","value":"intent"}},{"kind":"Field","name":{"kind":"Name","value":"topic"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"executionIds"}},{"kind":"Field","name":{"kind":"Name","value":"canvasActionCount"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackCount"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateFeedbackScore"}},{"kind":"Field","name":{"kind":"Name","value":"overallScore"}},{"kind":"Field","name":{"kind":"Name","value":"accepted"}},{"kind":"Field","name":{"kind":"Name","value":"decayScore"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}}]} as unknown as DocumentNode<RecordEpisodeMutation, RecordEpisodeMutationVariables>;
export const AppendSegmentsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppendSegments"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"episodeId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"segments"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SegmentInput"}}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"appendSegments"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"episodeId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"episodeId"}}},{"kind":"Argument","name":{"kind":"Name","value":"segments"},"value":{"kind":"Variable","name":{"kind":"Name","value":"segments"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"segments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}}]} as unknown as DocumentNode<AppendSegmentsMutation, AppendSegmentsMutationVariables>;
export const LinkSessionRecordsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LinkSessionRecords"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"episodeId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"linkSessionRecords"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"episodeId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"episodeId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"EpisodeFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EpisodeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Episode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"task"}},{"kind":"Field","name":{"kind":"Name","value":"intent"}},{"kind":"Field","name":{"kind":"Name","value":"topic"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"executionIds"}},{"kind":"Field","name":{"kind":"Name","value":"canvasActionCount"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackCount"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateFeedbackScore"}},{"kind":"Field","name":{"kind":"Name","value":"overallScore"}},{"kind":"Field","name":{"kind":"Name","value":"accepted"}},{"kind":"Field","name":{"kind":"Name","value":"decayScore"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}}]} as unknown as DocumentNode<LinkSessionRecordsMutation, LinkSessionRecordsMutationVariables>;
export const EpisodeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Episode"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"episode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"EpisodeFields"}},{"kind":"Field","name":{"kind":"Name","value":"segments"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"2"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EpisodeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Episode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"task"}},{"kind":"Field","name":{"kind":"Name","value":"intent"}},{"kind":"Field","name":{"kind":"Name","value":"topic"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"executionIds"}},{"kind":"Field","name":{"kind":"Name","value":"canvasActionCount"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackCount"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateFeedbackScore"}},{"kind":"Field","name":{"kind":"Name","value":"overallScore"}},{"kind":"Field","name":{"kind":"Name","value":"accepted"}},{"kind":"Field","name":{"kind":"Name","value":"decayScore"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}}]} as unknown as DocumentNode<EpisodeQuery, EpisodeQueryVariables>;
export const EpisodesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Episodes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"EpisodeFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"episodes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"topic"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<EpisodesQuery, EpisodesQueryVariables>;
export const DeleteFactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteFacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ids"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"externalIds"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"bankId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dryRun"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteFacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"ids"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ids"}}},{"kind":"Argument","name":{"kind":"Name","value":"externalIds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"externalIds"}}},{"kind":"Argument","name":{"kind":"Name","value":"bankId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"bankId"}}},{"kind":"Argument","name":{"kind":"Name","value":"dryRun"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dryRun"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ErasureResultFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErasureResultFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ErasureResult"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dryRun"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"counts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}}]} as unknown as DocumentNode<DeleteFactsMutation, DeleteFactsMutationVariables>;
export const DeleteEpisodesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteEpisodes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ids"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dryRun"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteEpisodes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"ids"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ids"}}},{"kind":"Argument","name":{"kind":"Name","value":"dryRun"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dryRun"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ErasureResultFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErasureResultFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ErasureResult"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dryRun"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"counts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}}]} as unknown as DocumentNode<DeleteEpisodesMutation, DeleteEpisodesMutationVariables>;
export const EraseSubjectDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"EraseSubject"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"selector"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ErasureSelector"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dryRun"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eraseSubject"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"selector"},"value":{"kind":"Variable","name":{"kind":"Name","value":"selector"}}},{"kind":"Argument","name":{"kind":"Name","value":"dryRun"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dryRun"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ErasureResultFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErasureResultFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ErasureResult"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dryRun"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"counts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}}]} as unknown as DocumentNode<EraseSubjectMutation, EraseSubjectMutationVariables>;
export const ErasuresDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Erasures"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"erasures"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"apiKeyId"}},{"kind":"Field","name":{"kind":"Name","value":"operation"}},{"kind":"Field","name":{"kind":"Name","value":"dryRun"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"selector"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"bankId"}},{"kind":"Field","name":{"kind":"Name","value":"metadataKey"}},{"kind":"Field","name":{"kind":"Name","value":"metadataValue"}},{"kind":"Field","name":{"kind":"Name","value":"ids"}},{"kind":"Field","name":{"kind":"Name","value":"externalIds"}}]}},{"kind":"Field","name":{"kind":"Name","value":"counts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<ErasuresQuery, ErasuresQueryVariables>;
export const SupersedeFactDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SupersedeFact"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"supersededBy"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"supersedeFact"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"supersededBy"},"value":{"kind":"Variable","name":{"kind":"Name","value":"supersededBy"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"supersededById"}},{"kind":"Field","name":{"kind":"Name","value":"validFrom"}},{"kind":"Field","name":{"kind":"Name","value":"validTo"}}]}}]}}]} as unknown as DocumentNode<SupersedeFactMutation, SupersedeFactMutationVariables>;
export const FactHistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FactHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fact"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"supersededById"}},{"kind":"Field","name":{"kind":"Name","value":"validFrom"}},{"kind":"Field","name":{"kind":"Name","value":"validTo"}},{"kind":"Field","name":{"kind":"Name","value":"history"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"bankId"}},{"kind":"Field","name":{"kind":"Name","value":"hasEmbedding"}},{"kind":"Field","name":{"kind":"Name","value":"validFrom"}},{"kind":"Field","name":{"kind":"Name","value":"validTo"}},{"kind":"Field","name":{"kind":"Name","value":"supersededById"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"writtenByKeyId"}},{"kind":"Field","name":{"kind":"Name","value":"changedByKeyId"}},{"kind":"Field","name":{"kind":"Name","value":"changed"}}]}}]}}]}}]} as unknown as DocumentNode<FactHistoryQuery, FactHistoryQueryVariables>;
export const ExplainMemoryContextDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ExplainMemoryContext"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryContextInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"leftOut"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memoryContext"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"tokenEstimate"}},{"kind":"Field","name":{"kind":"Name","value":"zone"}},{"kind":"Field","name":{"kind":"Name","value":"relevance"}}]}},{"kind":"Field","name":{"kind":"Name","value":"tokenEstimate"}},{"kind":"Field","name":{"kind":"Name","value":"candidatesConsidered"}},{"kind":"Field","name":{"kind":"Name","value":"memoriesSelected"}},{"kind":"Field","name":{"kind":"Name","value":"leftOut"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"leftOut"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"tokenEstimate"}},{"kind":"Field","name":{"kind":"Name","value":"relevance"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"zone"}},{"kind":"Field","name":{"kind":"Name","value":"tokensLeft"}}]}}]}}]}}]} as unknown as DocumentNode<ExplainMemoryContextQuery, ExplainMemoryContextQueryVariables>;
export const SearchFactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SearchFacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"FactFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"orderBy"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"FactOrder"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"facts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"orderBy"},"value":{"kind":"Variable","name":{"kind":"Name","value":"orderBy"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"bankId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"usefulness"}},{"kind":"Field","name":{"kind":"Name","value":"signalCount"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<SearchFactsQuery, SearchFactsQueryVariables>;
export const FactBanksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FactBanks"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"factBanks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"bankId"}},{"kind":"Field","name":{"kind":"Name","value":"facts"}},{"kind":"Field","name":{"kind":"Name","value":"lastFactAt"}}]}}]}}]} as unknown as DocumentNode<FactBanksQuery, FactBanksQueryVariables>;
export const FactDetailDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FactDetail"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fact"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"usefulness"}},{"kind":"Field","name":{"kind":"Name","value":"lastSignalAt"}},{"kind":"Field","name":{"kind":"Name","value":"signalHistory"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"signalType"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"delta"}},{"kind":"Field","name":{"kind":"Name","value":"query"}},{"kind":"Field","name":{"kind":"Name","value":"context"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"usefulnessAfter"}}]}},{"kind":"Field","name":{"kind":"Name","value":"queryContexts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"query"}},{"kind":"Field","name":{"kind":"Name","value":"usefulness"}},{"kind":"Field","name":{"kind":"Name","value":"signalCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastSignalAt"}},{"kind":"Field","name":{"kind":"Name","value":"embedded"}}]}}]}}]}}]} as unknown as DocumentNode<FactDetailQuery, FactDetailQueryVariables>;
export const RecallBreakdownDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RecallBreakdown"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RecallInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recall"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fact"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"semanticScore"}},{"kind":"Field","name":{"kind":"Name","value":"lexicalScore"}},{"kind":"Field","name":{"kind":"Name","value":"relevance"}},{"kind":"Field","name":{"kind":"Name","value":"usefulnessScore"}},{"kind":"Field","name":{"kind":"Name","value":"usefulnessSource"}},{"kind":"Field","name":{"kind":"Name","value":"finalScore"}}]}}]}}]} as unknown as DocumentNode<RecallBreakdownQuery, RecallBreakdownQueryVariables>;
export const FactByIdDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FactById"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fact"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FactFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Fact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"bankId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"externalId"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"supportCount"}},{"kind":"Field","name":{"kind":"Name","value":"usefulness"}},{"kind":"Field","name":{"kind":"Name","value":"signalCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastSignalAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<FactByIdQuery, FactByIdQueryVariables>;
export const FactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Facts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"FactFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"facts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FactFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Fact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"bankId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"externalId"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"supportCount"}},{"kind":"Field","name":{"kind":"Name","value":"usefulness"}},{"kind":"Field","name":{"kind":"Name","value":"signalCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastSignalAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<FactsQuery, FactsQueryVariables>;
export const UpsertFactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpsertFacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"inputs"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"FactInput"}}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"upsertFacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"inputs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"inputs"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FactFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Fact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"bankId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"externalId"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"supportCount"}},{"kind":"Field","name":{"kind":"Name","value":"usefulness"}},{"kind":"Field","name":{"kind":"Name","value":"signalCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastSignalAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<UpsertFactsMutation, UpsertFactsMutationVariables>;
export const SubmitSignalsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SubmitSignals"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"signals"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SignalInput"}}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"submitSignals"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"signals"},"value":{"kind":"Variable","name":{"kind":"Name","value":"signals"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FactFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Fact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"bankId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"externalId"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"supportCount"}},{"kind":"Field","name":{"kind":"Name","value":"usefulness"}},{"kind":"Field","name":{"kind":"Name","value":"signalCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastSignalAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<SubmitSignalsMutation, SubmitSignalsMutationVariables>;
export const RecallDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Recall"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RecallInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recall"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fact"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"usefulness"}}]}},{"kind":"Field","name":{"kind":"Name","value":"semanticScore"}},{"kind":"Field","name":{"kind":"Name","value":"lexicalScore"}},{"kind":"Field","name":{"kind":"Name","value":"relevance"}},{"kind":"Field","name":{"kind":"Name","value":"strategyUsed"}},{"kind":"Field","name":{"kind":"Name","value":"usefulnessScore"}},{"kind":"Field","name":{"kind":"Name","value":"usefulnessSource"}},{"kind":"Field","name":{"kind":"Name","value":"finalScore"}}]}}]}}]} as unknown as DocumentNode<RecallQuery, RecallQueryVariables>;
export const FailedFactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FailedFacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"topN"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"failedFacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"topN"},"value":{"kind":"Variable","name":{"kind":"Name","value":"topN"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fact"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"externalId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"Field","name":{"kind":"Name","value":"rejectedEpisodeCount"}}]}}]}}]} as unknown as DocumentNode<FailedFactsQuery, FailedFactsQueryVariables>;
export const SubmitFeedbackDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SubmitFeedback"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SubmitFeedbackInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"submitFeedback"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"feedback"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FeedbackFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"episode"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackCount"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateFeedbackScore"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FeedbackFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Feedback"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"episodeId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"actorId"}},{"kind":"Field","name":{"kind":"Name","value":"actorUserId"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackType"}},{"kind":"Field","name":{"kind":"Name","value":"rating"}},{"kind":"Field","name":{"kind":"Name","value":"score"}},{"kind":"Field","name":{"kind":"Name","value":"corrections"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"documentId"}},{"kind":"Field","name":{"kind":"Name","value":"layoutFingerprint"}},{"kind":"Field","name":{"kind":"Name","value":"before"}},{"kind":"Field","name":{"kind":"Name","value":"after"}},{"kind":"Field","name":{"kind":"Name","value":"meta"}},{"kind":"Field","name":{"kind":"Name","value":"accepted"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<SubmitFeedbackMutation, SubmitFeedbackMutationVariables>;
export const RecordCorrectionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RecordCorrection"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CorrectionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recordCorrection"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FeedbackFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FeedbackFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Feedback"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"episodeId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"actorId"}},{"kind":"Field","name":{"kind":"Name","value":"actorUserId"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackType"}},{"kind":"Field","name":{"kind":"Name","value":"rating"}},{"kind":"Field","name":{"kind":"Name","value":"score"}},{"kind":"Field","name":{"kind":"Name","value":"corrections"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"documentId"}},{"kind":"Field","name":{"kind":"Name","value":"layoutFingerprint"}},{"kind":"Field","name":{"kind":"Name","value":"before"}},{"kind":"Field","name":{"kind":"Name","value":"after"}},{"kind":"Field","name":{"kind":"Name","value":"meta"}},{"kind":"Field","name":{"kind":"Name","value":"accepted"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<RecordCorrectionMutation, RecordCorrectionMutationVariables>;
export const JudgeEpisodeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"JudgeEpisode"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"JudgeEpisodeInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"judgeEpisode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"accepted"}},{"kind":"Field","name":{"kind":"Name","value":"overallScore"}},{"kind":"Field","name":{"kind":"Name","value":"decayScore"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackCount"}},{"kind":"Field","name":{"kind":"Name","value":"outputs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"qualityScore"}},{"kind":"Field","name":{"kind":"Name","value":"regenerationRound"}}]}},{"kind":"Field","name":{"kind":"Name","value":"feedbackContext"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"types"},"value":{"kind":"ListValue","values":[{"kind":"EnumValue","value":"JUDGEMENT"}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FeedbackFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FeedbackFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Feedback"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"episodeId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"actorId"}},{"kind":"Field","name":{"kind":"Name","value":"actorUserId"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackType"}},{"kind":"Field","name":{"kind":"Name","value":"rating"}},{"kind":"Field","name":{"kind":"Name","value":"score"}},{"kind":"Field","name":{"kind":"Name","value":"corrections"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"documentId"}},{"kind":"Field","name":{"kind":"Name","value":"layoutFingerprint"}},{"kind":"Field","name":{"kind":"Name","value":"before"}},{"kind":"Field","name":{"kind":"Name","value":"after"}},{"kind":"Field","name":{"kind":"Name","value":"meta"}},{"kind":"Field","name":{"kind":"Name","value":"accepted"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<JudgeEpisodeMutation, JudgeEpisodeMutationVariables>;
export const FeedbackPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FeedbackPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"FeedbackFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"feedback"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackType"}},{"kind":"Field","name":{"kind":"Name","value":"score"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<FeedbackPageQuery, FeedbackPageQueryVariables>;
export const FeedbackEpisodesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FeedbackEpisodes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"minFeedbackScore"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timeRange"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"feedbackEpisodes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"minFeedbackScore"},"value":{"kind":"Variable","name":{"kind":"Name","value":"minFeedbackScore"}}},{"kind":"Argument","name":{"kind":"Name","value":"timeRange"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeRange"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateFeedbackScore"}}]}}]}}]} as unknown as DocumentNode<FeedbackEpisodesQuery, FeedbackEpisodesQueryVariables>;
export const EpisodesWithFeedbackDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EpisodesWithFeedback"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"episodes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackIds"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackContext"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"score"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"thumbs"},"name":{"kind":"Name","value":"feedbackContext"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"types"},"value":{"kind":"ListValue","values":[{"kind":"EnumValue","value":"THUMBS_UP"},{"kind":"EnumValue","value":"THUMBS_DOWN"}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<EpisodesWithFeedbackQuery, EpisodesWithFeedbackQueryVariables>;
export const RecallEpisodesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RecallEpisodes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"query"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"queryEmbedding"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recallEpisodes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"Variable","name":{"kind":"Name","value":"query"}}},{"kind":"Argument","name":{"kind":"Name","value":"queryEmbedding"},"value":{"kind":"Variable","name":{"kind":"Name","value":"queryEmbedding"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"episode"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"intent"}}]}},{"kind":"Field","name":{"kind":"Name","value":"relevance"}},{"kind":"Field","name":{"kind":"Name","value":"recency"}},{"kind":"Field","name":{"kind":"Name","value":"baseScore"}},{"kind":"Field","name":{"kind":"Name","value":"canvasBoost"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackBoost"}},{"kind":"Field","name":{"kind":"Name","value":"finalScore"}}]}}]}}]} as unknown as DocumentNode<RecallEpisodesQuery, RecallEpisodesQueryVariables>;
export const FeedbackAddedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"FeedbackAdded"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"episodeId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"types"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"FeedbackType"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"feedbackAdded"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"episodeId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"episodeId"}}},{"kind":"Argument","name":{"kind":"Name","value":"types"},"value":{"kind":"Variable","name":{"kind":"Name","value":"types"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"feedback"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackType"}},{"kind":"Field","name":{"kind":"Name","value":"score"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"episode"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackCount"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateFeedbackScore"}}]}}]}}]}}]} as unknown as DocumentNode<FeedbackAddedSubscription, FeedbackAddedSubscriptionVariables>;
export const RecordDocumentLayoutDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RecordDocumentLayout"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DocumentLayoutInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recordDocumentLayout"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fingerprint"}},{"kind":"Field","name":{"kind":"Name","value":"isNew"}},{"kind":"Field","name":{"kind":"Name","value":"profile"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"layoutFingerprint"}},{"kind":"Field","name":{"kind":"Name","value":"seenCount"}},{"kind":"Field","name":{"kind":"Name","value":"exampleCount"}},{"kind":"Field","name":{"kind":"Name","value":"correctionRate"}},{"kind":"Field","name":{"kind":"Name","value":"stats"}}]}}]}}]}}]} as unknown as DocumentNode<RecordDocumentLayoutMutation, RecordDocumentLayoutMutationVariables>;
export const LayoutProfileDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LayoutProfile"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"fp"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"layoutProfile"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"layoutFingerprint"},"value":{"kind":"Variable","name":{"kind":"Name","value":"fp"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"layoutFingerprint"}},{"kind":"Field","name":{"kind":"Name","value":"seenCount"}},{"kind":"Field","name":{"kind":"Name","value":"exampleCount"}},{"kind":"Field","name":{"kind":"Name","value":"correctionRate"}},{"kind":"Field","name":{"kind":"Name","value":"lastSeenAt"}}]}}]}}]} as unknown as DocumentNode<LayoutProfileQuery, LayoutProfileQueryVariables>;
export const LayoutProfilesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LayoutProfiles"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"layoutProfiles"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"layoutFingerprint"}},{"kind":"Field","name":{"kind":"Name","value":"seenCount"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<LayoutProfilesQuery, LayoutProfilesQueryVariables>;
export const FewShotExamplesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FewShotExamples"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"fp"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fewShotExamples"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"layoutFingerprint"},"value":{"kind":"Variable","name":{"kind":"Name","value":"fp"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"examples"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"feedbackId"}},{"kind":"Field","name":{"kind":"Name","value":"inputSnippet"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"hintExamplesJson"}}]}}]}}]} as unknown as DocumentNode<FewShotExamplesQuery, FewShotExamplesQueryVariables>;
export const ConfirmMappingDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConfirmMapping"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MappingInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"confirmMapping"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"bankId"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"supportCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}}]}}]}}]} as unknown as DocumentNode<ConfirmMappingMutation, ConfirmMappingMutationVariables>;
export const RejectMappingDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RejectMapping"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MappingInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rejectMapping"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"supportCount"}}]}}]}}]} as unknown as DocumentNode<RejectMappingMutation, RejectMappingMutationVariables>;
export const ResolveMappingDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ResolveMapping"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"key"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resolveMapping"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}},{"kind":"Argument","name":{"kind":"Name","value":"key"},"value":{"kind":"Variable","name":{"kind":"Name","value":"key"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<ResolveMappingQuery, ResolveMappingQueryVariables>;
export const LearningAnalyticsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LearningAnalytics"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"start"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"end"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"fp"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"learningAnalytics"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"startDate"},"value":{"kind":"Variable","name":{"kind":"Name","value":"start"}}},{"kind":"Argument","name":{"kind":"Name","value":"endDate"},"value":{"kind":"Variable","name":{"kind":"Name","value":"end"}}},{"kind":"Argument","name":{"kind":"Name","value":"layoutFingerprint"},"value":{"kind":"Variable","name":{"kind":"Name","value":"fp"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventsByDay"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"date"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}},{"kind":"Field","name":{"kind":"Name","value":"eventsByType"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}},{"kind":"Field","name":{"kind":"Name","value":"correctedFields"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}},{"kind":"Field","name":{"kind":"Name","value":"layoutStats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"layoutFingerprint"}},{"kind":"Field","name":{"kind":"Name","value":"seenCount"}},{"kind":"Field","name":{"kind":"Name","value":"exampleCount"}},{"kind":"Field","name":{"kind":"Name","value":"correctionRate"}},{"kind":"Field","name":{"kind":"Name","value":"lastSeenAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"confidenceTrend"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"date"}},{"kind":"Field","name":{"kind":"Name","value":"averageConfidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"corrections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"before"}},{"kind":"Field","name":{"kind":"Name","value":"after"}}]}}]}}]}}]} as unknown as DocumentNode<LearningAnalyticsQuery, LearningAnalyticsQueryVariables>;
export const MemoryContextDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MemoryContext"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryContextInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memoryContext"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"episodeId"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"tokenEstimate"}}]}},{"kind":"Field","name":{"kind":"Name","value":"tokenEstimate"}},{"kind":"Field","name":{"kind":"Name","value":"policy"}},{"kind":"Field","name":{"kind":"Name","value":"candidatesConsidered"}},{"kind":"Field","name":{"kind":"Name","value":"memoriesSelected"}}]}}]}}]} as unknown as DocumentNode<MemoryContextQuery, MemoryContextQueryVariables>;
export const ForgetEpisodesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ForgetEpisodes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ForgetInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"forgetEpisodes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"examined"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}},{"kind":"Field","name":{"kind":"Name","value":"preserved"}},{"kind":"Field","name":{"kind":"Name","value":"deletedIds"}}]}}]}}]} as unknown as DocumentNode<ForgetEpisodesMutation, ForgetEpisodesMutationVariables>;
export const PurgeExpiredFeedbackDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PurgeExpiredFeedback"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"retentionDays"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"purgeExpiredFeedback"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"retentionDays"},"value":{"kind":"Variable","name":{"kind":"Name","value":"retentionDays"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]}}]} as unknown as DocumentNode<PurgeExpiredFeedbackMutation, PurgeExpiredFeedbackMutationVariables>;
export const SimilarEpisodesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SimilarEpisodes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"topic"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"factIds"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"minScore"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"similarEpisodes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"topic"},"value":{"kind":"Variable","name":{"kind":"Name","value":"topic"}}},{"kind":"Argument","name":{"kind":"Name","value":"factIds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"factIds"}}},{"kind":"Argument","name":{"kind":"Name","value":"minScore"},"value":{"kind":"Variable","name":{"kind":"Name","value":"minScore"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"overallScore"}}]}}]}}]} as unknown as DocumentNode<SimilarEpisodesQuery, SimilarEpisodesQueryVariables>;
export const TopicPerformanceDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TopicPerformance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"topicPerformance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"topic"}},{"kind":"Field","name":{"kind":"Name","value":"episodes"}},{"kind":"Field","name":{"kind":"Name","value":"outputs"}},{"kind":"Field","name":{"kind":"Name","value":"averageScore"}},{"kind":"Field","name":{"kind":"Name","value":"acceptanceRate"}}]}}]}}]} as unknown as DocumentNode<TopicPerformanceQuery, TopicPerformanceQueryVariables>;
export const TopicTrendDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TopicTrend"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"topic"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"days"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"topicTrend"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"topic"},"value":{"kind":"Variable","name":{"kind":"Name","value":"topic"}}},{"kind":"Argument","name":{"kind":"Name","value":"days"},"value":{"kind":"Variable","name":{"kind":"Name","value":"days"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"date"}},{"kind":"Field","name":{"kind":"Name","value":"averageScore"}},{"kind":"Field","name":{"kind":"Name","value":"episodes"}}]}}]}}]} as unknown as DocumentNode<TopicTrendQuery, TopicTrendQueryVariables>;
export const MemorySummaryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MemorySummary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memorySummary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"episodes"}},{"kind":"Field","name":{"kind":"Name","value":"segments"}},{"kind":"Field","name":{"kind":"Name","value":"facts"}},{"kind":"Field","name":{"kind":"Name","value":"feedback"}},{"kind":"Field","name":{"kind":"Name","value":"canvasAudits"}},{"kind":"Field","name":{"kind":"Name","value":"layoutProfiles"}},{"kind":"Field","name":{"kind":"Name","value":"averageOverallScore"}},{"kind":"Field","name":{"kind":"Name","value":"acceptanceRate"}}]}}]}}]} as unknown as DocumentNode<MemorySummaryQuery, MemorySummaryQueryVariables>;
export const ViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orgId"}},{"kind":"Field","name":{"kind":"Name","value":"orgName"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"apiKeyId"}},{"kind":"Field","name":{"kind":"Name","value":"apiKeyName"}}]}}]}}]} as unknown as DocumentNode<ViewerQuery, ViewerQueryVariables>;
export const ApiKeysDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ApiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]} as unknown as DocumentNode<ApiKeysQuery, ApiKeysQueryVariables>;
export const CreateApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"role"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Role"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"role"},"value":{"kind":"Variable","name":{"kind":"Name","value":"role"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"apiKey"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"tokenPrefix"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]}}]} as unknown as DocumentNode<CreateApiKeyMutation, CreateApiKeyMutationVariables>;
export const RevokeApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RevokeApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]} as unknown as DocumentNode<RevokeApiKeyMutation, RevokeApiKeyMutationVariables>;
export const HeartbeatDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"Heartbeat"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"intervalSeconds"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"heartbeat"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"intervalSeconds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"intervalSeconds"}}}]}]}}]} as unknown as DocumentNode<HeartbeatSubscription, HeartbeatSubscriptionVariables>;
export const TracedRecallDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TracedRecall"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RecallInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trace"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryTraceInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recall"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"trace"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trace"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fact"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"finalScore"}},{"kind":"Field","name":{"kind":"Name","value":"usefulnessScore"}},{"kind":"Field","name":{"kind":"Name","value":"usefulnessSource"}}]}}]}}]} as unknown as DocumentNode<TracedRecallQuery, TracedRecallQueryVariables>;
export const TracedRecallEpisodesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TracedRecallEpisodes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"query"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trace"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryTraceInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recallEpisodes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"Variable","name":{"kind":"Name","value":"query"}}},{"kind":"Argument","name":{"kind":"Name","value":"trace"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trace"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"episode"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"relevance"}},{"kind":"Field","name":{"kind":"Name","value":"finalScore"}}]}}]}}]} as unknown as DocumentNode<TracedRecallEpisodesQuery, TracedRecallEpisodesQueryVariables>;
export const TracedMemoryContextDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TracedMemoryContext"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryContextInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trace"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryTraceInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memoryContext"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"trace"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trace"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"episodeId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"policy"}}]}}]}}]} as unknown as DocumentNode<TracedMemoryContextQuery, TracedMemoryContextQueryVariables>;
export const EpisodeTracesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EpisodeTraces"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"episode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"memoryTrace"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"operation"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"query"}},{"kind":"Field","name":{"kind":"Name","value":"strategy"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"budget"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rank"}},{"kind":"Field","name":{"kind":"Name","value":"factId"}},{"kind":"Field","name":{"kind":"Name","value":"episodeId"}},{"kind":"Field","name":{"kind":"Name","value":"segmentId"}},{"kind":"Field","name":{"kind":"Name","value":"zone"}},{"kind":"Field","name":{"kind":"Name","value":"semanticScore"}},{"kind":"Field","name":{"kind":"Name","value":"lexicalScore"}},{"kind":"Field","name":{"kind":"Name","value":"relevance"}},{"kind":"Field","name":{"kind":"Name","value":"usefulnessScore"}},{"kind":"Field","name":{"kind":"Name","value":"usefulnessSource"}},{"kind":"Field","name":{"kind":"Name","value":"finalScore"}},{"kind":"Field","name":{"kind":"Name","value":"used"}}]}}]}}]}}]}}]} as unknown as DocumentNode<EpisodeTracesQuery, EpisodeTracesQueryVariables>;
export const UseFactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UseFacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"episodeId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"factIds"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"factExternalIds"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"useFacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"episodeId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"episodeId"}}},{"kind":"Argument","name":{"kind":"Name","value":"factIds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"factIds"}}},{"kind":"Argument","name":{"kind":"Name","value":"factExternalIds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"factExternalIds"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<UseFactsMutation, UseFactsMutationVariables>;
export const FactSignalsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FactSignals"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fact"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"usefulness"}},{"kind":"Field","name":{"kind":"Name","value":"signalCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastSignalAt"}},{"kind":"Field","name":{"kind":"Name","value":"signals"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"signalType"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"delta"}},{"kind":"Field","name":{"kind":"Name","value":"query"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"feedbackId"}},{"kind":"Field","name":{"kind":"Name","value":"episodeId"}},{"kind":"Field","name":{"kind":"Name","value":"traceId"}}]}}]}}]}}]} as unknown as DocumentNode<FactSignalsQuery, FactSignalsQueryVariables>;
export const EpisodeTraceCreditDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EpisodeTraceCredit"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"episode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"memoryTrace"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"credit"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"factId"}},{"kind":"Field","name":{"kind":"Name","value":"signalType"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"traceId"}},{"kind":"Field","name":{"kind":"Name","value":"episodeId"}}]}}]}}]}}]}}]} as unknown as DocumentNode<EpisodeTraceCreditQuery, EpisodeTraceCreditQueryVariables>;
export const StorageUsageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"StorageUsage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"storageUsage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"episodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}}]}},{"kind":"Field","name":{"kind":"Name","value":"segments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}}]}},{"kind":"Field","name":{"kind":"Name","value":"facts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}}]}},{"kind":"Field","name":{"kind":"Name","value":"total"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}}]}},{"kind":"Field","name":{"kind":"Name","value":"quotaRows"}},{"kind":"Field","name":{"kind":"Name","value":"quotaBytes"}}]}}]}}]} as unknown as DocumentNode<StorageUsageQuery, StorageUsageQueryVariables>;