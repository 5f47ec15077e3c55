/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
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

/** Where a recalled fact usefulness score came from. */
export type UsefulnessSource =
  /** No query context matched: the global score of the fact. */
  | 'GLOBAL'
  /** The score of a stored query context matching this query. */
  | 'QUERY_CONTEXT';

export type DashCanvasStatsFragment = { canvasType: string, componentType: string | null, presentations: number, closes: number, submits: number, avgEngagementSeconds: number | null, avgFeedbackScore: number | null };

export type DashCanvasQueryVariables = Exact<{
  agentId: string;
  timeRange: string;
}>;


export type DashCanvasQuery = { canvasInsights: { closesQuickly: Array<string>, engages: Array<string>, submits: Array<string>, byType: Array<{ canvasType: string, componentType: string | null, presentations: number, closes: number, submits: number, avgEngagementSeconds: number | null, avgFeedbackScore: number | null }>, byComponent: Array<{ canvasType: string, componentType: string | null, presentations: number, closes: number, submits: number, avgEngagementSeconds: number | null, avgFeedbackScore: number | null }> } };

export type DashMemoryContextQueryVariables = Exact<{
  input: MemoryContextInput;
}>;


export type DashMemoryContextQuery = { memoryContext: { policy: MemoryPolicy, tokenEstimate: number, candidatesConsidered: number, memoriesSelected: number, entries: Array<{ id: string, episodeId: string, role: string, content: string, createdAt: string, tokenEstimate: number, zone: MemoryZone | null, relevance: number | null }>, leftOut: Array<{ id: string, episodeId: string, role: string, content: string | null, createdAt: string, tokenEstimate: number, relevance: number | null, reason: MemoryLeftOutReason, zone: MemoryZone | null, tokensLeft: number | null }> } };

export type DashEmbeddingStatusQueryVariables = Exact<{ [key: string]: never; }>;


export type DashEmbeddingStatusQuery = { embeddingStatus: { provider: string, model: string | null, dimension: number | null, pendingVectors: number } };

export type DashEpisodesQueryVariables = Exact<{
  filter?: EpisodeFilter | null | undefined;
  first: number;
  after?: string | null | undefined;
}>;


export type DashEpisodesQuery = { episodes: { edges: Array<{ cursor: string, node: { id: string, agentId: string, sessionId: string | null, title: string | null, topic: string | null, createdAt: string, accepted: boolean | null, overallScore: number | null, aggregateFeedbackScore: number | null, feedbackCount: number, canvasActionCount: number, decayScore: number } }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } } };

export type DashEpisodeQueryVariables = Exact<{
  id: string | number;
}>;


export type DashEpisodeQuery = { episode: { id: string, agentId: string, sessionId: string | null, title: string | null, task: string | null, intent: string | null, topic: string | null, blueprint: string | null, createdAt: string, endedAt: string | null, accepted: boolean | null, overallScore: number | null, aggregateFeedbackScore: number | null, feedbackCount: number, decayScore: number, segments: Array<{ id: string, seq: number, role: string, content: string, tokenEstimate: number, createdAt: string }>, outputs: Array<{ id: string, kind: string, content: unknown, difficulty: string | null, qualityScore: number | null, regenerationRound: number }>, facts: Array<{ id: string, text: string, kind: string | null, status: FactStatus, usefulness: number }>, canvasContext: Array<{ id: string, canvasId: string | null, canvasType: string, componentType: string | null, action: CanvasAction, createdAt: string }>, feedbackContext: Array<{ id: string, episodeId: string | null, agentId: string | null, feedbackType: FeedbackType, rating: number | null, score: number | null, corrections: string | null, eventType: string | null, accepted: boolean | null, reason: string | null, createdAt: string }> } | null };

export type DashMemoryTraceQueryVariables = Exact<{
  id: string | number;
}>;


export type DashMemoryTraceQuery = { episode: { id: string, memoryTrace: Array<{ id: string, operation: MemoryTraceOperation, seq: number | null, query: string | null, strategy: string | null, mode: string | null, budget: number | null, createdAt: string, items: Array<{ rank: number, factId: string | null, episodeId: string | null, segmentId: string | null, zone: string | null, semanticScore: number | null, lexicalScore: number | null, relevance: number | null, usefulnessScore: number | null, usefulnessSource: string | null, finalScore: number | null, used: boolean }>, credit: Array<{ id: string, factId: string, signalType: SignalType, source: string | null, feedbackId: string | null, episodeId: string | null, traceId: string | null, delta: number, createdAt: string }> }> } | null };

export type DashFactBanksQueryVariables = Exact<{ [key: string]: never; }>;


export type DashFactBanksQuery = { factBanks: Array<{ bankId: string, facts: number, lastFactAt: string }> };

export type DashFactSearchQueryVariables = Exact<{
  filter?: FactFilter | null | undefined;
  first: number;
  after?: string | null | undefined;
  orderBy: FactOrder;
}>;


export type DashFactSearchQuery = { facts: { edges: Array<{ node: { id: string, bankId: string, text: string, kind: string | null, status: FactStatus, usefulness: number, signalCount: number, lastSignalAt: string | null, createdAt: string } }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } } };

export type DashFactQueryVariables = Exact<{
  id: string | number;
}>;


export type DashFactQuery = { fact: { id: string, bankId: string, text: string, kind: string | null, externalId: string | null, scope: string | null, key: string | null, value: string | null, status: FactStatus, confidence: number, supportCount: number, usefulness: number, signalCount: number, lastSignalAt: string | null, lastUsedAt: string | null, createdAt: string, updatedAt: string, queryContexts: Array<{ query: string, usefulness: number, signalCount: number, lastSignalAt: string | null, embedded: boolean }>, signalHistory: Array<{ id: string, signalType: SignalType, confidence: number, delta: number, query: string, context: string | null, createdAt: string, source: string | null, feedbackId: string | null, episodeId: string | null, usefulnessAfter: number }> } | null };

export type DashRecallQueryVariables = Exact<{
  input: RecallInput;
}>;


export type DashRecallQuery = { recall: Array<{ semanticScore: number | null, lexicalScore: number | null, relevance: number, strategyUsed: RecallStrategy, usefulnessScore: number, usefulnessSource: UsefulnessSource, finalScore: number, fact: { id: string, text: string, kind: string | null, status: FactStatus } }> };

export type DashFactHistoryQueryVariables = Exact<{
  id: string | number;
}>;


export type DashFactHistoryQuery = { fact: { id: string, supersededById: string | null, validFrom: string | null, validTo: string | null, history: Array<{ text: string, value: string | null, status: string, kind: string | null, bankId: string, hasEmbedding: boolean, validFrom: string | null, validTo: string | null, supersededById: string | null, from: string, to: string, writtenByKeyId: string | null, changedByKeyId: string | null, changed: Array<string> }> } | null };

export type DashFactSuccessorQueryVariables = Exact<{
  id: string | number;
}>;


export type DashFactSuccessorQuery = { fact: { id: string, text: string, supersededById: string | null } | null };

export type DashErasuresQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type DashErasuresQuery = { erasures: { edges: Array<{ node: { id: string, createdAt: string, apiKeyId: string | null, operation: string, dryRun: boolean, total: number, selector: { agentId: string | null, sessionId: string | null, bankId: string | null, metadataKey: string | null, metadataValue: string | null, ids: number, externalIds: number }, counts: Array<{ kind: string, count: number }> } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type DashEraseSubjectMutationVariables = Exact<{
  selector: ErasureSelector;
  dryRun: boolean;
}>;


export type DashEraseSubjectMutation = { eraseSubject: { id: string, dryRun: boolean, total: number, counts: Array<{ kind: string, count: number }> } };

export type DashFactsQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type DashFactsQuery = { facts: { edges: Array<{ node: { id: string, bankId: string, text: string, kind: string | null, status: FactStatus, usefulness: number, signalCount: number, lastSignalAt: string | null, lastUsedAt: string | null, createdAt: string } }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } }, failedFacts: Array<{ rejectedEpisodeCount: number, fact: { id: string, text: string, status: FactStatus, usefulness: number } }> };

export type DashFeedbackFragment = { id: string, episodeId: string | null, agentId: string | null, feedbackType: FeedbackType, rating: number | null, score: number | null, corrections: string | null, eventType: string | null, accepted: boolean | null, reason: string | null, createdAt: string };

export type DashFeedbackAddedSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type DashFeedbackAddedSubscription = { feedbackAdded: { feedback: { id: string, episodeId: string | null, agentId: string | null, feedbackType: FeedbackType, rating: number | null, score: number | null, corrections: string | null, eventType: string | null, accepted: boolean | null, reason: string | null, createdAt: string }, episode: { id: string, title: string | null, agentId: string } | null } };

export type DashRecentFeedbackQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type DashRecentFeedbackQuery = { feedback: { edges: Array<{ node: { id: string, episodeId: string | null, agentId: string | null, feedbackType: FeedbackType, rating: number | null, score: number | null, corrections: string | null, eventType: string | null, accepted: boolean | null, reason: string | null, createdAt: string } }>, pageInfo: { endCursor: string | null, hasNextPage: boolean } } };

export type DashLearningQueryVariables = Exact<{
  startDate: string;
  endDate: string;
}>;


export type DashLearningQuery = { learningAnalytics: { eventsByDay: Array<{ date: string, count: number }>, eventsByType: Array<{ eventType: string, count: number }>, correctedFields: Array<{ field: string, count: number }>, layoutStats: Array<{ layoutFingerprint: string, seenCount: number, exampleCount: number, correctionRate: number, lastSeenAt: string }>, confidenceTrend: Array<{ date: string, averageConfidence: number }> } };

export type DashFewShotQueryVariables = Exact<{
  layoutFingerprint: string;
}>;


export type DashFewShotQuery = { fewShotExamples: { examples: Array<{ feedbackId: string, inputSnippet: string, output: unknown, createdAt: string }> } };

export type DashMemoryQueryVariables = Exact<{ [key: string]: never; }>;


export type DashMemoryQuery = { memorySummary: { episodes: number, segments: number, facts: number, feedback: number, canvasAudits: number, layoutProfiles: number, averageOverallScore: number | null, acceptanceRate: number | null }, topicPerformance: Array<{ topic: string, episodes: number, outputs: number, averageScore: number | null, acceptanceRate: number | null }> };

export type DashTopicTrendQueryVariables = Exact<{
  topic: string;
  days: number;
}>;


export type DashTopicTrendQuery = { topicTrend: Array<{ date: string, averageScore: number | null, episodes: number }> };

export type DashForgetPreviewMutationVariables = Exact<{
  input: ForgetInput;
}>;


export type DashForgetPreviewMutation = { forgetEpisodes: { examined: number, deleted: number, preserved: number, deletedIds: Array<string> } };

export type DashStorageUsageQueryVariables = Exact<{ [key: string]: never; }>;


export type DashStorageUsageQuery = { storageUsage: { quotaRows: number | null, quotaBytes: number | null, episodes: { rows: number, bytes: number }, segments: { rows: number, bytes: number }, facts: { rows: number, bytes: number }, total: { rows: number, bytes: number } } };

export type DashViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type DashViewerQuery = { viewer: { orgId: string, orgName: string, role: Role, apiKeyName: string } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const DashCanvasStatsFragmentDoc = new TypedDocumentString(`
    fragment DashCanvasStats on CanvasTypeStats {
  canvasType
  componentType
  presentations
  closes
  submits
  avgEngagementSeconds
  avgFeedbackScore
}
    `, {"fragmentName":"DashCanvasStats"}) as unknown as TypedDocumentString<DashCanvasStatsFragment, unknown>;
export const DashFeedbackFragmentDoc = new TypedDocumentString(`
    fragment DashFeedback on Feedback {
  id
  episodeId
  agentId
  feedbackType
  rating
  score
  corrections
  eventType
  accepted
  reason
  createdAt
}
    `, {"fragmentName":"DashFeedback"}) as unknown as TypedDocumentString<DashFeedbackFragment, unknown>;
export const DashCanvasDocument = new TypedDocumentString(`
    query DashCanvas($agentId: String!, $timeRange: String!) {
  canvasInsights(agentId: $agentId, timeRange: $timeRange) {
    byType {
      ...DashCanvasStats
    }
    byComponent {
      ...DashCanvasStats
    }
    closesQuickly
    engages
    submits
  }
}
    fragment DashCanvasStats on CanvasTypeStats {
  canvasType
  componentType
  presentations
  closes
  submits
  avgEngagementSeconds
  avgFeedbackScore
}`) as unknown as TypedDocumentString<DashCanvasQuery, DashCanvasQueryVariables>;
export const DashMemoryContextDocument = new TypedDocumentString(`
    query DashMemoryContext($input: MemoryContextInput!) {
  memoryContext(input: $input) {
    policy
    tokenEstimate
    candidatesConsidered
    memoriesSelected
    entries {
      id
      episodeId
      role
      content
      createdAt
      tokenEstimate
      zone
      relevance
    }
    leftOut(limit: 20) {
      id
      episodeId
      role
      content
      createdAt
      tokenEstimate
      relevance
      reason
      zone
      tokensLeft
    }
  }
}
    `) as unknown as TypedDocumentString<DashMemoryContextQuery, DashMemoryContextQueryVariables>;
export const DashEmbeddingStatusDocument = new TypedDocumentString(`
    query DashEmbeddingStatus {
  embeddingStatus {
    provider
    model
    dimension
    pendingVectors
  }
}
    `) as unknown as TypedDocumentString<DashEmbeddingStatusQuery, DashEmbeddingStatusQueryVariables>;
export const DashEpisodesDocument = new TypedDocumentString(`
    query DashEpisodes($filter: EpisodeFilter, $first: Int!, $after: String) {
  episodes(filter: $filter, first: $first, after: $after) {
    edges {
      cursor
      node {
        id
        agentId
        sessionId
        title
        topic
        createdAt
        accepted
        overallScore
        aggregateFeedbackScore
        feedbackCount
        canvasActionCount
        decayScore
      }
    }
    pageInfo {
      endCursor
      hasNextPage
    }
  }
}
    `) as unknown as TypedDocumentString<DashEpisodesQuery, DashEpisodesQueryVariables>;
export const DashEpisodeDocument = new TypedDocumentString(`
    query DashEpisode($id: ID!) {
  episode(id: $id) {
    id
    agentId
    sessionId
    title
    task
    intent
    topic
    blueprint
    createdAt
    endedAt
    accepted
    overallScore
    aggregateFeedbackScore
    feedbackCount
    decayScore
    segments(limit: 200) {
      id
      seq
      role
      content
      tokenEstimate
      createdAt
    }
    outputs(limit: 50) {
      id
      kind
      content
      difficulty
      qualityScore
      regenerationRound
    }
    facts(limit: 50) {
      id
      text
      kind
      status
      usefulness
    }
    canvasContext(limit: 100) {
      id
      canvasId
      canvasType
      componentType
      action
      createdAt
    }
    feedbackContext(limit: 100) {
      ...DashFeedback
    }
  }
}
    fragment DashFeedback on Feedback {
  id
  episodeId
  agentId
  feedbackType
  rating
  score
  corrections
  eventType
  accepted
  reason
  createdAt
}`) as unknown as TypedDocumentString<DashEpisodeQuery, DashEpisodeQueryVariables>;
export const DashMemoryTraceDocument = new TypedDocumentString(`
    query DashMemoryTrace($id: ID!) {
  episode(id: $id) {
    id
    memoryTrace {
      id
      operation
      seq
      query
      strategy
      mode
      budget
      createdAt
      items {
        rank
        factId
        episodeId
        segmentId
        zone
        semanticScore
        lexicalScore
        relevance
        usefulnessScore
        usefulnessSource
        finalScore
        used
      }
      credit {
        id
        factId
        signalType
        source
        feedbackId
        episodeId
        traceId
        delta
        createdAt
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DashMemoryTraceQuery, DashMemoryTraceQueryVariables>;
export const DashFactBanksDocument = new TypedDocumentString(`
    query DashFactBanks {
  factBanks(first: 200) {
    bankId
    facts
    lastFactAt
  }
}
    `) as unknown as TypedDocumentString<DashFactBanksQuery, DashFactBanksQueryVariables>;
export const DashFactSearchDocument = new TypedDocumentString(`
    query DashFactSearch($filter: FactFilter, $first: Int!, $after: String, $orderBy: FactOrder!) {
  facts(filter: $filter, first: $first, after: $after, orderBy: $orderBy) {
    edges {
      node {
        id
        bankId
        text
        kind
        status
        usefulness
        signalCount
        lastSignalAt
        createdAt
      }
    }
    pageInfo {
      endCursor
      hasNextPage
    }
  }
}
    `) as unknown as TypedDocumentString<DashFactSearchQuery, DashFactSearchQueryVariables>;
export const DashFactDocument = new TypedDocumentString(`
    query DashFact($id: ID!) {
  fact(id: $id) {
    id
    bankId
    text
    kind
    externalId
    scope
    key
    value
    status
    confidence
    supportCount
    usefulness
    signalCount
    lastSignalAt
    lastUsedAt
    createdAt
    updatedAt
    queryContexts {
      query
      usefulness
      signalCount
      lastSignalAt
      embedded
    }
    signalHistory(last: 200) {
      id
      signalType
      confidence
      delta
      query
      context
      createdAt
      source
      feedbackId
      episodeId
      usefulnessAfter
    }
  }
}
    `) as unknown as TypedDocumentString<DashFactQuery, DashFactQueryVariables>;
export const DashRecallDocument = new TypedDocumentString(`
    query DashRecall($input: RecallInput!) {
  recall(input: $input) {
    fact {
      id
      text
      kind
      status
    }
    semanticScore
    lexicalScore
    relevance
    strategyUsed
    usefulnessScore
    usefulnessSource
    finalScore
  }
}
    `) as unknown as TypedDocumentString<DashRecallQuery, DashRecallQueryVariables>;
export const DashFactHistoryDocument = new TypedDocumentString(`
    query DashFactHistory($id: ID!) {
  fact(id: $id) {
    id
    supersededById
    validFrom
    validTo
    history(limit: 100) {
      text
      value
      status
      kind
      bankId
      hasEmbedding
      validFrom
      validTo
      supersededById
      from
      to
      writtenByKeyId
      changedByKeyId
      changed
    }
  }
}
    `) as unknown as TypedDocumentString<DashFactHistoryQuery, DashFactHistoryQueryVariables>;
export const DashFactSuccessorDocument = new TypedDocumentString(`
    query DashFactSuccessor($id: ID!) {
  fact(id: $id) {
    id
    text
    supersededById
  }
}
    `) as unknown as TypedDocumentString<DashFactSuccessorQuery, DashFactSuccessorQueryVariables>;
export const DashErasuresDocument = new TypedDocumentString(`
    query DashErasures($first: Int, $after: String) {
  erasures(first: $first, after: $after) {
    edges {
      node {
        id
        createdAt
        apiKeyId
        operation
        dryRun
        total
        selector {
          agentId
          sessionId
          bankId
          metadataKey
          metadataValue
          ids
          externalIds
        }
        counts {
          kind
          count
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<DashErasuresQuery, DashErasuresQueryVariables>;
export const DashEraseSubjectDocument = new TypedDocumentString(`
    mutation DashEraseSubject($selector: ErasureSelector!, $dryRun: Boolean!) {
  eraseSubject(selector: $selector, dryRun: $dryRun) {
    id
    dryRun
    total
    counts {
      kind
      count
    }
  }
}
    `) as unknown as TypedDocumentString<DashEraseSubjectMutation, DashEraseSubjectMutationVariables>;
export const DashFactsDocument = new TypedDocumentString(`
    query DashFacts($first: Int!, $after: String) {
  facts(first: $first, after: $after) {
    edges {
      node {
        id
        bankId
        text
        kind
        status
        usefulness
        signalCount
        lastSignalAt
        lastUsedAt
        createdAt
      }
    }
    pageInfo {
      endCursor
      hasNextPage
    }
  }
  failedFacts(topN: 10) {
    rejectedEpisodeCount
    fact {
      id
      text
      status
      usefulness
    }
  }
}
    `) as unknown as TypedDocumentString<DashFactsQuery, DashFactsQueryVariables>;
export const DashFeedbackAddedDocument = new TypedDocumentString(`
    subscription DashFeedbackAdded {
  feedbackAdded {
    feedback {
      ...DashFeedback
    }
    episode {
      id
      title
      agentId
    }
  }
}
    fragment DashFeedback on Feedback {
  id
  episodeId
  agentId
  feedbackType
  rating
  score
  corrections
  eventType
  accepted
  reason
  createdAt
}`) as unknown as TypedDocumentString<DashFeedbackAddedSubscription, DashFeedbackAddedSubscriptionVariables>;
export const DashRecentFeedbackDocument = new TypedDocumentString(`
    query DashRecentFeedback($first: Int!, $after: String) {
  feedback(first: $first, after: $after) {
    edges {
      node {
        ...DashFeedback
      }
    }
    pageInfo {
      endCursor
      hasNextPage
    }
  }
}
    fragment DashFeedback on Feedback {
  id
  episodeId
  agentId
  feedbackType
  rating
  score
  corrections
  eventType
  accepted
  reason
  createdAt
}`) as unknown as TypedDocumentString<DashRecentFeedbackQuery, DashRecentFeedbackQueryVariables>;
export const DashLearningDocument = new TypedDocumentString(`
    query DashLearning($startDate: DateTime!, $endDate: DateTime!) {
  learningAnalytics(startDate: $startDate, endDate: $endDate) {
    eventsByDay {
      date
      count
    }
    eventsByType {
      eventType
      count
    }
    correctedFields {
      field
      count
    }
    layoutStats {
      layoutFingerprint
      seenCount
      exampleCount
      correctionRate
      lastSeenAt
    }
    confidenceTrend {
      date
      averageConfidence
    }
  }
}
    `) as unknown as TypedDocumentString<DashLearningQuery, DashLearningQueryVariables>;
export const DashFewShotDocument = new TypedDocumentString(`
    query DashFewShot($layoutFingerprint: String!) {
  fewShotExamples(layoutFingerprint: $layoutFingerprint, limit: 3) {
    examples {
      feedbackId
      inputSnippet
      output
      createdAt
    }
  }
}
    `) as unknown as TypedDocumentString<DashFewShotQuery, DashFewShotQueryVariables>;
export const DashMemoryDocument = new TypedDocumentString(`
    query DashMemory {
  memorySummary {
    episodes
    segments
    facts
    feedback
    canvasAudits
    layoutProfiles
    averageOverallScore
    acceptanceRate
  }
  topicPerformance {
    topic
    episodes
    outputs
    averageScore
    acceptanceRate
  }
}
    `) as unknown as TypedDocumentString<DashMemoryQuery, DashMemoryQueryVariables>;
export const DashTopicTrendDocument = new TypedDocumentString(`
    query DashTopicTrend($topic: String!, $days: Int!) {
  topicTrend(topic: $topic, days: $days) {
    date
    averageScore
    episodes
  }
}
    `) as unknown as TypedDocumentString<DashTopicTrendQuery, DashTopicTrendQueryVariables>;
export const DashForgetPreviewDocument = new TypedDocumentString(`
    mutation DashForgetPreview($input: ForgetInput!) {
  forgetEpisodes(input: $input) {
    examined
    deleted
    preserved
    deletedIds
  }
}
    `) as unknown as TypedDocumentString<DashForgetPreviewMutation, DashForgetPreviewMutationVariables>;
export const DashStorageUsageDocument = new TypedDocumentString(`
    query DashStorageUsage {
  storageUsage {
    episodes {
      rows
      bytes
    }
    segments {
      rows
      bytes
    }
    facts {
      rows
      bytes
    }
    total {
      rows
      bytes
    }
    quotaRows
    quotaBytes
  }
}
    `) as unknown as TypedDocumentString<DashStorageUsageQuery, DashStorageUsageQueryVariables>;
export const DashViewerDocument = new TypedDocumentString(`
    query DashViewer {
  viewer {
    orgId
    orgName
    role
    apiKeyName
  }
}
    `) as unknown as TypedDocumentString<DashViewerQuery, DashViewerQueryVariables>;