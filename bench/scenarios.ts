import { BENCH_WRITER_AGENT } from './seed';

/** What the load generator needs to vary between requests (read from the seeded database). */
export interface BenchData {
  orgId: string;
  agentId: string;
  /** the agent whose episodes scenario 13 ranks */
  recallAgentId: string;
  bankId: string;
  /** a sample of the org's episode ids (scenario 2 and 3 pick from them) */
  episodeIds: string[];
  /** the episode scenario 4 hammers */
  hotEpisodeId: string;
  /** the layout fingerprints seeded with corrections */
  fingerprints: string[];
  embeddingDim: number;
  /** a sample of the bank's fact ids (signals pick from them) */
  factIds: string[];
}

export interface Scenario {
  id: string;
  title: string;
  /** Query / Mutation / Subscription root field; the scenario is skipped when the schema lacks it */
  root: { type: 'Query' | 'Mutation' | 'Subscription'; field: string };
  write: boolean;
  /** connections of this scenario's load (default: the run's --connections) */
  connections?: number;
  /** false: the raw baseline has no such statement; only the GraphQL server is measured */
  raw?: boolean;
  query: string;
  variables(d: BenchData, i: number): Record<string, unknown>;
}

const CONTEXT = `id agentId title createdAt canvasActionCount feedbackCount aggregateFeedbackScore
  canvasContext { id canvasType action createdAt }
  feedbackContext { id feedbackType score createdAt }
  segments { id seq role content tokenEstimate }`;

const pick = <T>(xs: T[], i: number): T => xs[i % xs.length];

const MEMORY_CONTEXT = `query Bench8($input: MemoryContextInput!) { memoryContext(input: $input) { entries { id episodeId role content createdAt tokenEstimate } tokenEstimate policy candidatesConsidered memoriesSelected } }`;
const memoryContextVariables = (d: BenchData, i: number) => ({
  input: { agentId: d.agentId, query: `topic-${i % 50} words match`, tokenBudget: 4000, mode: 'FOVEATED', maxCandidates: 2000 },
});

const RECALL_EPISODES = `query Bench13($agentId: String!, $query: String!, $emb: [Float!]) { recallEpisodes(agentId: $agentId, query: $query, queryEmbedding: $emb, limit: 10) {
  episode { id title createdAt } relevance recency baseScore canvasBoost feedbackBoost finalScore } }`;
const recallEpisodesVariables = (d: BenchData, i: number) => ({
  agentId: d.recallAgentId,
  query: `topic ${i % 50}`,
  emb: queryEmbedding(d.embeddingDim, i % 100),
});

const RECALL = `query Bench7($input: RecallInput!) { recall(input: $input) { fact { id text usefulness } semanticScore usefulnessScore usefulnessSource finalScore } }`;
export const recallVariables = (d: BenchData, i: number) => ({
  input: {
    bankId: d.bankId,
    query: `topic ${i % 50} details`,
    queryEmbedding: queryEmbedding(d.embeddingDim, i % 100),
    limit: 10,
    boostByUsefulness: true,
  },
});

/** A deterministic pseudo-random unit vector (the same i gives the same query in both servers). */
function queryEmbedding(dim: number, i: number): number[] {
  let x = (i * 2654435761) % 4294967296;
  const v: number[] = [];
  for (let k = 0; k < dim; k++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    v.push(x / 2147483648 - 0.5);
  }
  return v;
}

const base: Scenario[] = [
  {
    id: 'viewer',
    title: '0 viewer (authentication and the GraphQL pipeline alone)',
    root: { type: 'Query', field: 'viewer' },
    write: false,
    query: `query Bench0 { viewer { orgId orgName role apiKeyId apiKeyName } }`,
    variables: () => ({}),
  },
  {
    id: 'episodes',
    title: '1 episodes(first: 20) + canvasContext, feedbackContext, segments',
    root: { type: 'Query', field: 'episodes' },
    write: false,
    query: `query Bench1($first: Int) { episodes(first: $first) { edges { cursor node { ${CONTEXT} } } pageInfo { hasNextPage endCursor } } }`,
    variables: () => ({ first: 20 }),
  },
  {
    id: 'episode',
    title: '2 episode(id) + the same context',
    root: { type: 'Query', field: 'episode' },
    write: false,
    query: `query Bench2($id: ID!) { episode(id: $id) { ${CONTEXT} } }`,
    variables: (d, i) => ({ id: pick(d.episodeIds, i) }),
  },
  {
    id: 'feedback-spread',
    title: '3 submitFeedback over many episodes',
    root: { type: 'Mutation', field: 'submitFeedback' },
    write: true,
    query: `mutation Bench3($input: SubmitFeedbackInput!) { submitFeedback(input: $input) { feedback { id score } episode { id feedbackCount aggregateFeedbackScore } } }`,
    variables: (d, i) => ({ input: { episodeId: pick(d.episodeIds, i * 7919), feedbackType: 'RATING', rating: 1 + (i % 5) } }),
  },
  {
    id: 'feedback-hot',
    title: '4 submitFeedback on one hot episode',
    root: { type: 'Mutation', field: 'submitFeedback' },
    write: true,
    query: `mutation Bench4($input: SubmitFeedbackInput!) { submitFeedback(input: $input) { feedback { id score } episode { id feedbackCount aggregateFeedbackScore } } }`,
    variables: (d, i) => ({ input: { episodeId: d.hotEpisodeId, feedbackType: 'RATING', rating: 1 + (i % 5) } }),
  },
  {
    id: 'few-shot',
    title: '5 fewShotExamples(layoutFingerprint, limit: 3)',
    root: { type: 'Query', field: 'fewShotExamples' },
    write: false,
    query: `query Bench5($fp: String!) { fewShotExamples(layoutFingerprint: $fp, limit: 3) { examples { feedbackId inputSnippet output createdAt } hintExamplesJson } }`,
    variables: (d, i) => ({ fp: pick(d.fingerprints, i) }),
  },
  {
    id: 'analytics',
    title: '6 learningAnalytics over 90 days',
    root: { type: 'Query', field: 'learningAnalytics' },
    write: false,
    query: `query Bench6($start: DateTime!, $end: DateTime!) { learningAnalytics(startDate: $start, endDate: $end) {
      eventsByDay { date count } eventsByType { eventType count } correctedFields { field count }
      layoutStats { layoutFingerprint seenCount exampleCount correctionRate lastSeenAt } confidenceTrend { date averageConfidence } } }`,
    variables: () => ({ start: new Date(Date.now() - 90 * 86_400_000).toISOString(), end: new Date().toISOString() }),
  },
  {
    id: 'recall',
    title: '7 recall with boosting over the fact bank',
    root: { type: 'Query', field: 'recall' },
    write: false,
    query: RECALL,
    variables: (d, i) => recallVariables(d, i),
  },
  {
    id: 'memory-context',
    title: '8 memoryContext FOVEATED over 2,000 segments',
    root: { type: 'Query', field: 'memoryContext' },
    write: false,
    query: MEMORY_CONTEXT,
    variables: (d, i) => memoryContextVariables(d, i),
  },
  {
    id: 'upsert-facts',
    title: '10 upsertFacts, one new fact with an embedding into the recall bank',
    root: { type: 'Mutation', field: 'upsertFacts' },
    write: true,
    raw: false,
    query: `mutation Bench10($inputs: [FactInput!]!) { upsertFacts(inputs: $inputs) { id } }`,
    variables: (d, i) => ({
      inputs: [
        {
          bankId: d.bankId,
          text: `bench fact ${i} about topic ${i % 50}`,
          externalId: `bench-${process.pid}-${i}`,
          embedding: queryEmbedding(d.embeddingDim, 1000 + i),
        },
      ],
    }),
  },
  {
    id: 'submit-signals',
    title: '11 submitSignals, one signal with a query embedding',
    root: { type: 'Mutation', field: 'submitSignals' },
    write: true,
    raw: false,
    query: `mutation Bench11($signals: [SignalInput!]!) { submitSignals(signals: $signals) { id usefulness } }`,
    variables: (d, i) => ({
      signals: [
        {
          factId: pick(d.factIds, i * 7919),
          signalType: (['USED', 'IGNORED', 'HELPFUL'] as const)[i % 3],
          query: `topic ${i % 50} details`,
          queryEmbedding: queryEmbedding(d.embeddingDim, i % 100),
        },
      ],
    }),
  },
  {
    id: 'append-segments',
    title: '12 appendSegments, two turns',
    root: { type: 'Mutation', field: 'appendSegments' },
    write: true,
    raw: false,
    query: `mutation Bench12($episodeId: ID!, $segments: [SegmentInput!]!) { appendSegments(episodeId: $episodeId, segments: $segments) { id } }`,
    variables: (d, i) => ({
      episodeId: pick(d.episodeIds, i * 7919),
      segments: [
        { role: 'user', content: `question ${i} about topic ${i % 50}` },
        { role: 'assistant', content: `answer ${i} with some words to match a query` },
      ],
    }),
  },
  {
    id: 'recall-episodes',
    title: '13 recallEpisodes with a query embedding over 10,000 episodes',
    root: { type: 'Query', field: 'recallEpisodes' },
    write: false,
    query: RECALL_EPISODES,
    variables: (d, i) => recallEpisodesVariables(d, i),
  },
  {
    id: 'record-episode',
    title: '14 recordEpisode with an embedding and 3 segments',
    root: { type: 'Mutation', field: 'recordEpisode' },
    write: true,
    raw: false,
    query: `mutation Bench14($input: RecordEpisodeInput!) { recordEpisode(input: $input) { id } }`,
    variables: (d, i) => ({
      input: {
        agentId: BENCH_WRITER_AGENT,
        sessionId: `writer-${i % 100}`,
        title: `Episode ${i}`,
        task: `Explain topic ${i % 50}`,
        embedding: queryEmbedding(d.embeddingDim, i),
        segments: [0, 1, 2].map((k) => ({ role: k % 2 ? 'assistant' : 'user', content: `turn ${k} about topic-${i % 50}` })),
      },
    }),
  },
];

/** Scenarios measured again with a single connection (their latency without queueing), as `<id>-1`. */
const ONE_CONNECTION: Record<string, string> = {
  recall: '7b recall with boosting, one connection (latency)',
  'memory-context': '8b memoryContext FOVEATED, one connection (latency)',
  'recall-episodes': '13b recallEpisodes with a query embedding, one connection (latency)',
};

export const scenarios: Scenario[] = base.flatMap((s) =>
  ONE_CONNECTION[s.id] ? [s, { ...s, id: `${s.id}-1`, title: ONE_CONNECTION[s.id], connections: 1 }] : [s],
);

/** Scenario 9: the subscription every fan-out client opens, and the mutation that triggers it. */
export const fanOut = {
  id: 'fan-out',
  root: { type: 'Subscription' as const, field: 'feedbackAdded' },
  subscription: `subscription Bench9($episodeId: ID) { feedbackAdded(episodeId: $episodeId) { feedback { id feedbackType score } episode { id feedbackCount aggregateFeedbackScore } } }`,
  mutation: scenarios.find((s) => s.id === 'feedback-hot')!.query,
};
