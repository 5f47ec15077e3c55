import { ChangeCursor } from '../../db/change-feed';
import type { CandidateList } from './candidates';

/** What a cached candidate list is for: one agent of one organization, one session or all, one size. */
export interface CandidateKey {
  orgId: string;
  agentId: string;
  sessionId: string | null;
  maxCandidates: number;
}

/** A read of `ChangeCursor.columns`. */
export type CursorRead = Parameters<ChangeCursor['advance']>[0];

/** Every agent of the organization (a deleted segment is logged with this key). */
const ALL = '*';
/** Above this many remembered invalidations an organization remembers one for all agents instead. */
const MAX_REMEMBERED = 10_000;

/**
 * Where this instance stands in an organization's change log, and which cached lists it holds.
 * `tick` counts the reads that found changes; `invalidated` keeps the tick at which each agent
 * last changed, so a list read before a change that another request has already applied is not
 * cached (its snapshot may predate the change).
 */
export class OrgCandidates {
  tick = 0;
  readonly invalidated = new Map<string, number>();
  readonly keysByAgent = new Map<string, Set<string>>();

  constructor(readonly cursor: ChangeCursor) {}

  /** Whether no change to the agent was applied after `tick`. */
  unchangedSince(agentId: string, tick: number): boolean {
    return (this.invalidated.get(agentId) ?? 0) <= tick && (this.invalidated.get(ALL) ?? 0) <= tick;
  }
}

const keyOf = (k: CandidateKey) => JSON.stringify([k.orgId, k.agentId, k.sessionId, k.maxCandidates]);

/**
 * Candidate lists of memoryContext, least recently used first out once their estimated size passes
 * `maxBytes`. PostgreSQL stays the truth: a list is dropped when the change log shows a segment of
 * its agent written or any segment of its organization deleted, on any instance.
 */
export class CandidateCache {
  private readonly lists = new Map<string, { key: CandidateKey; list: CandidateList }>();
  private readonly orgs = new Map<string, OrgCandidates>();
  private used = 0;
  /** candidate lists built from rows read (for tests and metrics) */
  builds = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.lists.size;
  }

  /** The organization's state, unless it has none or its cursor fell too far behind the log (then it is dropped). */
  org(orgId: string): OrgCandidates | undefined {
    const org = this.orgs.get(orgId);
    if (org?.cursor.expired) {
      this.dropAgent(org, ALL);
      this.orgs.delete(orgId);
      return undefined;
    }
    return org;
  }

  /** Whether `org` is still the organization's state (not dropped and replaced meanwhile). */
  attached(orgId: string, org: OrgCandidates): boolean {
    return this.orgs.get(orgId) === org;
  }

  /** The cached list, now the most recently used. */
  get(k: CandidateKey): CandidateList | undefined {
    const id = keyOf(k);
    const hit = this.lists.get(id);
    if (!hit) return undefined;
    this.lists.delete(id);
    this.lists.set(id, hit);
    return hit.list;
  }

  /** Applies a read of `ChangeCursor.columns`: drops the lists of every agent changed since the last read. */
  advance(org: OrgCandidates, row: CursorRead): void {
    const agents = org.cursor.advance(row);
    if (agents.length === 0) return;
    org.tick += 1;
    if (org.invalidated.size + agents.length > MAX_REMEMBERED) {
      // forgetting which agents changed makes every list read before now stale
      org.invalidated.clear();
      org.invalidated.set(ALL, org.tick);
    }
    for (const a of agents) {
      org.invalidated.set(a, org.tick);
      this.dropAgent(org, a);
    }
  }

  /** The organization's state from a read of `ChangeCursor.startColumns` with its first rows, unless another request made one meanwhile. */
  start(orgId: string, row: CursorRead): OrgCandidates | undefined {
    if (this.orgs.has(orgId)) return undefined;
    const org = new OrgCandidates(ChangeCursor.start(row));
    this.orgs.set(orgId, org);
    return org;
  }

  /** Caches a list (a list larger than the whole cache is not kept), evicting the least recently used. */
  put(org: OrgCandidates, k: CandidateKey, list: CandidateList): void {
    if (this.orgs.get(k.orgId) !== org || list.bytes > this.maxBytes) return;
    const id = keyOf(k);
    this.remove(id);
    this.lists.set(id, { key: k, list });
    this.used += list.bytes;
    let keys = org.keysByAgent.get(k.agentId);
    if (!keys) org.keysByAgent.set(k.agentId, (keys = new Set()));
    keys.add(id);
    for (const [oldest] of this.lists) {
      if (this.used <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  /** Counts bytes a cached list grew by (texts read into it), evicting as `put` does; a list grown past the limit is dropped. */
  grew(k: CandidateKey, list: CandidateList, bytes: number): void {
    const id = keyOf(k);
    if (bytes === 0 || this.lists.get(id)?.list !== list) return;
    this.used += bytes;
    if (list.bytes > this.maxBytes) this.remove(id);
    for (const [oldest] of this.lists) {
      if (this.used <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  /** Drops the cached list of `k` (its segments changed under a request that used it). */
  drop(k: CandidateKey): void {
    this.remove(keyOf(k));
  }

  private dropAgent(org: OrgCandidates, agentId: string): void {
    const agents = agentId === ALL ? [...org.keysByAgent.keys()] : [agentId];
    for (const a of agents) for (const id of org.keysByAgent.get(a) ?? []) this.remove(id);
  }

  private remove(id: string): void {
    const hit = this.lists.get(id);
    if (!hit) return;
    this.lists.delete(id);
    this.used -= hit.list.bytes;
    const org = this.orgs.get(hit.key.orgId);
    const keys = org?.keysByAgent.get(hit.key.agentId);
    keys?.delete(id);
    if (keys?.size === 0) org!.keysByAgent.delete(hit.key.agentId);
  }
}
