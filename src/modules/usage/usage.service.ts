import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { templateRows } from '../../db/typed-sql';

/** The org_quotas row that holds the instance's defaults. */
const DEFAULTS_ROW = '00000000-0000-0000-0000-000000000000';

/** Rows and bytes of one kind of record. */
export interface Amount {
  rows: number;
  bytes: number;
}

/** What an organization stores, and its quotas (null: no quota). */
export interface StorageUsage {
  episodes: Amount;
  segments: Amount;
  facts: Amount;
  total: Amount;
  quotaRows: number | null;
  quotaBytes: number | null;
}

/** One organization's total, as `/metrics` reports it. */
export interface OrgTotal extends Amount {
  orgId: string;
}

const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

/** Writes the instance's default quotas where the triggers read them (every start: the configuration decides). */
export async function writeDefaultQuotas(em: EntityManager, quotas: { rows: number; bytes: number }): Promise<void> {
  await templateRows(
    em,
    raw`INSERT INTO org_quotas (org_id, max_rows, max_bytes) VALUES (${DEFAULTS_ROW}::uuid, ${quotas.rows}, ${quotas.bytes})
        ON CONFLICT (org_id) DO UPDATE SET max_rows = excluded.max_rows, max_bytes = excluded.max_bytes`,
  );
}

/** Sets an organization's own quotas: a number, null to go back to the instance's default, undefined to keep what it has. */
export async function setOrgQuota(em: EntityManager, orgId: string, quota: { rows?: number | null; bytes?: number | null }): Promise<void> {
  const keepRows = quota.rows === undefined;
  const keepBytes = quota.bytes === undefined;
  await templateRows(
    em,
    raw`INSERT INTO org_quotas AS q (org_id, max_rows, max_bytes) VALUES (${orgId}::uuid, ${quota.rows ?? null}, ${quota.bytes ?? null})
        ON CONFLICT (org_id) DO UPDATE SET
          max_rows = CASE WHEN ${keepRows} THEN q.max_rows ELSE excluded.max_rows END,
          max_bytes = CASE WHEN ${keepBytes} THEN q.max_bytes ELSE excluded.max_bytes END`,
  );
}

/** An organization's storage usage (the sum of its stripes) and the quotas that apply to it, in one statement. */
export async function storageUsage(em: EntityManager, orgId: string): Promise<StorageUsage> {
  type Row = Record<'er' | 'eb' | 'sr' | 'sb' | 'fr' | 'fb', string | number> & { qr: string | null; qb: string | null };
  const [r] = await templateRows(
    em,
    raw<Row>`SELECT coalesce(sum(u.episode_rows), 0) AS er, coalesce(sum(u.episode_bytes), 0) AS eb,
                    coalesce(sum(u.segment_rows), 0) AS sr, coalesce(sum(u.segment_bytes), 0) AS sb,
                    coalesce(sum(u.fact_rows), 0) AS fr, coalesce(sum(u.fact_bytes), 0) AS fb,
                    (SELECT coalesce(o.max_rows, d.max_rows) FROM (SELECT) x
                       LEFT JOIN org_quotas d ON d.org_id = ${DEFAULTS_ROW}::uuid LEFT JOIN org_quotas o ON o.org_id = ${orgId}::uuid) AS qr,
                    (SELECT coalesce(o.max_bytes, d.max_bytes) FROM (SELECT) x
                       LEFT JOIN org_quotas d ON d.org_id = ${DEFAULTS_ROW}::uuid LEFT JOIN org_quotas o ON o.org_id = ${orgId}::uuid) AS qb
               FROM org_usage u WHERE u.org_id = ${orgId}::uuid`,
  );
  const amount = (rows: string | number, bytes: string | number): Amount => ({ rows: Number(rows), bytes: Number(bytes) });
  const [episodes, segments, facts] = [amount(r.er, r.eb), amount(r.sr, r.sb), amount(r.fr, r.fb)];
  return {
    episodes,
    segments,
    facts,
    total: { rows: episodes.rows + segments.rows + facts.rows, bytes: episodes.bytes + segments.bytes + facts.bytes },
    quotaRows: num(r.qr),
    quotaBytes: num(r.qb),
  };
}

/**
 * The `limit` organizations that store the most bytes, largest first, and the sum over all the
 * others (`rest`, with the number of organizations in it): `/metrics` keeps its label set bounded.
 */
export async function largestOrganizations(
  em: EntityManager,
  limit: number,
): Promise<{ top: OrgTotal[]; rest: Amount & { orgs: number } }> {
  const rows = await templateRows(
    em,
    raw<{ org_id: string | null; rows: string; bytes: string; orgs: string }>`WITH t AS (
        SELECT org_id, sum(episode_rows + segment_rows + fact_rows) AS rows, sum(episode_bytes + segment_bytes + fact_bytes) AS bytes
          FROM org_usage GROUP BY org_id),
      ranked AS (SELECT t.*, row_number() OVER (ORDER BY bytes DESC, org_id) AS n FROM t)
      SELECT CASE WHEN n <= ${limit} THEN org_id END AS org_id, sum(rows) AS rows, sum(bytes) AS bytes, count(*) AS orgs
        FROM ranked GROUP BY 1`,
  );
  const top = rows
    .filter((r) => r.org_id !== null)
    .map((r) => ({ orgId: r.org_id!, rows: Number(r.rows), bytes: Number(r.bytes) }))
    .sort((a, b) => b.bytes - a.bytes || a.orgId.localeCompare(b.orgId));
  const other = rows.find((r) => r.org_id === null);
  return { top, rest: { rows: Number(other?.rows ?? 0), bytes: Number(other?.bytes ?? 0), orgs: Number(other?.orgs ?? 0) } };
}
