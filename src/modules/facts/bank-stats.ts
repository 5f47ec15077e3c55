import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { templateRows } from '../../db/typed-sql';
import { COMMON_POSTINGS } from './lexical.sql';

/** A bank's size and mean fact length in distinct stems, what BM25's idf and length norm need. */
export interface BankStats {
  n: number;
  avgLen: number;
}

/**
 * How long a bank's statistics are reused before they are counted again. Counting a bank of
 * 100,000 facts reads every row (0.3 to 0.7 s measured on a loaded 2-core machine), so no recall
 * waits for it but the bank's first: a recall that finds the entry older than this answers with it
 * and starts a count in the background, which the next recalls use. BM25 moves little when N or
 * the mean length drift by a minute's writes (idf is logarithmic in N).
 */
const BANK_STATS_TTL_MS = 30_000;
/** banks whose statistics are kept; the least recently counted go first */
const MAX_BANKS = 10_000;

const cache = new Map<string, BankStats & { at: number }>();

/** Stems too common in the table to look up in the GIN index (see lexical.sql.ts), with their share of facts. */
export interface CommonStems {
  stems: string[];
  freqs: number[];
}
let common: (CommonStems & { at: number }) | null = null;
/** what is being read again in the background (bank keys, and '' for the common stems) */
const refreshing = new Set<string>();

/**
 * `entry` when there is one, read again in the background (on an EntityManager of its own) when it
 * is older than BANK_STATS_TTL_MS; without an entry, the caller waits for the first read.
 */
async function current<T extends { at: number }>(
  em: EntityManager,
  key: string,
  entry: T | null | undefined,
  nowMs: number,
  read: (em: EntityManager) => Promise<T>,
): Promise<T> {
  if (!entry) return read(em);
  if (nowMs - entry.at >= BANK_STATS_TTL_MS && !refreshing.has(key)) {
    refreshing.add(key);
    void read(em.fork())
      .catch(() => undefined)
      .finally(() => refreshing.delete(key));
  }
  return entry;
}

/**
 * The stems PostgreSQL's statistics (ANALYZE's most common elements of `facts.text_tsv`) put in more
 * than `postings` facts of the table, read again when older than BANK_STATS_TTL_MS: a GIN scan of
 * one of them reads its whole posting list, whatever the bank.
 */
export function commonStems(em: EntityManager, postings: number, nowMs = Date.now()): Promise<CommonStems> {
  if (!common && firstCommon?.postings === postings) return firstCommon.read;
  return current(em, '', common, nowMs, (db) => readCommonStems(db, postings, nowMs));
}

/** The first read of the common stems, started beside the first count of a bank (see `bankStats`). */
let firstCommon: { postings: number; read: Promise<CommonStems> } | null = null;

async function readCommonStems(em: EntityManager, postings: number, nowMs: number): Promise<CommonStems & { at: number }> {
  const rows = await templateRows<{ stem: string; freq: number }>(
    em,
    raw<{ stem: string; freq: number }>`SELECT e.stem, e.freq::float8 AS freq
      FROM pg_stats s CROSS JOIN LATERAL unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(stem, freq)
     WHERE s.schemaname = current_schema() AND s.tablename = 'facts' AND s.attname = 'text_tsv'
       AND e.stem IS NOT NULL AND e.freq * (SELECT greatest(reltuples, 0) FROM pg_class WHERE oid = 'facts'::regclass) > ${postings}`,
  );
  common = { stems: rows.map((r) => r.stem), freqs: rows.map((r) => Number(r.freq)), at: nowMs };
  return common;
}

/** The bank's statistics, counted again in the background when older than BANK_STATS_TTL_MS (organizations never share an entry). */
export function bankStats(em: EntityManager, orgId: string, bankId: string, nowMs = Date.now()): Promise<BankStats> {
  const key = `${orgId}\u0000${bankId}`;
  if (!common && !firstCommon) {
    // a recall that counts a bank next reads the common stems: both statements at once, on two connections
    const read = readCommonStems(em.fork(), COMMON_POSTINGS, nowMs);
    firstCommon = { postings: COMMON_POSTINGS, read };
    read.then(
      () => (firstCommon = null),
      () => (firstCommon = null),
    );
  }
  return current(em, key, cache.get(key), nowMs, (db) => countBank(db, orgId, bankId, key, nowMs));
}

async function countBank(
  em: EntityManager,
  orgId: string,
  bankId: string,
  key: string,
  nowMs: number,
): Promise<BankStats & { at: number }> {
  const [row] = await templateRows<{ n: string | number; avg_len: number | null }>(
    em,
    raw<{ n: string | number; avg_len: number | null }>`SELECT count(*) AS n, avg(length(f.text_tsv))::float8 AS avg_len
      FROM facts f WHERE f.org_id = ${orgId}::uuid AND f.bank_id = ${bankId}::text AND f.text <> ''`,
  );
  const stats = { n: Number(row.n), avgLen: Number(row.avg_len ?? 0), at: nowMs };
  cache.delete(key);
  cache.set(key, stats);
  if (cache.size > MAX_BANKS) cache.delete(cache.keys().next().value!);
  return stats;
}
