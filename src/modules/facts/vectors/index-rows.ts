import { sql as raw } from 'kysely';
import { type Row, sql } from '../../../db/typed-sql';
import type { IndexRow } from './bank-vectors';
import { BINARY_CONTEXT_EMBEDDING, decodeFloat8Array, fromBase64 } from './float8-binary';

/**
 * What the index reads of a fact (alias `f`): the vector (in PostgreSQL's binary array format, far
 * cheaper to decode than text), filters, usefulness and query contexts (their embeddings binary too).
 */
export const indexRows = (orgId: string) =>
  sql
    .selectFrom('facts as f')
    .select([
      'f.id',
      'f.bank_id',
      raw<boolean>`f.text <> ''`.as('has_text'),
      'f.kind',
      'f.status',
      raw<Buffer | null>`array_send(f.embedding)`.as('embedding'),
      'f.embedding_norm_sq as norm_sq',
      'f.embedding_model as model',
      'f.usefulness',
      raw<number | null>`date_part('epoch', f.last_signal_at) * 1000`.as('t'),
      raw<boolean>`f.superseded_by IS NOT NULL`.as('superseded'),
      raw<number | null>`date_part('epoch', f.valid_from) * 1000`.as('valid_from_ms'),
      raw<number | null>`date_part('epoch', f.valid_to) * 1000`.as('valid_to_ms'),
      raw<{ n: string; e: string | null; q: number | null; u: number; t: number | null }[] | null>`(SELECT json_agg(json_build_object(
          'n', c.normalized_query, 'e', ${raw.raw(BINARY_CONTEXT_EMBEDDING)}, 'q', c.query_embedding_norm_sq,
          'u', c.usefulness, 't', date_part('epoch', c.last_signal_at) * 1000))
        FROM fact_query_contexts c WHERE c.org_id = f.org_id AND c.fact_id = f.id)`.as('contexts'),
    ])
    .where('f.org_id', '=', orgId);

/**
 * Rows read per statement while a bank of `dim` dimensions is built: 20,000, fewer for large
 * vectors so a chunk's embeddings stay near 16 MiB as read and again as decoded (the heap a read
 * leaves behind is what the process keeps: 20,000 rows of 512 dimensions would be 160 MB).
 */
export const buildChunk = (dim: number): number => Math.max(1000, Math.min(20_000, Math.floor(2 ** 24 / (dim * 8))));

/** A chunk of a bank's facts with text in the order of the `(org_id, created_at, id)` index, after `after` (creation time as text, id). */
export const bankChunk = (orgId: string, bankId: string, after: [string, string] | null, limit: number) =>
  indexRows(orgId)
    .select(raw<string>`f.created_at::text`.as('at'))
    .where('f.bank_id', '=', bankId)
    .where(raw<boolean>`f.text <> ''`)
    .$if(after !== null, (q) => q.where(raw<boolean>`(f.created_at, f.id) > (${after![0]}::timestamptz, ${after![1]}::uuid)`))
    .orderBy('f.created_at')
    .orderBy('f.id')
    .limit(limit);

type StoredRow = Row<ReturnType<typeof indexRows>>;

/** A row as read, its vectors decoded from the binary array format. */
export const decoded = (r: StoredRow): IndexRow => ({
  ...r,
  embedding: r.embedding === null ? null : decodeFloat8Array(r.embedding),
  contexts: r.contexts?.map((c) => ({ ...c, e: fromBase64(c.e) })) ?? null,
});
