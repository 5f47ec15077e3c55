import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { badInput } from '../../core/errors';
import { firstRow, rows, sql } from '../../db/typed-sql';
import { embedding } from '../../core/validate';
import { sumOfSquares } from './usefulness.sql';

export interface DimensionUse {
  /** the input path of the embedding, e.g. `inputs.3.embedding` */
  field: string;
  length: number;
  /** the vector came from the server's embedder, not from the caller */
  serverMade?: boolean;
}

/**
 * An embedding of a fact or a query: finite numbers whose sum of squares is finite too, since
 * PostgreSQL stores it beside the embedding and cosines divide by it.
 */
export function factEmbedding(field: string, value: number[] | null | undefined): number[] | null {
  const v = embedding(field, value);
  if (v && !Number.isFinite(sumOfSquares(v)))
    throw badInput(field, `${field} is too large: the sum of its squares must be a finite number`);
  return v;
}

/** The organization's embedding dimension as a scalar subquery of a larger statement (null until the first embedding). */
export const dimensionOf = (orgId: string) =>
  sql.selectFrom('fact_embedding_dimensions as d').select('d.dimension').where('d.org_id', '=', orgId);

/** The organization's embedding dimension, null until the first embedding. */
export async function orgDimension(em: EntityManager, orgId: string): Promise<number | null> {
  const row = (await firstRow(em, sql.selectNoFrom(dimensionOf(orgId).as('dimension'))))!;
  return row.dimension === null ? null : Number(row.dimension);
}

/**
 * Checks that every embedding has the organization's dimension; the first embedding an
 * organization ever sends fixes it. Runs inside the write's transaction (a refused write rolls
 * the claim back). A mismatch is BAD_USER_INPUT naming the first offending embedding.
 */
export async function checkDimensions(tx: EntityManager, orgId: string, uses: DimensionUse[]): Promise<void> {
  if (uses.length === 0) return;
  await rows(
    tx,
    sql
      .insertInto('fact_embedding_dimensions')
      .values({ org_id: orgId, dimension: uses[0].length, created_at: raw<string>`now()` })
      .onConflict((oc) => oc.column('org_id').doNothing()),
  );
  const dim = await orgDimension(tx, orgId);
  const bad = uses.find((u) => u.length !== dim);
  if (bad?.serverMade)
    throw badInput(
      bad.field,
      `the server's embedding model makes vectors of ${bad.length} numbers, but this organization's vectors have ${dim}: send ${bad.field} (${dim} numbers)`,
    );
  if (bad)
    throw badInput(bad.field, `${bad.field} must have ${dim} numbers, the embedding dimension of this organization (got ${bad.length})`);
}
