// Scoring of the retrieval-quality benchmark: the conversations it reads, the BM25 baseline it ranks
// by itself, and evidence recall at 5 and 10 per strategy and per question category. Pure code: the
// scenario (quality.ts) supplies the rankings and the lexemes.
import type pg from 'pg';

export interface Turn {
  /** the turn's id in its conversation (the questions' evidence names these) */
  id: string;
  speaker: string;
  text: string;
}

export interface Question {
  question: string;
  category: number;
  /** ids of the turns that hold the answer, only those the conversation has */
  evidence: string[];
}

export interface Conversation {
  id: string;
  /** in the order they were said: session after session */
  turns: Turn[];
  questions: Question[];
}

/** The categories scored (5, questions without an answer in the conversation, is left out). */
const CATEGORIES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

/** The text stored for a turn: what a memory client would write, the speaker and what was said. */
export const factText = (t: Turn): string => `${t.speaker}: ${t.text}`;

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
}
interface RawSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question: string; category: number; evidence?: string[] }[];
}

/**
 * Conversations from the evaluation file: `conversation.session_N` lists of turns (N from 1 while a
 * session or its date exists) and `qa` questions. Evidence entries may hold several ids
 * ("D1:3; D2:5"); ids the conversation lacks are dropped, and so are questions left with none.
 */
export function parseConversations(json: unknown): Conversation[] {
  return (json as RawSample[]).map((s) => {
    const turns: Turn[] = [];
    for (let n = 1; `session_${n}` in s.conversation || `session_${n}_date_time` in s.conversation; n++)
      for (const t of (s.conversation[`session_${n}`] as RawTurn[] | undefined) ?? [])
        turns.push({ id: t.dia_id, speaker: t.speaker, text: t.text });
    const ids = new Set(turns.map((t) => t.id));
    const questions = s.qa
      .filter((q) => q.category in CATEGORIES)
      .map((q) => ({
        question: q.question,
        category: q.category,
        evidence: [...new Set((q.evidence ?? []).flatMap((e) => e.split(/[;,\s]+/)).filter((id) => ids.has(id)))],
      }))
      .filter((q) => q.evidence.length > 0);
    return { id: s.sample_id, turns, questions };
  });
}

/** Lexeme -> number of occurrences, for each text: PostgreSQL's `to_tsvector('english', text)`. */
export async function lexemes(db: pg.Client, texts: string[]): Promise<Map<string, number>[]> {
  const out = texts.map(() => new Map<string, number>());
  const { rows } = await db.query<{ i: string; lexeme: string; tf: number }>(
    `SELECT t.i, u.lexeme, coalesce(array_length(u.positions, 1), 1) AS tf
       FROM unnest($1::text[]) WITH ORDINALITY AS t(text, i), unnest(to_tsvector('english', t.text)) AS u`,
    [texts],
  );
  for (const r of rows) out[Number(r.i) - 1].set(r.lexeme, r.tf);
  return out;
}

/**
 * Indices of the documents that share a term with the query, by Okapi BM25 (idf
 * ln(1 + (N - df + 0.5) / (df + 0.5)), document length = occurrences of its lexemes), best first;
 * ties keep the documents' order.
 */
export function bm25Rank(docs: Map<string, number>[], query: Iterable<string>, k1 = 0.9, b = 0.4): number[] {
  const n = docs.length;
  const len = docs.map((d) => [...d.values()].reduce((a, x) => a + x, 0));
  const avg = len.reduce((a, x) => a + x, 0) / Math.max(n, 1) || 1;
  const scores = new Map<number, number>();
  for (const term of new Set(query)) {
    const having: number[] = [];
    docs.forEach((d, i) => d.has(term) && having.push(i));
    if (!having.length) continue;
    const idf = Math.log(1 + (n - having.length + 0.5) / (having.length + 0.5));
    for (const i of having) {
      const tf = docs[i].get(term)!;
      const s = (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * len[i]) / avg));
      scores.set(i, (scores.get(i) ?? 0) + s);
    }
  }
  return [...scores.entries()].sort((x, y) => y[1] - x[1] || x[0] - y[0]).map(([i]) => i);
}

interface Recall {
  questions: number;
  /** share of questions with an evidence turn among the first 5 / 10 answers */
  at5: number;
  at10: number;
  /** share of questions with every evidence turn among the first 10 */
  all10: number;
}

export interface StrategyScore extends Recall {
  strategy: string;
  byCategory: Record<string, Recall>;
  /** median time of one recall as the client saw it, ms (null for the benchmark's own ranking) */
  p50Ms: number | null;
  /** how many questions each strategy actually ranked (`strategyUsed`: a fallback shows here), when the server says */
  used?: Record<string, number>;
}

/** Evidence recall of one strategy, question by question. */
export class RecallTally {
  private readonly rows: { category: number; h5: boolean; h10: boolean; all10: boolean }[] = [];
  private readonly ms: number[] = [];
  private readonly used = new Map<string, number>();

  /** `ranked`: the answers' turn ids, best first; `used`: the strategy the server says ranked them. */
  add(q: Question, ranked: string[], ms?: number, used?: string): void {
    if (used) this.used.set(used, (this.used.get(used) ?? 0) + 1);
    const top5 = new Set(ranked.slice(0, 5));
    const top10 = new Set(ranked.slice(0, 10));
    this.rows.push({
      category: q.category,
      h5: q.evidence.some((e) => top5.has(e)),
      h10: q.evidence.some((e) => top10.has(e)),
      all10: q.evidence.every((e) => top10.has(e)),
    });
    if (ms !== undefined) this.ms.push(ms);
  }

  score(strategy: string): StrategyScore {
    const of = (rows: typeof this.rows): Recall => {
      const share = (f: (r: (typeof rows)[number]) => boolean) => (rows.length ? rows.filter(f).length / rows.length : 0);
      return { questions: rows.length, at5: share((r) => r.h5), at10: share((r) => r.h10), all10: share((r) => r.all10) };
    };
    const byCategory: Record<string, Recall> = {};
    for (const c of Object.keys(CATEGORIES)) byCategory[c] = of(this.rows.filter((r) => r.category === Number(c)));
    const sorted = [...this.ms].sort((a, b) => a - b);
    return {
      strategy,
      ...of(this.rows),
      byCategory,
      p50Ms: sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : null,
      ...(this.used.size ? { used: Object.fromEntries(this.used) } : {}),
    };
  }
}

export interface QualityResult {
  data: string;
  conversations: number;
  facts: number;
  questions: number;
  /** how facts were written: text form and facts per upsertFacts call */
  factText: string;
  batch: number;
  /** facts still without an embedding when the questions were asked */
  factsWithoutEmbedding: number;
  strategies: StrategyScore[];
}

const pct = (x: number) => (x * 100).toFixed(1);

/** The Markdown table of a run: one row per strategy, recall in percent. */
export function qualityTable(q: QualityResult): string[] {
  const cats = Object.entries(CATEGORIES);
  return [
    `| strategy | recall@5 | recall@10 | all evidence @10 | ${cats.map(([c, name]) => `${c} ${name} @10`).join(' | ')} | p50 ms |`,
    `|---|---:|---:|---:|${cats.map(() => '---:|').join('')}---:|`,
    ...q.strategies.map(
      (s) =>
        `| ${s.strategy} | ${pct(s.at5)} | ${pct(s.at10)} | ${pct(s.all10)} | ${cats.map(([c]) => pct(s.byCategory[c].at10)).join(' | ')} | ${s.p50Ms === null ? '-' : s.p50Ms.toFixed(1)} |`,
    ),
  ];
}
