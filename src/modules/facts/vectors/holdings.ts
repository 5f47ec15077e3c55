import { CodeArena } from './arena';
import type { BankVectors } from './bank-vectors';

interface Entry {
  orgId: string;
  bankId: string;
  bank: BankVectors;
  /** bytes as last measured: all of the bank, and its JavaScript part */
  bytes: number;
  heap: number;
}

interface OrgHoldings {
  bytes: number;
  /** its banks, least recently used first */
  banks: Map<string, Entry>;
}

/** The bank being read or changed now, on whose behalf room is made (never evicted for itself). */
export interface Asking {
  orgId: string;
  bankId: string;
  bank: BankVectors;
}

/**
 * What the recall index holds and what it costs: one arena for every bank's codes, accounted at
 * its reserved size, plus each bank's JavaScript memory. Room is made by evicting banks, in this
 * order: the least recently used bank of the organization furthest over its share (`share` of
 * `maxBytes`, the bank being read counted); else the asking organization's own least recently used
 * bank; else (it holds no other) the least recently used bank of any organization. So an
 * organization within its share loses banks to another only while that one holds nothing else:
 * a flood of banks from one organization evicts its own. One organization alone may use all of
 * the memory.
 */
export class Holdings {
  readonly arena: CodeArena;
  private readonly recent = new Map<string, Entry>();
  private readonly orgs = new Map<string, OrgHoldings>();
  private heap = 0;
  asking: Asking | null = null;
  /** why room was last refused: the bank alone passes `maxBytes`, or it would take another organization's share */
  refusal: 'too large' | 'share' | null = null;

  constructor(
    private readonly maxBytes: number,
    private readonly share: number,
    /** the index forgets an evicted bank */
    private readonly onEvict: (orgId: string, bankId: string) => void,
  ) {
    this.arena = new CodeArena({
      room: () => this.maxBytes - this.bytes - this.pendingHeap(),
      // a bank that could not fit even alone evicts nothing
      reclaim: (bytes) => !this.tooLarge(bytes) && this.evictOne(bytes),
    });
  }

  /** Memory accounted: the arena as reserved and every bank's JavaScript memory. */
  get bytes(): number {
    return this.arena.reserved + this.heap;
  }

  get vectors(): number {
    let n = 0;
    for (const e of this.recent.values()) n += e.bank.count;
    return n;
  }

  get banks(): number {
    return this.recent.size;
  }

  /** Bytes the organization's banks hold (their slices and JavaScript memory). */
  orgBytes(orgId: string): number {
    return this.orgs.get(orgId)?.bytes ?? 0;
  }

  /** Holds a bank (or measures it again after changes), as the most recently used. */
  hold(orgId: string, bankId: string, bank: BankVectors): void {
    const key = `${orgId}/${bankId}`;
    let org = this.orgs.get(orgId);
    if (!org) this.orgs.set(orgId, (org = { bytes: 0, banks: new Map() }));
    const old = this.recent.get(key);
    if (old && old.bank !== bank) this.drop(old, false);
    const entry = old?.bank === bank ? old : { orgId, bankId, bank, bytes: 0, heap: 0 };
    this.measure(org, entry);
    this.recent.delete(key);
    this.recent.set(key, entry);
    org.banks.delete(bankId);
    org.banks.set(bankId, entry);
  }

  touch(orgId: string, bankId: string): void {
    const key = `${orgId}/${bankId}`;
    const entry = this.recent.get(key);
    if (!entry) return;
    this.recent.delete(key);
    this.recent.set(key, entry);
    const org = this.orgs.get(orgId)!;
    org.banks.delete(bankId);
    org.banks.set(bankId, entry);
  }

  private measure(org: OrgHoldings, entry: Entry): void {
    const bytes = entry.bank.bytes;
    const heap = entry.bank.heapBytes;
    org.bytes += bytes - entry.bytes;
    this.heap += heap - entry.heap;
    entry.bytes = bytes;
    entry.heap = heap;
  }

  /**
   * Lets a bank go. `later`: its slice is given back on the next turn of the event loop, for a
   * bank dropped while a recall that was just handed it may not have scanned it yet.
   */
  forget(orgId: string, bankId: string, later: boolean): void {
    const entry = this.recent.get(`${orgId}/${bankId}`);
    if (entry) this.drop(entry, later);
  }

  private drop(entry: Entry, later: boolean): void {
    this.recent.delete(`${entry.orgId}/${entry.bankId}`);
    const org = this.orgs.get(entry.orgId)!;
    org.banks.delete(entry.bankId);
    org.bytes -= entry.bytes;
    this.heap -= entry.heap;
    if (org.banks.size === 0) this.orgs.delete(entry.orgId);
    if (later) setImmediate(() => entry.bank.release());
    else entry.bank.release();
  }

  /**
   * Evicts banks (never the one asking) until the memory accounted is within `maxBytes`; false
   * when it cannot (then the bank asking must go).
   */
  settle(): boolean {
    for (;;) {
      const excess = this.bytes - this.maxBytes;
      if (excess <= 0) return true;
      // reserved memory no bank uses goes first (it costs a copy, not a bank)
      if (this.arena.release(excess) === 0 && !this.evictOne(0)) return false;
    }
  }

  /** Whether the bank being read would pass `maxBytes` alone while it moves into a slice of `bytes`. */
  private tooLarge(bytes: number): boolean {
    if (this.asking === null || this.asking.bank.bytes + bytes <= this.maxBytes) return false;
    this.refusal = 'too large';
    return true;
  }

  /** Evicts one bank by the rule above; false when there is none to evict. */
  private evictOne(more: number): boolean {
    const victim = this.overShare() ?? this.own() ?? this.othersFor(more);
    if (!victim) return false;
    this.evict(victim);
    return true;
  }

  private evict(entry: Entry): void {
    this.drop(entry, false);
    this.onEvict(entry.orgId, entry.bankId);
  }

  private isAsking(e: Entry): boolean {
    return this.asking !== null && this.asking.orgId === e.orgId && this.asking.bankId === e.bankId;
  }

  private first(banks: Iterable<Entry>): Entry | null {
    for (const e of banks) if (!this.isAsking(e)) return e;
    return null;
  }

  /** The least recently used bank of the organization furthest over its share. */
  private overShare(): Entry | null {
    const limit = this.share * this.maxBytes;
    let worst: OrgHoldings | null = null;
    let worstBytes = limit;
    for (const [orgId, org] of this.orgs) {
      const bytes = org.bytes + this.pending(orgId);
      if (bytes > worstBytes && this.first(org.banks.values())) [worst, worstBytes] = [org, bytes];
    }
    return worst ? this.first(worst.banks.values()) : null;
  }

  /** The asking organization's own least recently used bank. */
  private own(): Entry | null {
    const org = this.asking && this.orgs.get(this.asking.orgId);
    return org ? this.first(org.banks.values()) : null;
  }

  /**
   * The least recently used bank of any organization, when the one asking stays within its share
   * with `more` bytes (no organization takes memory from others within theirs past its own share).
   */
  private othersFor(more: number): Entry | null {
    const a = this.asking;
    if (a && this.orgBytes(a.orgId) + this.pending(a.orgId) + more > this.share * this.maxBytes) {
      this.refusal = 'share';
      return null;
    }
    this.refusal = 'too large';
    return this.first(this.recent.values());
  }

  /** Bytes of the bank being read for the organization, not measured yet. */
  private pending(orgId: string): number {
    return this.asking?.orgId === orgId && !this.isHeld(this.asking) ? this.asking.bank.bytes : 0;
  }

  /** JavaScript memory of the bank being read, not measured yet. */
  private pendingHeap(): number {
    return this.asking && !this.isHeld(this.asking) ? this.asking.bank.heapBytes : 0;
  }

  private isHeld(a: Asking): boolean {
    return this.recent.get(`${a.orgId}/${a.bankId}`)?.bank === a.bank;
  }
}
