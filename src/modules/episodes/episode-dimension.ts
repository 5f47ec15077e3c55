/**
 * The dimension of the organization's episode embeddings (one binding: the org id), NULL while it
 * has none: its oldest embedded episode's, found through the partial index `episodes_embedded`
 * (without the order a scan could read every unembedded episode first).
 */
export const EPISODE_DIMENSION_SQL = `SELECT array_length(embedding, 1) FROM episodes WHERE org_id = ? AND embedding IS NOT NULL ORDER BY created_at LIMIT 1`;
