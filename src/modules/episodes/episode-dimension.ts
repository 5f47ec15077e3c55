import { sql as raw } from 'kysely';
import { sql } from '../../db/typed-sql';

/**
 * The dimension of the organization's episode embeddings, NULL while it has none: its oldest
 * embedded episode's, found through the partial index `episodes_embedded` (without the order a
 * scan could read every unembedded episode first). A one-column subquery, for statements that read
 * it beside other things.
 */
export const oldestEmbeddedDimension = (orgId: string) =>
  sql
    .selectFrom('episodes')
    .select(raw<number | null>`array_length(embedding, 1)`.as('dim'))
    .where('org_id', '=', orgId)
    .where('embedding', 'is not', null)
    .orderBy('created_at')
    .limit(1);

/** The dimension as a statement of its own: one row whose `dim` is the dimension, NULL while there is none. */
export const episodeDimension = (orgId: string) => sql.selectNoFrom(oldestEmbeddedDimension(orgId).$asScalar().as('dim'));
