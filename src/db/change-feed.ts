import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { rows, sql } from './typed-sql';

/** Topics of the change log (see `ChangeLogEntry`): what the keys of a change name. */
export type ChangeTopic = 'facts' | 'segments';

interface ChangeRow {
  id: string;
  xid: string;
  keys: string[];
}

/** The oldest transaction still running when the statement's snapshot was taken. */
const SNAPSHOT_XMIN = 'pg_snapshot_xmin(pg_current_snapshot())';

const changesSince = (horizon: string) => `${SNAPSHOT_XMIN}::text AS xmin,
    coalesce((SELECT json_agg(json_build_object('id', l.id::text, 'xid', l.xid::text, 'keys', l.keys))
      FROM change_log l WHERE l.org_id = ?::uuid AND l.topic = ? AND l.xid >= ${horizon}), '[]'::json) AS changes`;

/** How long change rows are kept; a reader that has not caught up within half of it starts over. */
export const CHANGE_RETENTION_MS = 60 * 60 * 1000;

/**
 * A cache's position in the change log of one organization and topic. Reading at or above the
 * horizon (the oldest transaction still running at the last read) finds every change committed
 * since, including those of transactions that were running then; rows seen before are skipped.
 */
export class ChangeCursor {
  private horizon: bigint;
  private readonly seen = new Map<string, bigint>();
  private readAt = Date.now();

  constructor(horizon: string) {
    this.horizon = BigInt(horizon);
  }

  /** Whether the log may have been pruned past this cursor (the cache must be rebuilt). */
  get expired(): boolean {
    return Date.now() - this.readAt > CHANGE_RETENTION_MS / 2;
  }

  /** SQL selecting the horizon (`xmin`) and the changes at or above it (`changes`); bindings from `bindings`. */
  static readonly columns = changesSince('?::xid8');

  /**
   * The same for a cache that reads its rows in this very statement and starts a cursor from it
   * (`ChangeCursor.start`, bindings from `startBindings`): the changes its snapshot already shows
   * are marked seen, so they do not drop what was just read.
   */
  static readonly startColumns = changesSince(SNAPSHOT_XMIN);

  static startBindings(orgId: string, topic: ChangeTopic): unknown[] {
    return [orgId, topic];
  }

  static start(row: { xmin: string; changes: ChangeRow[] | string }): ChangeCursor {
    const cursor = new ChangeCursor(row.xmin);
    cursor.advance(row);
    return cursor;
  }

  bindings(orgId: string, topic: ChangeTopic): unknown[] {
    return [orgId, topic, this.horizon.toString()];
  }

  /**
   * Whether a read of `columns` shows changes not seen before. The cursor does not move, but a read
   * that shows none confirms the cache current as of now (the log cannot have been pruned of
   * anything it still needs), so it keeps the cursor from expiring.
   */
  hasUnseen(row: { changes: ChangeRow[] | string }): boolean {
    const changes = typeof row.changes === 'string' ? (JSON.parse(row.changes) as ChangeRow[]) : row.changes;
    const unseen = changes.some((c) => !this.seen.has(c.id));
    if (!unseen) this.readAt = Date.now();
    return unseen;
  }

  /** Takes a read of `columns`: returns the keys of changes not seen before and moves the horizon. */
  advance(row: { xmin: string; changes: ChangeRow[] | string }): string[] {
    const changes = typeof row.changes === 'string' ? (JSON.parse(row.changes) as ChangeRow[]) : row.changes;
    const keys = new Set<string>();
    for (const c of changes) {
      if (this.seen.has(c.id)) continue;
      this.seen.set(c.id, BigInt(c.xid));
      for (const k of c.keys) keys.add(k);
    }
    const horizon = BigInt(row.xmin);
    if (horizon > this.horizon) {
      this.horizon = horizon;
      for (const [id, xid] of this.seen) if (xid < horizon) this.seen.delete(id);
    }
    this.readAt = Date.now();
    return [...keys];
  }
}

/** Deletes change rows older than the retention (any instance may run it). */
export async function pruneChangeLog(em: EntityManager): Promise<void> {
  const cutoff = raw<string>`now() - make_interval(secs => ${CHANGE_RETENTION_MS / 1000})`;
  await rows(em, sql.deleteFrom('change_log').where('created_at', '<', cutoff));
}
