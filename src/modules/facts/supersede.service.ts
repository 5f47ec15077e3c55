import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { badInput, notFound } from '../../core/errors';
import { rows as runRows, sql, templateRows } from '../../db/typed-sql';

/** Longest chain of successors followed when looking for a cycle (a chain never gets near it). */
const MAX_CHAIN = 10_000;

/**
 * Marks fact `id` as superseded by fact `by` (null: no longer superseded), as the API key `keyId`.
 * Both must be facts of the organization (another organization's id is NOT_FOUND, like a missing
 * one); a fact cannot supersede itself nor close a cycle of successors. The two rows are locked in
 * id order first, so two writes that would make a cycle between them run one after the other. The
 * fact's history keeps the version before (the trigger on `facts`); the successor's usefulness is
 * its own (it starts fresh).
 */
export async function supersedeFact(em: EntityManager, orgId: string, id: string, by: string | null, keyId: string | null): Promise<void> {
  if (by === id) throw badInput('supersededBy', 'a fact cannot supersede itself');
  await em.transactional(async (tx) => {
    const ids = by ? [id, by] : [id];
    const locked = await runRows(
      tx,
      sql
        .selectFrom('facts')
        .select('id')
        .where('org_id', '=', orgId)
        .where('id', '=', raw<string>`any(${ids}::uuid[])`)
        .orderBy('id')
        .forUpdate(),
    );
    const found = new Set(locked.map((r) => r.id));
    if (!found.has(id)) throw notFound('fact', 'id');
    if (by && !found.has(by)) throw notFound('fact', 'supersededBy');
    if (by) {
      // the successors of `by`, one after another: reaching `id` would close a cycle
      const [chain] = await templateRows<{ cycle: boolean }>(
        tx,
        raw`WITH RECURSIVE next(id, depth) AS (
              SELECT ${by}::uuid, 0
              UNION ALL
              SELECT f.superseded_by, n.depth + 1 FROM next n JOIN facts f ON f.org_id = ${orgId}::uuid AND f.id = n.id
               WHERE f.superseded_by IS NOT NULL AND n.depth < ${MAX_CHAIN})
            SELECT coalesce(bool_or(id = ${id}::uuid), false) AS cycle FROM next`,
      );
      if (chain.cycle) throw badInput('supersededBy', 'this would make a cycle of superseding facts');
    }
    await runRows(
      tx,
      sql
        .updateTable('facts')
        .set({ superseded_by: by, updated_by: keyId, updated_at: raw<string>`now()` })
        .where('org_id', '=', orgId)
        .where('id', '=', id),
    );
  });
}
