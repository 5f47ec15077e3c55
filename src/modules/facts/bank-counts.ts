import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { boundText } from '../../core/sql';
import { ChangeCursor } from '../../db/change-feed';
import { templateRows } from '../../db/typed-sql';

/** One bank of an organization with its fact count and newest fact. */
export interface BankCount {
  bankId: string;
  facts: number;
  lastFactAt: Date;
}

interface Counted {
  cursor: ChangeCursor;
  /** every bank of the organization, the largest first */
  banks: BankCount[];
}

/** A bank as the counting statement gives it (JSON: the time is text). */
interface CountedRow {
  bank_id: string;
  facts: number;
  last_fact_at: string;
}

type ChangeColumns = { xmin: string; changes: string | { id: string; xid: string; keys: string[] }[] };

/** How many organizations' counts an instance keeps at most (the least recently read go first). */
const BANK_COUNTS_MAX_ORGS = 1000;

/**
 * The fact counts of each organization's banks as of a snapshot, with the organization's position in
 * the facts change log at that snapshot. A read first checks the log: when it shows no change since
 * the snapshot (on any instance), the counts are still exact and are answered without counting;
 * otherwise every bank is counted again in one statement that also starts a new position. Each
 * organization has its own entry, kept least recently used first out.
 */
export class BankCounts {
  private readonly orgs = new Map<string, Counted>();
  /** statements that counted banks (for tests and metrics) */
  counts = 0;

  constructor(readonly maxOrgs = BANK_COUNTS_MAX_ORGS) {}

  get size(): number {
    return this.orgs.size;
  }

  /** The organization's banks, the largest first; at most one statement when they are unchanged. */
  async banks(em: EntityManager, orgId: string): Promise<BankCount[]> {
    const held = this.orgs.get(orgId);
    if (held && !held.cursor.expired) {
      const [row] = await templateRows<ChangeColumns>(
        em,
        raw`SELECT ${boundText(ChangeCursor.columns, held.cursor.bindings(orgId, 'facts'))}`,
      );
      // the check does not move the cursor, so requests sharing the entry cannot hide a change from one another
      if (!held.cursor.hasUnseen(row)) {
        if (this.orgs.get(orgId) === held) this.touch(orgId, held);
        return held.banks;
      }
    }
    return this.count(em, orgId);
  }

  private async count(em: EntityManager, orgId: string): Promise<BankCount[]> {
    this.counts += 1;
    const columns = boundText(ChangeCursor.startColumns, ChangeCursor.startBindings(orgId, 'facts'));
    // the banks are found by skipping through the index on (org_id, bank_id) one bank at a time, and
    // each is counted by an index-only scan of its own range: a plain GROUP BY is planned as a scan of
    // the whole table, several times slower at 100,000 facts
    const [row] = await templateRows<ChangeColumns & { banks: string | CountedRow[] }>(
      em,
      raw`WITH RECURSIVE b AS (
          SELECT min(f.bank_id) AS bank_id FROM facts f WHERE f.org_id = ${orgId}
          UNION ALL
          SELECT (SELECT min(f.bank_id) FROM facts f WHERE f.org_id = ${orgId} AND f.bank_id > b.bank_id) FROM b WHERE b.bank_id IS NOT NULL)
        SELECT ${columns},
          coalesce((SELECT json_agg(json_build_object('bank_id', b.bank_id, 'facts', c.facts, 'last_fact_at', c.last_fact_at)
                                    ORDER BY c.facts DESC, b.bank_id)
             FROM b CROSS JOIN LATERAL (
               SELECT count(*)::int AS facts, max(f.created_at) AS last_fact_at FROM facts f WHERE f.org_id = ${orgId} AND f.bank_id = b.bank_id) c
            WHERE b.bank_id IS NOT NULL), '[]'::json) AS banks`,
    );
    const found = typeof row.banks === 'string' ? (JSON.parse(row.banks) as CountedRow[]) : row.banks;
    const banks = found.map((r) => ({ bankId: r.bank_id, facts: Number(r.facts), lastFactAt: new Date(r.last_fact_at) }));
    // an entry another request stored meanwhile is as good: each is checked against its own position
    this.touch(orgId, { cursor: ChangeCursor.start(row), banks });
    return banks;
  }

  private touch(orgId: string, entry: Counted): void {
    this.orgs.delete(orgId);
    this.orgs.set(orgId, entry);
    for (const [oldest] of this.orgs) {
      if (this.orgs.size <= this.maxOrgs) break;
      this.orgs.delete(oldest);
    }
  }
}
