import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../core/logger';
import { sql as raw } from 'kysely';
import { ChangeCursor } from '../../../db/change-feed';
import { firstRow, type Row, rows as runRows, sql } from '../../../db/typed-sql';
import { dimensionOf } from '../embedding-dimension';
import { changeRead } from './change-read';
import { ArenaFull } from './arena';
import { BankVectors } from './bank-vectors';
import { Holdings } from './holdings';
import { bankChunk, buildChunk, decoded, indexRows } from './index-rows';

/** More changed facts than this since the last request: the organization's banks are read again. */
const REBUILD_CHANGES = 20_000;
/** A bank too large for the memory setting is ranked by PostgreSQL alone, and tried again after this. */
const RETRY_TOO_LARGE_MS = 10 * 60_000;
/** A bank the index had no room for (the engine refused memory, or nothing left to evict): tried again after this. */
const RETRY_NO_ROOM_MS = 60_000;
/** Banks remembered as too large per organization (the oldest is forgotten first, then tried again). */
const TOO_LARGE_KEPT = 1000;

/** The index could not hold a bank: no room in the arena, or the engine refused memory. */
const noRoom = (err: unknown): boolean => err instanceof ArenaFull || err instanceof RangeError;

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
  private readonly holdings: Holdings;

  /** `orgShare`: the fraction of `maxBytes` an organization keeps when others want room (see `Holdings`). */
  constructor(
    private readonly maxBytes: number,
    private readonly log?: Logger,
    orgShare = 0.5,
  ) {
    this.holdings = new Holdings(maxBytes, orgShare, (orgId, bankId) => {
      const org = this.orgs.get(orgId);
      if (org?.banks.delete(bankId)) org.version += 1;
    });
  }

  /** Memory accounted: the shared arena as reserved and the banks' JavaScript memory. */
  get bytes(): number {
    return this.holdings.bytes;
  }

  get vectors(): number {
    return this.holdings.vectors;
  }

  /** Banks held (empty ones included). */
  get banks(): number {
    return this.holdings.banks;
  }

  /** Bytes the organization's banks hold. */
  orgBytes(orgId: string): number {
    return this.holdings.orgBytes(orgId);
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
    this.holdings.touch(orgId, bankId);
    return { bank, dimension: org.dimension, cursor: org.cursor, unchanged: () => org.version === version && !org.active };
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
    // the bank is scanned right after this returns, before any other catch-up can read (and evict)
    const bank = org.banks.get(bankId) ?? null;
    if (bank) this.holdings.touch(orgId, bankId);
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
    // only the rows now in a bank held (a fact moved elsewhere or deleted is removed below): the
    // writes of a bank no recall reads are not read back
    const held = [...org.banks.keys()];
    const rows = await runRows(
      em,
      indexRows(orgId)
        .where('f.id', '=', raw<string>`any(${ids}::uuid[])`)
        .where('f.bank_id', '=', raw<string>`any(${held}::text[])`),
    );
    const bankOfRow = new Map(rows.map((r) => [r.id, r.bank_id]));
    for (const [name, bank] of org.banks) for (const id of ids) if (bankOfRow.get(id) !== name) bank.remove(id);
    const touched = new Set<string>();
    for (const r of rows) {
      const bank = org.banks.get(r.bank_id);
      if (!bank) continue;
      this.holdings.asking = { orgId, bankId: r.bank_id, bank };
      try {
        bank.put(decoded(r));
        touched.add(r.bank_id);
      } catch (err) {
        if (!noRoom(err)) throw err;
        // a bank missing a change cannot answer: PostgreSQL ranks it until it is read again
        this.log?.warn({ orgId, bankId: r.bank_id, err: String(err) }, 'recall index: no room for a changed bank, ranked by PostgreSQL');
        this.unhold(orgId, org, r.bank_id, false);
        this.markTooLarge(org, r.bank_id, RETRY_NO_ROOM_MS);
      } finally {
        this.holdings.asking = null;
      }
    }
    for (const bankId of touched) {
      const bank = org.banks.get(bankId);
      if (bank) this.holdings.hold(orgId, bankId, bank);
    }
    this.holdings.settle();
  }

  private unhold(orgId: string, org: OrgVectors, bankId: string, later: boolean): void {
    org.banks.delete(bankId);
    org.version += 1;
    this.holdings.forget(orgId, bankId, later);
  }

  private markTooLarge(org: OrgVectors, bankId: string, ms: number): void {
    org.tooLarge.delete(bankId);
    org.tooLarge.set(bankId, Date.now() + ms);
    if (org.tooLarge.size > TOO_LARGE_KEPT) org.tooLarge.delete(org.tooLarge.keys().next().value!);
  }

  private async ensureBank(em: EntityManager, orgId: string, org: OrgVectors, bankId: string): Promise<void> {
    const held = org.banks.get(bankId);
    if (held && held.dim === org.dimension) return;
    if (held) this.unhold(orgId, org, bankId, true);
    if (org.dimension === null || (org.tooLarge.get(bankId) ?? 0) > Date.now()) return;
    const bank = await this.build(em, orgId, bankId, org.dimension);
    if (!bank) return;
    org.banks.set(bankId, bank);
    org.version += 1;
    this.holdings.asking = { orgId, bankId, bank };
    try {
      this.holdings.hold(orgId, bankId, bank);
      if (!this.holdings.settle()) {
        // it would take memory other organizations hold within their shares
        this.log?.warn({ orgId, bankId, facts: bank.count }, 'recall index: no room for bank, ranked by PostgreSQL alone');
        this.unhold(orgId, org, bankId, false);
        this.markTooLarge(org, bankId, RETRY_NO_ROOM_MS);
      }
    } finally {
      this.holdings.asking = null;
    }
  }

  /**
   * Reads a bank in chunks, in the order of the `(org_id, created_at, id)` index (each chunk starts
   * where the last ended, its creation time as text so no microsecond is lost); null when it does
   * not fit in the memory setting.
   */
  private async build(em: EntityManager, orgId: string, bankId: string, dim: number): Promise<BankVectors | null> {
    const started = Date.now();
    const bank = new BankVectors(dim, this.holdings.arena);
    const org = this.orgs.get(orgId)!;
    let after: [string, string] | null = null;
    const chunk = buildChunk(dim);
    for (;;) {
      const rows: Row<ReturnType<typeof bankChunk>>[] = await runRows(em, bankChunk(orgId, bankId, after, chunk));
      // room for the bank is made by evicting others (never the bank itself), while it is read
      this.holdings.asking = { orgId, bankId, bank };
      let tooLarge = false;
      try {
        bank.reserve(bank.size + rows.length);
        for (const r of rows) bank.put(decoded(r));
        tooLarge = bank.bytes > this.maxBytes;
      } catch (err) {
        if (!noRoom(err)) throw err;
        // the budget had no room with every other bank evicted: the bank alone passes the setting
        tooLarge = err instanceof ArenaFull && !err.refused && this.holdings.refusal === 'too large';
        if (!tooLarge) {
          bank.release();
          this.log?.warn(
            { orgId, bankId, facts: bank.count, err: String(err) },
            'recall index: no room for bank, ranked by PostgreSQL alone',
          );
          this.markTooLarge(org, bankId, RETRY_NO_ROOM_MS);
          return null;
        }
      } finally {
        this.holdings.asking = null;
      }
      if (tooLarge) {
        bank.release();
        this.log?.warn(
          { orgId, bankId, facts: bank.count, maxMb: Math.round(this.maxBytes / 2 ** 20) },
          'recall index: bank larger than RECALL_INDEX_MAX_MB, ranked by PostgreSQL alone',
        );
        this.markTooLarge(org, bankId, RETRY_TOO_LARGE_MS);
        return null;
      }
      if (rows.length < chunk) {
        this.log?.info(
          { orgId, bankId, facts: bank.count, ms: Date.now() - started, mb: Math.round(bank.bytes / 2 ** 20) },
          'recall index: bank read',
        );
        return bank;
      }
      after = [rows[rows.length - 1].at, rows[rows.length - 1].id];
    }
  }

  private dropBanks(orgId: string, org: OrgVectors): void {
    // a recall handed one of these banks may not have scanned it yet: slices are freed on the next turn
    for (const name of org.banks.keys()) this.holdings.forget(orgId, name, true);
    org.banks.clear();
    org.version += 1;
  }
}
