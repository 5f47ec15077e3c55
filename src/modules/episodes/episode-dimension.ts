import { sql as raw } from 'kysely';
import { sql } from '../../db/typed-sql';

/**
 * The dimension of the organization's episode embeddings (one binding: the org id), NULL while it
 * has none: its oldest embedded episode's, found through the partial index `episodes_embedded`
 * (without the order a scan could read every unembedded episode first).
 */
export const EPISODE_DIMENSION_SQL = `SELECT array_length(embedding, 1) FROM episodes WHERE org_id = ? AND embedding IS NOT NULL ORDER BY created_at LIMIT 1`;

/** `EPISODE_DIMENSION_SQL` as a built statement: one row whose `dim` is the dimension, NULL while there is none. */
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
