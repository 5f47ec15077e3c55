import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../core/logger';
import { pgArray } from '../../../core/sql';
import { ChangeCursor } from '../../../db/change-feed';
import { BankVectors, type IndexRow } from './bank-vectors';

/**
 * What the index reads of a fact (alias `f`): the vector (in PostgreSQL's binary array format, far
 * cheaper to decode than text), filters, usefulness and query contexts.
 */
const ROW_COLUMNS = `f.id, f.bank_id, f.text <> '' AS has_text, f.kind, f.status, array_send(f.embedding) AS embedding, f.embedding_norm_sq AS norm_sq, f.usefulness,
  date_part('epoch', f.last_signal_at) * 1000 AS t,
  (SELECT json_agg(json_build_object('n', c.normalized_query, 'e', c.query_embedding, 'q', c.query_embedding_norm_sq,
      'u', c.usefulness, 't', date_part('epoch', c.last_signal_at) * 1000))
     FROM fact_query_contexts c WHERE c.org_id = f.org_id AND c.fact_id = f.id) AS contexts`;

const DIMENSION = '(SELECT dimension FROM fact_embedding_dimensions WHERE org_id = ?) AS dimension';
/** Rows read per statement while a bank is built. */
const BUILD_CHUNK = 20_000;
/** More changed facts than this since the last request: the organization's banks are read again. */
const REBUILD_CHANGES = 20_000;
/** A bank too large for the memory setting is ranked by PostgreSQL alone, and tried again after this. */
const RETRY_TOO_LARGE_MS = 10 * 60_000;

type StoredRow = Omit<IndexRow, 'embedding'> & { embedding: Buffer | null };

/**
 * A one-dimensional float8 array in PostgreSQL's binary format (`array_send`): a 20-byte header
 * (dimensions, null flag, element type, length, lower bound), then per element its byte length
 * (8, or -1 for null) and the big-endian double.
 */
export function decodeFloat8Array(bin: Buffer): Float64Array {
  if (bin.readInt32BE(0) === 0) return new Float64Array(0);
  const n = bin.readInt32BE(12);
  const out = new Float64Array(n);
  for (let k = 0, at = 20; k < n; k++, at += 12) out[k] = bin.readInt32BE(at) === 8 ? bin.readDoubleBE(at + 4) : Number.NaN;
  return out;
}

const decoded = (r: StoredRow): IndexRow => ({ ...r, embedding: r.embedding === null ? null : decodeFloat8Array(r.embedding) });

class OrgVectors {
  readonly banks = new Map<string, BankVectors>();
  readonly tooLarge = new Map<string, number>();
  /** requests of one organization bring it up to date one after another */
  queue: Promise<unknown> = Promise.resolve();

  constructor(public cursor: ChangeCursor, public dimension: number | null) {}
}

export interface Prepared {
  /** the organization's embedding dimension, null before its first embedding */
  dimension: number | null;
  /** the bank's vectors, current as of this request; null when PostgreSQL ranks the bank alone */
  bank: BankVectors | null;
}

/**
 * An in-process cache of every organization's fact vectors, per bank, for recall. PostgreSQL stays
 * the source of truth: a bank is read on first use, and each request first reads the change log
 * from its cursor (one statement, which also returns the embedding dimension) and applies the facts
 * changed by any instance since, so an acknowledged write is seen by the next recall everywhere.
 * Banks are evicted least recently used once their memory passes `maxBytes`.
 */
export class FactIndex {
  private readonly orgs = new Map<string, OrgVectors>();
  /** banks by `orgId/bankId`, least recently used first */
  private readonly recent = new Map<string, BankVectors>();

  constructor(
    private readonly maxBytes: number,
    private readonly log?: Logger,
  ) {}

  get bytes(): number {
    let n = 0;
    for (const b of this.recent.values()) n += b.bytes;
    return n;
  }

  get vectors(): number {
    let n = 0;
    for (const b of this.recent.values()) n += b.count;
    return n;
  }

  prepare(em: EntityManager, orgId: string, bankId: string): Promise<Prepared> {
    const org = this.orgs.get(orgId);
    if (!org) return this.open(em, orgId, bankId);
    const next = org.queue.then(() => this.refresh(em, orgId, org, bankId));
    org.queue = next.catch(() => undefined);
    return next;
  }

  private async open(em: EntityManager, orgId: string, bankId: string): Promise<Prepared> {
    const [row] = await em.execute<{ xmin: string; dimension: number | null }[]>(
      `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin, ${DIMENSION}`,
      [orgId],
    );
    const org = this.orgs.get(orgId) ?? new OrgVectors(new ChangeCursor(row.xmin), row.dimension === null ? null : Number(row.dimension));
    this.orgs.set(orgId, org);
    const next = org.queue.then(() => this.bankOf(em, orgId, org, bankId));
    org.queue = next.catch(() => undefined);
    return next;
  }

  private async refresh(em: EntityManager, orgId: string, org: OrgVectors, bankId: string): Promise<Prepared> {
    if (org.cursor.expired) {
      this.drop(orgId);
      return this.open(em, orgId, bankId);
    }
    const [row] = await em.execute<{ xmin: string; changes: string; dimension: number | null }[]>(`SELECT ${ChangeCursor.columns}, ${DIMENSION}`, [
      ...org.cursor.bindings(orgId, 'facts'),
      orgId,
    ]);
    org.dimension = row.dimension === null ? null : Number(row.dimension);
    const changed = org.cursor.advance(row);
    if (changed.length > REBUILD_CHANGES) this.dropBanks(orgId, org);
    else if (changed.length > 0 && org.banks.size > 0) await this.apply(em, orgId, org, changed);
    return this.bankOf(em, orgId, org, bankId);
  }

  /** Reads the changed facts again and moves, replaces or removes them in the banks held. */
  private async apply(em: EntityManager, orgId: string, org: OrgVectors, ids: string[]): Promise<void> {
    const rows = await em.execute<StoredRow[]>(`SELECT ${ROW_COLUMNS} FROM facts f WHERE f.org_id = ? AND f.id = ANY(?::uuid[])`, [orgId, pgArray(ids)]);
    const bankOfRow = new Map(rows.map((r) => [r.id, r.bank_id]));
    for (const [name, bank] of org.banks) for (const id of ids) if (bankOfRow.get(id) !== name) bank.remove(id);
    for (const r of rows) org.banks.get(r.bank_id)?.put(decoded(r));
  }

  private async bankOf(em: EntityManager, orgId: string, org: OrgVectors, bankId: string): Promise<Prepared> {
    const key = `${orgId}/${bankId}`;
    let bank = org.banks.get(bankId) ?? null;
    if (bank && bank.dim !== org.dimension) {
      org.banks.delete(bankId);
      this.recent.delete(key);
      bank = null;
    }
    if (!bank && org.dimension !== null && (org.tooLarge.get(bankId) ?? 0) < Date.now()) {
      bank = await this.build(em, orgId, bankId, org.dimension);
      if (bank) org.banks.set(bankId, bank);
      else org.tooLarge.set(bankId, Date.now() + RETRY_TOO_LARGE_MS);
    }
    if (bank) {
      this.recent.delete(key);
      this.recent.set(key, bank);
      this.evict(key);
    }
    return { dimension: org.dimension, bank };
  }

  /** Reads a bank in chunks; null when it does not fit in the memory setting. */
  private async build(em: EntityManager, orgId: string, bankId: string, dim: number): Promise<BankVectors | null> {
    const started = Date.now();
    const bank = new BankVectors(dim);
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = await em.execute<StoredRow[]>(
        `SELECT ${ROW_COLUMNS} FROM facts f WHERE f.org_id = ? AND f.bank_id = ? AND f.text <> '' AND f.embedding IS NOT NULL AND f.id > ?
         ORDER BY f.id LIMIT ${BUILD_CHUNK}`,
        [orgId, bankId, after],
      );
      for (const r of rows) bank.put(decoded(r));
      if (bank.bytes > this.maxBytes) {
        this.log?.warn({ orgId, bankId, facts: bank.count, maxMb: Math.round(this.maxBytes / 2 ** 20) }, 'recall index: bank larger than RECALL_INDEX_MAX_MB, ranked by PostgreSQL alone');
        return null;
      }
      if (rows.length < BUILD_CHUNK) {
        this.log?.info({ orgId, bankId, facts: bank.count, ms: Date.now() - started, mb: Math.round(bank.bytes / 2 ** 20) }, 'recall index: bank read');
        return bank;
      }
      after = rows[rows.length - 1].id;
    }
  }

  /** Evicts least recently used banks (never `keep`) until the memory setting holds. */
  private evict(keep: string): void {
    let total = this.bytes;
    for (const [key, bank] of this.recent) {
      if (total <= this.maxBytes) return;
      if (key === keep) continue;
      const [orgId, bankId] = [key.slice(0, 36), key.slice(37)];
      this.orgs.get(orgId)?.banks.delete(bankId);
      this.recent.delete(key);
      total -= bank.bytes;
    }
  }

  private dropBanks(orgId: string, org: OrgVectors): void {
    for (const name of org.banks.keys()) this.recent.delete(`${orgId}/${name}`);
    org.banks.clear();
  }

  private drop(orgId: string): void {
    const org = this.orgs.get(orgId);
    if (org) this.dropBanks(orgId, org);
    this.orgs.delete(orgId);
  }
}
