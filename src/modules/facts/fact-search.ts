import type { EntityManager } from '@mikro-orm/postgresql';
import { type RawBuilder, sql as raw, type SelectQueryBuilder } from 'kysely';
import { AppError, badInput } from '../../core/errors';
import { decodeCursor, encodeCursor, pageSize } from '../../core/cursor';
import { numberIn, text } from '../../core/validate';
import type { FactsTable, Tables } from '../../db/tables';
import { firstRow, readRows, sql } from '../../db/typed-sql';
import type { FactRow } from './fact.rows';
import type { Fact } from './fact.type';
import type { FactFilter } from './facts.inputs';
import { sqlDecay } from './usefulness.sql';

const MAX_SEARCH_TEXT = 200;

/**
 * A fact's global usefulness decayed to the bound time `at` (`sqlUsefulnessAt` of the row `f`, with
 * the time a bound value rather than SQL text).
 */
function usefulnessAtTime(at: Date): RawBuilder<number> {
  const [before, after] = sqlDecay('f.usefulness', '\u0000').split('\u0000');
  return raw<number>`${raw.raw(before)}coalesce(date_part('epoch', ${at.toISOString()}::timestamptz - f.last_signal_at) / 86400.0::float8, 0.0::float8)${raw.raw(after)}`;
}

/**
 * The conditions of the search fields of a fact filter (text, usefulness range), usefulness read
 * as of `at`. Text matches the English stems PostgreSQL keeps in `text_tsv` (the GIN index
 * `facts_lexical`), written as in a web search box.
 */
export function searchConditions(filter: FactFilter | null | undefined, at: Date): RawBuilder<boolean>[] {
  const out: RawBuilder<boolean>[] = [];
  if (!filter) return out;
  const words = text('filter.text', filter.text, MAX_SEARCH_TEXT, { required: filter.text !== undefined && filter.text !== null });
  const min = numberIn('filter.minUsefulness', filter.minUsefulness, 0, 1);
  const max = numberIn('filter.maxUsefulness', filter.maxUsefulness, 0, 1);
  if (min !== null && max !== null && min > max) throw badInput('filter.minUsefulness', 'minUsefulness must not exceed maxUsefulness');
  if (words !== null) out.push(raw<boolean>`f.text_tsv @@ websearch_to_tsquery('english', ${words})`);
  if (min !== null) out.push(raw<boolean>`${usefulnessAtTime(at)} >= ${min}::float8`);
  if (max !== null) out.push(raw<boolean>`${usefulnessAtTime(at)} <= ${max}::float8`);
  return out;
}

/** A cursor of the order asked for: a MOST_USEFUL page's carries a score (see core/cursor.ts), a NEWEST page's none. */
function cursorOf(after: string, mostUseful: boolean) {
  const c = decodeCursor(after);
  if ((c.score !== undefined) !== mostUseful) throw badInput('after', 'after is a cursor of another order of facts');
  return c;
}

/** The time a page reads usefulness at: its cursor's (so that every page of a MOST_USEFUL walk ranks alike), else now. */
export function pageTime(after: string | null | undefined, mostUseful: boolean): Date {
  const c = after ? cursorOf(after, mostUseful) : null;
  return mostUseful && c ? new Date(c.sortValue) : new Date();
}

/** `Date` as the keyset sort time (microseconds). */
const sortTime = (d: Date) => d.toISOString().replace('Z', '000Z');

/**
 * A keyset page of facts, most useful first (usefulness decayed to one time for the whole walk,
 * then id). `query` selects the fact columns with their conditions, scoped to the organization.
 */
export async function mostUsefulPage<R extends FactRow>(
  em: EntityManager,
  query: SelectQueryBuilder<Tables & { f: FactsTable }, 'f', R>,
  first: number | null | undefined,
  after: string | null | undefined,
  at: Date,
  toNodes: (rows: R[]) => Fact[],
) {
  const n = pageSize(first);
  const cursor = after ? cursorOf(after, true) : null;
  const u = usefulnessAtTime(at);
  let q = query.select(u.as('sort_u'));
  if (cursor) q = q.where(raw<boolean>`(${u}, f.id) < (${cursor.score}::float8, ${cursor.id}::uuid)`);
  const found = (await readRows(
    em,
    q
      .orderBy(u, 'desc')
      .orderBy('f.id', 'desc')
      .limit(n + 1),
  )) as (R & { sort_u: number })[];
  const page = found.slice(0, n);
  const nodes = toNodes(page);
  const edges = page.map((r, i) => ({
    cursor: encodeCursor({ sortValue: sortTime(at), id: r.id, score: Number(r.sort_u) }),
    node: nodes[i],
  }));
  return { edges, pageInfo: { hasNextPage: found.length > n, endCursor: edges.length ? edges[edges.length - 1].cursor : null } };
}

/**
 * For a first page that came back empty under `filter.requireBank`: NOT_FOUND when the organization
 * has no fact at all in the bank (what `factBanks` counts: superseded ones too), so a page can say
 * the bank is unknown rather than that nothing matches. One index probe, only for an empty page.
 */
export async function requireBank(
  em: EntityManager,
  orgId: string,
  filter: FactFilter | null | undefined,
  bankId: string | null,
  empty: boolean,
  after: string | null | undefined,
): Promise<void> {
  if (!filter?.requireBank || bankId === null || !empty || after) return;
  const found = await firstRow(
    em,
    sql.selectFrom('facts as f').select('f.id').where('f.org_id', '=', orgId).where('f.bank_id', '=', bankId).limit(1),
  );
  if (!found) throw new AppError('NOT_FOUND', `bank "${bankId}" has no facts in this organization`, 'filter.bankId');
}
