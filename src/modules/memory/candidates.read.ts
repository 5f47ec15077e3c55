import type { EntityManager } from '@mikro-orm/postgresql';
import { type RawBuilder, sql as raw } from 'kysely';
import { boundText } from '../../core/sql';
import { ChangeCursor } from '../../db/change-feed';
import { firstRow, sql, toDriverText } from '../../db/typed-sql';
import { CandidateList, type CandidateRow } from './candidates';
import type { CandidateCache, CandidateKey, CursorRead, OrgCandidates } from './candidates.cache';

/**
 * The earliest 3 and the newest `maxCandidates - 3` segments of the agent's episodes (one session if
 * given), chronological, as one JSON array of `CandidateRow`s. Only a short text (one without
 * `terms`) is read: the candidates are chosen and ordered on small columns alone, and a long text is
 * read later only if it is selected.
 */
function candidatesOf(k: CandidateKey): RawBuilder<string | CandidateRow[]> {
  const session = k.sessionId === null ? raw`` : raw`AND e.session_id = ${k.sessionId}`;
  return raw<string | CandidateRow[]>`(WITH s AS (
       SELECT g.id, g.episode_id, g.role, g.created_at, g.token_estimate, g.seq, e.created_at AS episode_created_at, g.terms IS NULL AS inline
         FROM episodes e JOIN episode_segments g ON g.org_id = e.org_id AND g.episode_id = e.id
        WHERE e.org_id = ${k.orgId} AND e.agent_id = ${k.agentId} ${session})
     SELECT coalesce(json_agg(json_build_array(c.id, c.episode_id, c.role,
                                               CASE WHEN c.inline THEN (SELECT t.content FROM episode_segments t WHERE t.org_id = ${k.orgId} AND t.id = c.id) END,
                                               c.created_at::text, c.token_estimate)
                              ORDER BY c.created_at, c.episode_created_at, c.seq), '[]'::json)
       FROM ((SELECT * FROM s ORDER BY created_at, episode_created_at, seq LIMIT 3)
             UNION
             (SELECT * FROM s ORDER BY created_at DESC, episode_created_at DESC, seq DESC LIMIT ${k.maxCandidates - 3})) c)`;
}

/** `candidatesOf` as a column (`AS candidates`) written as text with `?` placeholders, and its bindings. */
const candidatesText = (k: CandidateKey) => toDriverText({ compile: () => raw`${candidatesOf(k)} AS candidates`.compile(sql) });
export const candidatesColumn = (k: CandidateKey): string => candidatesText(k).text;
export const candidateBindings = (k: CandidateKey): unknown[] => candidatesText(k).params;

/** The change log of the organization's segments from the cursor (or the read that starts one), as a one-row table `l`. */
function changeRead(orgId: string, cursor: ChangeCursor | null) {
  const columns = cursor
    ? boundText(ChangeCursor.columns, cursor.bindings(orgId, 'segments'))
    : boundText(ChangeCursor.startColumns, ChangeCursor.startBindings(orgId, 'segments'));
  return raw<CursorRead>`(SELECT ${columns})`.as('l');
}

const parsed = <T>(v: string | T): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/**
 * The candidate list of an agent, from the cache when the change log shows nothing written to the
 * agent's segments since it was read. Every request runs one statement (the change log check, or
 * the check with the rows), two when a cached list turns out stale; `reread` reads the rows anew.
 */
export async function candidates(em: EntityManager, cache: CandidateCache, k: CandidateKey, reread = false): Promise<CandidateList> {
  const org = cache.org(k.orgId);
  if (reread) cache.drop(k);
  else if (org && cache.get(k)) {
    const row = (await firstRow(em, sql.selectFrom(changeRead(k.orgId, org.cursor)).selectAll('l')))!;
    if (cache.attached(k.orgId, org)) cache.advance(org, row);
    const hit = cache.get(k);
    if (hit) return hit;
  }
  return read(em, cache, k, cache.org(k.orgId));
}

async function read(em: EntityManager, cache: CandidateCache, k: CandidateKey, org: OrgCandidates | undefined): Promise<CandidateList> {
  const tick = org?.tick ?? 0;
  const read = sql
    .selectFrom(changeRead(k.orgId, org ? org.cursor : null))
    .selectAll('l')
    .select(candidatesOf(k).as('candidates'));
  const row = (await firstRow(em, read))!;
  cache.builds += 1;
  const list = await CandidateList.build(parsed(row.candidates), k.orgId);
  if (!org) {
    const started = cache.start(k.orgId, row);
    if (started) cache.put(started, k, list);
  } else if (cache.attached(k.orgId, org)) {
    // a list read before another request applied a change to its agent may predate that change
    const fresh = org.unchangedSince(k.agentId, tick);
    cache.advance(org, row);
    if (fresh) cache.put(org, k, list);
  }
  return list;
}
