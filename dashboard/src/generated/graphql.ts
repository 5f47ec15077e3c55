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

export type DashCanvasStatsFragment = { canvasType: string, componentType: string | null, presentations: number, closes: number, submits: number, avgEngagementSeconds: number | null, avgFeedbackScore: number | null };

export type DashCanvasQueryVariables = Exact<{
  agentId: string;
  timeRange: string;
}>;


export type DashCanvasQuery = { canvasInsights: { closesQuickly: Array<string>, engages: Array<string>, submits: Array<string>, byType: Array<{ canvasType: string, componentType: string | null, presentations: number, closes: number, submits: number, avgEngagementSeconds: number | null, avgFeedbackScore: number | null }>, byComponent: Array<{ canvasType: string, componentType: string | null, presentations: number, closes: number, submits: number, avgEngagementSeconds: number | null, avgFeedbackScore: number | null }> } };

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