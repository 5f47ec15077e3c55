import { sql as raw, type RawBuilder } from 'kysely';
import { type FactView, liveIn } from './as-of.sql';

/**
 * Lexical ranking: BM25 over the English stems PostgreSQL keeps in `facts.text_tsv`, the query
 * being the OR of its stems (questions rarely share every word with the fact that answers them).
 *
 * Facts are short (a sentence or a turn of a conversation), so a stem's frequency within one fact
 * is taken as 1 (its presence) and a fact's length is its number of distinct stems. For a fact f
 * and the query's stems T:
 *
 *   idf(t)   = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))
 *   bm25(f)  = sum over t in T present in f of idf(t) * (K1 + 1) / (1 + K1 * (1 - B + B * len(f) / avgLen))
 *   lexical  = bm25(f) / (the most any fact could score: all of T, length 0)
 *            = (sum over t in T present in f of idf(t)) / (sum over t in T of idf(t))
 *              * (1 + K1 * (1 - B)) / (1 + K1 * (1 - B + B * len(f) / avgLen))          in 0..1
 *
 * N and avgLen are the bank's (see bank-stats.ts). df(t) is counted through the GIN index
 * `facts_lexical`, up to TERM_CAP facts per stem; the facts found are the candidates. A stem
 * PostgreSQL's statistics say is in more than COMMON_POSTINGS facts of the table is not looked up
 * (a GIN scan reads its whole posting list): it still scores every candidate, its df estimated from
 * those statistics; when the rarer stems find fewer than `limit` facts, the newest RECENT_SCAN facts
 * of the bank are matched against the common stems as well. In a bank where no stem reaches these
 * bounds the ranking is exact BM25.
 */
/** BM25's constants, measured on long conversations: turns are short and of similar length, so a low B */
const K1 = 0.9;
const B = 0.4;
/** at most this many facts are read per stem (and df counted up to it) */
const TERM_CAP = 500;
/** a stem in more facts of the table than this (by PostgreSQL's statistics) is not looked up in the index */
export const COMMON_POSTINGS = 5000;
/** how many of the bank's newest facts are matched against the common stems when the rarer ones find too few */
const RECENT_SCAN = 2000;
/** at most this many stems of a query count */
const MAX_TERMS = 32;

export interface LexicalScope {
  orgId: string;
  bankId: string;
  query: string;
  kinds: string[] | null;
  statuses: string[] | null;
  /** facts in the bank and their mean number of distinct stems */
  n: number;
  avgLen: number;
  /** the stems in more than COMMON_POSTINGS facts of the table by PostgreSQL's statistics, with their share of facts */
  common: { stems: string[]; freqs: number[] };
  /** which facts are seen (live now by default) */
  view: FactView;
  /** where they are read from (`factSource`) */
  source: RawBuilder<unknown>;
}

/** The filters of recall on the row `f` (the bank's live facts with text, of the kinds and statuses asked for). */
export function factFilters(s: Pick<LexicalScope, 'orgId' | 'bankId' | 'kinds' | 'statuses' | 'view'>): RawBuilder<boolean> {
  return raw<boolean>`f.org_id = ${s.orgId}::uuid AND f.bank_id = ${s.bankId}::text AND f.text <> ''
    AND (${s.kinds}::text[] IS NULL OR f.kind = any(${s.kinds}::text[]))
    AND (${s.statuses}::text[] IS NULL OR f.status = any(${s.statuses}::text[])) AND ${liveIn('f', s.view)}`;
}

/**
 * Common table expressions `terms` (the query's stems with their idf) and `lex` (the candidates:
 * id and normalised lexical score, the best `keep` of them), to be followed by more expressions or
 * a select. `wanted` is how many candidates the caller needs before the recent facts are scanned.
 */
export function lexicalCtes(s: LexicalScope, keep: number, wanted: number): RawBuilder<unknown> {
  const filters = factFilters(s);
  return raw`stems AS MATERIALIZED (
      SELECT t.lexeme,
             ('''' || replace(replace(t.lexeme, '\\', '\\\\'), '''', '''''') || '''')::tsquery AS tq,
             c.freq, c.freq IS NOT NULL AS common
        FROM (SELECT lexeme FROM unnest(to_tsvector('english'::regconfig, ${s.query}::text)) LIMIT ${MAX_TERMS}) t
        LEFT JOIN unnest(${s.common.stems}::text[], ${s.common.freqs}::float8[]) AS c(stem, freq) ON c.stem = t.lexeme),
    hits AS MATERIALIZED (
      SELECT t.lexeme, h.id, h.text_tsv
        FROM stems t CROSS JOIN LATERAL (
          SELECT f.id, f.text_tsv FROM ${s.source} f WHERE ${filters} AND f.text_tsv @@ t.tq LIMIT ${TERM_CAP}) h
       WHERE NOT t.common),
    recent AS MATERIALIZED (
      SELECT r.id, r.text_tsv FROM (
        SELECT f.id, f.text_tsv FROM ${s.source} f WHERE ${filters} ORDER BY f.created_at DESC LIMIT ${RECENT_SCAN}) r
       WHERE (SELECT count(DISTINCT id) FROM hits) < ${wanted}
         AND EXISTS (SELECT 1 FROM stems t WHERE t.common AND r.text_tsv @@ t.tq)),
    terms AS MATERIALIZED (
      SELECT t.tq, d.df
        FROM stems t CROSS JOIN LATERAL (
          SELECT CASE WHEN NOT t.common AND count(*) < ${TERM_CAP} THEN count(*)::float8
                      ELSE least(${s.n}::float8, greatest(count(*)::float8, coalesce(t.freq, 0.0) * ${s.n}::float8)) END AS df
            FROM hits h WHERE h.lexeme = t.lexeme) d),
    idf AS MATERIALIZED (
      SELECT t.tq, ln(1.0 + (greatest(${s.n}::float8 - t.df, 0.0) + 0.5) / (t.df + 0.5)) AS idf FROM terms t),
    lex AS MATERIALIZED (
      SELECT f.id, ${lexicalScoreOf('f', s)} AS score
        FROM (SELECT DISTINCT ON (id) id, text_tsv FROM (SELECT id, text_tsv FROM hits UNION ALL SELECT id, text_tsv FROM recent) u) f
       ORDER BY score DESC, f.id
       LIMIT ${keep})`;
}

/** The normalised lexical score of the row `alias` (0 when it has none of the stems); needs the expression `idf` of `lexicalCtes`. */
export function lexicalScoreOf(alias: string, s: Pick<LexicalScope, 'avgLen'>): RawBuilder<number> {
  const tsv = raw.ref(`${alias}.text_tsv`);
  return raw<number>`coalesce((SELECT sum(i.idf) FROM idf i WHERE ${tsv} @@ i.tq) / nullif((SELECT sum(idf) FROM idf), 0), 0.0::float8)
    * (1.0 + ${K1}::float8 * (1.0 - ${B}::float8))
    / (1.0 + ${K1}::float8 * (1.0 - ${B}::float8 + ${B}::float8 * length(${tsv}) / greatest(${s.avgLen}::float8, 1.0)))`;
}
