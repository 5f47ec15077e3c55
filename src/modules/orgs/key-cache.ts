import type { Viewer } from './orgs.service';

interface Entry {
  viewer: Viewer;
  expires: number;
}

/**
 * Recently authenticated API keys, by token hash, so that a busy key costs no database round trip
 * per request. Only valid keys are kept (an unknown token is looked up every time: tokens are
 * random, and the budget door already holds back a token just refused).
 *
 * A revocation forgets the key at once: the revoking instance calls `forgetKeys` before it answers,
 * every other instance when the revocation reaches it over the event bus, and the WebSockets'
 * periodic re-check forgets keys it finds revoked behind the server's back. The time to live bounds
 * how long a revocation that reached no instance (a key revoked with SQL) can go unseen.
 *
 * A lookup that was running while a revocation arrived does not store its answer: the answer may
 * predate the revocation.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private epoch = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The cached viewer of a token hash, or undefined when it must be looked up. */
  get(tokenHash: string): Viewer | undefined {
    const e = this.entries.get(tokenHash);
    if (!e) return undefined;
    if (e.expires <= this.now()) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return e.viewer;
  }

  /** The epoch to hand back to `set`: taken before the lookup starts. */
  begin(): number {
    return this.epoch;
  }

  /** Keeps a looked-up viewer, unless a revocation arrived since `begin` returned `epoch`. */
  set(tokenHash: string, viewer: Viewer, epoch: number): void {
    if (this.ttlMs <= 0 || epoch !== this.epoch) return;
    this.entries.delete(tokenHash);
    if (this.entries.size >= this.maxEntries) {
      // the oldest insertion goes first; a busy key is inserted again after it expires anyway
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(tokenHash, { viewer, expires: this.now() + this.ttlMs });
  }

  /** Forgets every cached token of these keys, and keeps lookups already running from storing theirs. */
  forgetKeys(apiKeyIds: ReadonlySet<string>): void {
    if (apiKeyIds.size === 0) return;
    this.epoch++;
    for (const [hash, e] of this.entries) if (apiKeyIds.has(e.viewer.apiKeyId)) this.entries.delete(hash);
  }
}
