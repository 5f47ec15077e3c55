import type { Target } from './load';
import { type BenchData, recallVariables } from './scenarios';

export interface RecallAgreement {
  queries: number;
  /** share of the raw baseline's top 10 that the server returned, averaged over the queries */
  recallAt10: number;
  /** queries whose ids, order and scores (to 1e-9) were the same */
  identical: number;
}

const RECALL_IDS = `query BenchRecallIds($input: RecallInput!) { recall(input: $input) { fact { id } finalScore } }`;

/** Asks both servers the same recall queries and compares the answers (the raw one ranks the whole bank). */
export async function compareRecall(targets: Target[], data: BenchData, queries = 10): Promise<RecallAgreement> {
  let sum = 0;
  let identical = 0;
  for (let i = 0; i < queries; i++) {
    const body = JSON.stringify({ query: RECALL_IDS, variables: recallVariables(data, i) });
    const [a, b] = await Promise.all(
      targets.map(async (t) => {
        const res = await fetch(t.url, { method: 'POST', headers: { 'content-type': 'application/json', ...t.headers }, body });
        // the GraphQL answer, or the raw baseline's rows
        const json = (await res.json()) as {
          data?: { recall: { fact: { id: string }; finalScore: number }[] } | { id: string; final: number }[];
        };
        const rows = Array.isArray(json.data)
          ? json.data.map((r) => ({ id: r.id, score: Number(r.final) }))
          : (json.data?.recall ?? []).map((r) => ({ id: r.fact.id, score: r.finalScore }));
        return rows;
      }),
    );
    const want = new Set(b.map((r) => r.id));
    sum += want.size ? a.filter((r) => want.has(r.id)).length / want.size : 1;
    if (a.length === b.length && a.every((r, k) => r.id === b[k].id && Math.abs(r.score - b[k].score) < 1e-9)) identical += 1;
  }
  return { queries, recallAt10: sum / queries, identical };
}
