import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors';
import { sql as raw } from 'kysely';
import { boundText } from '../../core/sql';
import { firstRow, rows as runRows, sql } from '../../db/typed-sql';
import { removeCredit } from '../facts';
import { BATCH, forgetBatch, PROTECTED, purgeBatch } from './lifecycle.sql';

export interface ForgetOptions {
  decayThreshold?: number | null;
  maxAgeDays?: number | null;
  dryRun?: boolean | null;
}

export interface ForgetOutcome {
  examined: number;
  deleted: number;
  preserved: number;
  deletedIds: string[];
}

const MAX_DRY_RUN_IDS = 10_000;

/** decayScore in SQL (alias `e`); the TypeScript twin, with the formula, is episodes/decay.ts. */
export const DECAY_SQL = `(exp(-?::float8 * greatest(0, extract(epoch FROM now() - e.created_at)) / 86400)
  * CASE WHEN e.accepted IS FALSE THEN 0.6 ELSE 1 END * CASE WHEN e.overall_score < 0.5 THEN 0.7 ELSE 1 END)`;

/** Whether the episode (alias `e`) is due: decayed below the threshold, or older than the maximum age and not accepted. */
const doomed = (lambda: number, threshold: number, maxAge: number) =>
  raw<boolean>`(${boundText(DECAY_SQL, [lambda])} < ${threshold}::float8
    OR (e.created_at < now() - ${maxAge}::int * interval '1 day' AND e.accepted IS NOT TRUE))`;

function check(o: ForgetOptions): { threshold: number; maxAge: number; dryRun: boolean } {
  const threshold = o.decayThreshold ?? 0.1;
  const maxAge = o.maxAgeDays ?? 90;
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) throw badInput('input.decayThreshold', 'decayThreshold must be 0..1');
  if (!Number.isInteger(maxAge) || maxAge < 0) throw badInput('input.maxAgeDays', 'maxAgeDays must be an integer >= 0');
  return { threshold, maxAge, dryRun: o.dryRun ?? false };
}

/**
 * Selective forgetting: deletes decayed or stale unaccepted episodes in batches of
 * 1,000, each batch one statement (its own transaction): segments, outputs, fact links and
 * judgements go with the episode; other feedback and canvas audits stay, unlinked. Nothing is
 * loaded into memory but the counts, so it is safe to interrupt and to run again.
 */
export async function forgetEpisodes(em: EntityManager, orgId: string, lambda: number, options: ForgetOptions): Promise<ForgetOutcome> {
  const { threshold, maxAge, dryRun } = check(options);
  const due = doomed(lambda, threshold, maxAge);
  const counted = sql
    .selectFrom('episodes as e')
    .select([
      raw<number>`count(*)::int`.as('examined'),
      raw<number>`count(*) FILTER (WHERE NOT ${PROTECTED} AND ${due})::int`.as('doomed'),
      raw<number>`count(*) FILTER (WHERE ${PROTECTED} AND ${due})::int`.as('preserved'),
    ])
    .where('e.org_id', '=', orgId);
  const counts = (await firstRow(em, counted))!;
  if (dryRun) {
    const doomedIds = sql
      .selectFrom('episodes as e')
      .select('e.id')
      .where('e.org_id', '=', orgId)
      .where(raw<boolean>`NOT ${PROTECTED} AND ${due}`)
      .orderBy('e.created_at')
      .orderBy('e.id')
      .limit(MAX_DRY_RUN_IDS);
    const ids = await runRows(em, doomedIds);
    return { examined: counts.examined, deleted: counts.doomed, preserved: counts.preserved, deletedIds: ids.map((r) => r.id) };
  }
  let deleted = 0;
  // walk the episodes once in (created_at, id) order, so kept episodes are not re-read by every batch
  let after: { at: string; id: string } = { at: '-infinity', id: '00000000-0000-0000-0000-000000000000' };
  for (;;) {
    // the credit of the deleted verdicts goes with them; the credit of other feedback (kept, unlinked) and of usage stays
    const r = await em.transactional(async (tx) => {
      const b = (await firstRow(tx, forgetBatch(orgId, due, after)))!;
      await removeCredit(tx, orgId, { feedbackIds: b.verdicts ?? [] });
      return b;
    });
    deleted += r.n;
    if (r.seen < BATCH * 10 || !r.last_at || !r.last_id) break;
    after = { at: r.last_at, id: r.last_id };
  }
  return { examined: counts.examined, deleted, preserved: counts.preserved, deletedIds: [] };
}

/**
 * Deletes feedback older than the retention (365 days unless told otherwise) in batches, taking
 * each batch out of its episodes' counters and score sums and out of the daily learning event
 * counts in the same statement, so aggregates stay exact, and removing the credit it gave to facts
 * (their usefulness computed again from the remaining signals) in the same transaction.
 */
export async function purgeExpiredFeedback(em: EntityManager, orgId: string, retentionDays = 365, batch = 5000): Promise<number> {
  if (!Number.isInteger(retentionDays) || retentionDays < 1) throw badInput('retentionDays', 'retentionDays must be an integer >= 1');
  let total = 0;
  for (;;) {
    // the credit the batch's feedback earned goes with it, in the same transaction
    const n = await em.transactional(async (tx) => {
      const r = (await firstRow(tx, purgeBatch(orgId, retentionDays, batch)))!;
      await removeCredit(tx, orgId, { feedbackIds: r.ids ?? [] });
      return r.n;
    });
    total += n;
    if (n < batch) break;
  }
  // days whose events were all deleted again (rows at count 0)
  if (total > 0) await runRows(em, sql.deleteFrom('learning_event_counts').where('org_id', '=', orgId).where('count', '=', 0));
  return total;
}
