import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../core/logger';
import { sql as raw } from 'kysely';
import { ChangeCursor } from '../../../db/change-feed';
import { firstRow, type Row, rows as runRows, sql } from '../../../db/typed-sql';
import { dimensionOf } from '../embedding-dimension';
import { changeRead } from './change-read';
import { BankVectors } from './bank-vectors';
import { BUILD_CHUNK, bankChunk, decoded, indexRows } from './index-rows';

/** More changed facts than this since the last request: the organization's banks are read again. */
const REBUILD_CHANGES = 20_000;
/** A bank too large for the memory setting is ranked by PostgreSQL alone, and tried again after this. */
const RETRY_TOO_LARGE_MS = 10 * 60_000;

class OrgVectors {
  readonly banks = new Map<string, BankVectors>();
  readonly tooLarge = new Map<string, number>();
  /** null until the first read of the organization (and after its change log cursor expired) */
  cursor: ChangeCursor | null = null;
  dimension: number | null = null;
  /** the catch-up running now, and the one requests arriving meanwhile share (started after it) */
  running: Promise<void> = Promise.resolve();
  next: { banks: Set<string>; done: Promise<void> } | null = null;
  /** a catch-up is reading or applying changes */
  active = false;
  /** bumped whenever the banks may change (changes seen, a bank read or dropped) */
  version = 0;
}

/** A bank as held now, for a recall that checks the change log in its own statement. */
export interface Held {
  bank: BankVectors;
  dimension: number;
  cursor: ChangeCursor;
  /** still as held: no catch-up has seen changes since */
  unchanged(): boolean;
}

export interface Prepared {
  /** the organization's embedding dimension, null before its first embedding */
  dimension: number | null;
  /** the bank's vectors, current as of this request; null when PostgreSQL ranks the bank alone */
  bank: BankVectors | null;
}

/**
 * An in-process cache of every organization's fact vectors, per bank, for recall. PostgreSQL stays
 * the source of truth: a bank is read on first use, and each request first has the organization
 * catch up with the change log (one statement, which also returns the embedding dimension),
 * applying the facts changed by any instance since, so an acknowledged write is seen by the next
 * recall everywhere. Catch-ups of one organization run one after another; requests that arrive
 * while one runs share the next (which starts after they arrived). Banks are evicted least
 * recently used once their memory passes `maxBytes`.
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

  /**
   * The bank as held now when the organization is not catching up, or null. A recall may rank with
   * it and read the change log in the same statement as its rows: if that read shows no change the
   * cache has not seen, and `unchanged()` holds, the answer is as fresh as a catch-up would make it.
   */
  held(orgId: string, bankId: string): Held | null {
    const org = this.orgs.get(orgId);
    const bank = org?.banks.get(bankId);
    if (!org || !bank || !org.cursor || org.cursor.expired || org.active || org.next || org.dimension !== bank.dim) return null;
    const version = org.version;
    this.touch(`${orgId}/${bankId}`, bank);
    return { bank, dimension: org.dimension, cursor: org.cursor, unchanged: () => org.version === version && !org.active };
  }

  private touch(key: string, bank: BankVectors): void {
    this.recent.delete(key);
    this.recent.set(key, bank);
  }

  async prepare(em: EntityManager, orgId: string, bankId: string): Promise<Prepared> {
    let org = this.orgs.get(orgId);
    if (!org) this.orgs.set(orgId, (org = new OrgVectors()));
    if (org.next) org.next.banks.add(bankId);
    else {
      const o = org;
      const job = { banks: new Set([bankId]), done: Promise.resolve() };
      job.done = o.running.then(() => {
        o.next = null;
        return this.catchUp(em, orgId, o, job.banks);
      });
      o.next = job;
      o.running = job.done.catch(() => undefined);
    }
    await org.next!.done;
    const bank = org.banks.get(bankId) ?? null;
    if (bank) this.touch(`${orgId}/${bankId}`, bank);
    return { dimension: org.dimension, bank };
  }

  /** Reads the change log from the cursor (or starts one), applies the changes, reads missing banks. */
  private async catchUp(em: EntityManager, orgId: string, org: OrgVectors, banks: Set<string>): Promise<void> {
    org.active = true;
    try {
      await this.catchUpOnce(em, orgId, org, banks);
    } catch (err) {
      // changes may have been read but not applied: start the organization over next time
      this.dropBanks(orgId, org);
      org.cursor = null;
      throw err;
    } finally {
      org.active = false;
    }
  }

  private async catchUpOnce(em: EntityManager, orgId: string, org: OrgVectors, banks: Set<string>): Promise<void> {
    if (org.cursor?.expired) {
      this.dropBanks(orgId, org);
      org.cursor = null;
    }
    // a new cursor: banks are read after this statement, so every change it already shows is in them
    const cursor = org.cursor;
    const read = sql
      .selectFrom(changeRead(orgId, 'facts', cursor))
      .selectAll('l')
      .select(dimensionOf(orgId).as('dimension'));
    const row = (await firstRow(em, read))!;
    org.dimension = row.dimension === null ? null : Number(row.dimension);
    if (!cursor) org.cursor = ChangeCursor.start(row);
    else {
      const changed = cursor.advance(row);
      if (changed.length > 0) org.version += 1;
      if (changed.length > REBUILD_CHANGES) this.dropBanks(orgId, org);
      else if (changed.length > 0 && org.banks.size > 0) await this.apply(em, orgId, org, changed);
    }
    for (const bankId of banks) await this.ensureBank(em, orgId, org, bankId);
  }

  /** Reads the changed facts again and moves, replaces or removes them in the banks held. */
  private async apply(em: EntityManager, orgId: string, org: OrgVectors, ids: string[]): Promise<void> {
    const rows = await runRows(em, indexRows(orgId).where('f.id', '=', raw<string>`any(${ids}::uuid[])`));
    const bankOfRow = new Map(rows.map((r) => [r.id, r.bank_id]));
    for (const [name, bank] of org.banks) for (const id of ids) if (bankOfRow.get(id) !== name) bank.remove(id);
    for (const r of rows) org.banks.get(r.bank_id)?.put(decoded(r));
  }

  private async ensureBank(em: EntityManager, orgId: string, org: OrgVectors, bankId: string): Promise<void> {
    const key = `${orgId}/${bankId}`;
    const held = org.banks.get(bankId);
    if (held && held.dim === org.dimension) return;
    if (held) {
      org.banks.delete(bankId);
      this.recent.delete(key);
    }
    if (org.dimension === null || (org.tooLarge.get(bankId) ?? 0) > Date.now()) return;
    const bank = await this.build(em, orgId, bankId, org.dimension);
    if (!bank) {
      org.tooLarge.set(bankId, Date.now() + RETRY_TOO_LARGE_MS);
      return;
    }
    org.banks.set(bankId, bank);
    org.version += 1;
    this.recent.set(key, bank);
    this.evict(key);
  }

  /**
   * Reads a bank in chunks, in the order of the `(org_id, created_at, id)` index (each chunk starts
   * where the last ended, its creation time as text so no microsecond is lost); null when it does
   * not fit in the memory setting.
   */
  private async build(em: EntityManager, orgId: string, bankId: string, dim: number): Promise<BankVectors | null> {
    const started = Date.now();
    const bank = new BankVectors(dim);
    let after: [string, string] | null = null;
    for (;;) {
      const rows: Row<ReturnType<typeof bankChunk>>[] = await runRows(em, bankChunk(orgId, bankId, after));
      for (const r of rows) bank.put(decoded(r));
      if (bank.bytes > this.maxBytes) {
        this.log?.warn(
          { orgId, bankId, facts: bank.count, maxMb: Math.round(this.maxBytes / 2 ** 20) },
          'recall index: bank larger than RECALL_INDEX_MAX_MB, ranked by PostgreSQL alone',
        );
        return null;
      }
      if (rows.length < BUILD_CHUNK) {
        this.log?.info(
          { orgId, bankId, facts: bank.count, ms: Date.now() - started, mb: Math.round(bank.bytes / 2 ** 20) },
          'recall index: bank read',
        );
        return bank;
      }
      after = [rows[rows.length - 1].at, rows[rows.length - 1].id];
    }
  }

  /** Evicts least recently used banks (never `keep`) until the memory setting holds. */
  private evict(keep: string): void {
    let total = this.bytes;
    for (const [key, bank] of this.recent) {
      if (total <= this.maxBytes) return;
      if (key === keep) continue;
      const [orgId, bankId] = [key.slice(0, 36), key.slice(37)];
      const org = this.orgs.get(orgId);
      if (org) {
        org.banks.delete(bankId);
        org.version += 1;
      }
      this.recent.delete(key);
      total -= bank.bytes;
    }
  }

  private dropBanks(orgId: string, org: OrgVectors): void {
    for (const name of org.banks.keys()) this.recent.delete(`${orgId}/${name}`);
    org.banks.clear();
    org.version += 1;
  }
}
