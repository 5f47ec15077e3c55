import { sql as raw } from 'kysely';
import { sql } from '../../db/typed-sql';

/**
 * The dimension of the organization's episode embeddings as a built statement: one row whose `dim`
 * is its oldest embedded episode's dimension, NULL while it has none. The oldest is found through
 * the partial index `episodes_embedded` (without the order a scan could read every unembedded
 * episode first).
 */
export const episodeDimension = (orgId: string) =>
  sql.selectNoFrom(
    sql
      .selectFrom('episodes')
      .select(raw<number | null>`array_length(embedding, 1)`.as('dim'))
      .where('org_id', '=', orgId)
      .where('embedding', 'is not', null)
      .orderBy('created_at')
      .limit(1)
      .$asScalar()
      .as('dim'),
  );
