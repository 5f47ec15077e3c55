import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw, type RawBuilder } from 'kysely';
import { badInput, notFound } from '../../core/errors';
import { text } from '../../core/validate';
import { firstRow, rows as runRows, sql, templateRows } from '../../db/typed-sql';
import { removeCredit } from '../facts';
import { type Counts, KINDS, type Step, STEPS, type Targets } from './erasure.steps';

/** At most this many ids or external ids per delete. */
const MAX_IDS = 1000;
const SHORT = 200;

export interface Subject {
  agentId?: string | null;
  sessionId?: string | null;
  bankId?: string | null;
  metadataKey?: string | null;
  metadataValue?: string | null;
}

export interface ErasureOutcome {
  id: string;
  dryRun: boolean;
  counts: Counts;
}

interface Run {
  operation: 'deleteFacts' | 'deleteEpisodes' | 'eraseSubject';
  /** what the audit log keeps of the request (never content) */
  selector: Record<string, unknown>;
  targets: Targets;
  dryRun: boolean;
  targetIds?: string[];
  targetKeys?: string[];
}

const NONE: Targets = { episodes: null, feedback: null, canvas: null, facts: null };

/**
 * Runs the steps over the targets (see erasure.steps.ts): each step deletes in batches until a batch
 * deletes fewer than its size, so rows written meanwhile by the same subject are taken too and a
 * retry finds nothing left (it reports zeros). A dry run counts instead. Days of the learning counts
 * left at zero are removed. The audit log gets one row: who, when, the selector, the counts.
 */
async function run(em: EntityManager, orgId: string, keyId: string | null, r: Run): Promise<ErasureOutcome> {
  const counts = Object.fromEntries(KINDS.map((k) => [k, 0])) as Counts;
  const add = (got: Partial<Counts> | undefined) => {
    for (const [k, v] of Object.entries(got ?? {})) counts[k as keyof Counts] += Number(v);
  };
  for (const step of STEPS) {
    const where = r.targets[step.root];
    if (!where) continue;
    if (r.dryRun) {
      add((await templateRows(em, step.count(orgId, where, r.targets)))[0]);
      continue;
    }
    for (;;) {
      const got = step.credit ? await withCredit(em, orgId, step, where) : (await templateRows(em, step.batch(orgId, where, step.size)))[0];
      add(got);
      const roots = Number(Object.values(got ?? {})[0] ?? 0);
      if (roots < step.size) break;
    }
  }
  if (!r.dryRun && counts.feedback > 0)
    await runRows(em, sql.deleteFrom('learning_event_counts').where('org_id', '=', orgId).where('count', '=', 0));
  const audit = await firstRow(
    em,
    sql
      .insertInto('erasures')
      .values({
        id: raw<string>`gen_random_uuid()`,
        org_id: orgId,
        api_key_id: keyId,
        operation: r.operation,
        selector: JSON.stringify(r.selector),
        target_ids: r.targetIds ?? null,
        target_keys: r.targetKeys ?? null,
        dry_run: r.dryRun,
        counts: JSON.stringify(counts),
      })
      .returning('id'),
  );
  return { id: audit!.id, dryRun: r.dryRun, counts };
}

/**
 * One batch of a step whose rows earned usefulness credit, in one transaction: the batch's ids
 * (locked), the credit they earned removed with every fact's usefulness computed again from the
 * signals left, then the batch deleted; the removed signals are counted as `factSignals`.
 */
async function withCredit(em: EntityManager, orgId: string, step: Step, where: RawBuilder<boolean>): Promise<Partial<Counts>> {
  const { table, alias, as } = step.credit!;
  return em.transactional(async (tx) => {
    const picked = await templateRows<{ id: string }>(
      tx,
      raw`SELECT ${raw.ref(`${alias}.id`)} AS id FROM ${raw.table(table)} AS ${raw.raw(alias)}
           WHERE ${raw.ref(`${alias}.org_id`)} = ${orgId}::uuid AND ${where} LIMIT ${step.size} FOR UPDATE`,
    );
    if (picked.length === 0) return {};
    const ids = picked.map((r) => r.id);
    const credit = await removeCredit(tx, orgId, { [as]: ids });
    const [got] = await templateRows(tx, step.batch(orgId, raw<boolean>`${raw.ref(`${alias}.id`)} = any(${ids}::uuid[])`, step.size));
    return { ...got, factSignals: Number(got?.factSignals ?? 0) + credit };
  });
}

/** Ids or external ids the organization erased before (a retry of a delete by id finds them here). */
async function erasedBefore(em: EntityManager, orgId: string, ids: string[], keys: string[]): Promise<Set<string>> {
  if (ids.length === 0 && keys.length === 0) return new Set();
  const found = await templateRows<{ v: string }>(
    em,
    raw`SELECT DISTINCT v FROM erasures e CROSS JOIN LATERAL unnest(coalesce(e.target_ids, '{}') || coalesce(e.target_keys, '{}')) v
         WHERE e.org_id = ${orgId}::uuid AND NOT e.dry_run AND (e.target_ids && ${ids}::text[] OR e.target_keys && ${keys}::text[])
           AND v = any(${[...ids, ...keys]}::text[])`,
  );
  return new Set(found.map((r) => r.v));
}

function list(field: string, values: string[] | null | undefined): string[] {
  const v = values ?? [];
  if (v.length > MAX_IDS) throw badInput(field, `${field} must have at most ${MAX_IDS} entries`);
  v.forEach((x, i) => text(`${field}.${i}`, x, SHORT, { required: true }));
  return [...new Set(v)];
}

/**
 * Deletes facts by id or external id (within `bankId` when it is given), or every fact of `bankId`.
 * An id the organization does not have is NOT_FOUND and nothing is deleted, unless this
 * organization erased it before (a retry reports zero).
 */
export async function deleteFacts(
  em: EntityManager,
  orgId: string,
  keyId: string | null,
  a: { ids: string[]; externalIds?: string[] | null; bankId?: string | null },
  dryRun = false,
): Promise<ErasureOutcome> {
  const ids = list('ids', a.ids);
  const keys = list('externalIds', a.externalIds);
  const bankId = text('bankId', a.bankId, SHORT);
  if (ids.length === 0 && keys.length === 0 && bankId === null) throw badInput('ids', 'give ids, externalIds or bankId');
  const inBank = bankId === null ? raw<boolean>`true` : raw<boolean>`f.bank_id = ${bankId}::text`;
  let where: RawBuilder<boolean> = inBank;
  if (ids.length > 0 || keys.length > 0) {
    const found = await templateRows<{ id: string; external_id: string | null }>(
      em,
      raw`SELECT f.id, f.external_id FROM facts f WHERE f.org_id = ${orgId}::uuid AND ${inBank}
            AND (f.id = any(${ids}::uuid[]) OR f.external_id = any(${keys}::text[]))`,
    );
    const seen = new Set(found.flatMap((r) => [r.id, r.external_id ?? '']));
    const missing = { ids: ids.filter((x) => !seen.has(x)), keys: keys.filter((x) => !seen.has(x)) };
    const erased = await erasedBefore(em, orgId, missing.ids, missing.keys);
    if (missing.ids.some((x) => !erased.has(x))) throw notFound('fact', 'ids');
    if (missing.keys.some((x) => !erased.has(x))) throw notFound('fact', 'externalIds');
    where = raw<boolean>`f.id = any(${found.map((r) => r.id)}::uuid[])`;
  }
  const selector = { ids: ids.length, externalIds: keys.length, ...(bankId !== null ? { bankId } : {}) };
  return run(em, orgId, keyId, {
    operation: 'deleteFacts',
    selector,
    targets: { ...NONE, facts: where },
    dryRun,
    targetIds: ids,
    targetKeys: keys,
  });
}

/** Deletes episodes by id with everything that hangs off them; unknown ids as for `deleteFacts`. */
export async function deleteEpisodes(
  em: EntityManager,
  orgId: string,
  keyId: string | null,
  idsIn: string[],
  dryRun = false,
): Promise<ErasureOutcome> {
  const ids = list('ids', idsIn);
  if (ids.length === 0) throw badInput('ids', 'give at least one id');
  const found = await runRows(
    em,
    sql
      .selectFrom('episodes')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', '=', raw<string>`any(${ids}::uuid[])`),
  );
  const seen = new Set(found.map((r) => r.id));
  const missing = ids.filter((x) => !seen.has(x));
  const erased = await erasedBefore(em, orgId, missing, []);
  if (missing.some((x) => !erased.has(x))) throw notFound('episode', 'ids');
  const where = raw<boolean>`e.id = any(${[...seen]}::uuid[])`;
  return run(em, orgId, keyId, {
    operation: 'deleteEpisodes',
    selector: { ids: ids.length },
    targets: { ...NONE, episodes: where },
    dryRun,
    targetIds: ids,
  });
}

/**
 * The targets of a subject: every kind that has each given field, all given fields matching. An
 * agent's episodes, feedback, canvas actions and facts (its bank is the agent id); a session's
 * episodes, feedback and canvas actions; a bank's facts; the episodes, feedback and canvas actions
 * whose metadata has the key with the value.
 */
function subjectTargets(s: Subject): Targets {
  const agent = text('selector.agentId', s.agentId, SHORT);
  const session = text('selector.sessionId', s.sessionId, SHORT);
  const bank = text('selector.bankId', s.bankId, SHORT);
  const key = text('selector.metadataKey', s.metadataKey, SHORT);
  const value = text('selector.metadataValue', s.metadataValue, 2000);
  if ((key === null) !== (value === null))
    throw badInput(key === null ? 'selector.metadataKey' : 'selector.metadataValue', 'metadataKey and metadataValue go together');
  if ([agent, session, bank, key].every((v) => v === null || v === ''))
    throw badInput('selector', 'an erasure needs a selector: agentId, sessionId, bankId or metadataKey with metadataValue');
  for (const [field, v] of [
    ['agentId', agent],
    ['sessionId', session],
    ['bankId', bank],
    ['metadataKey', key],
  ] as const)
    if (v === '') throw badInput(`selector.${field}`, `selector.${field} must not be empty`);
  /** the condition on `alias` when every given field has a column in it, else null */
  const on = (alias: string, cols: { agent?: string; session?: string; bank?: string; meta?: string }): RawBuilder<boolean> | null => {
    const parts: RawBuilder<boolean>[] = [];
    const col = (c: string) => raw.ref(`${alias}.${c}`);
    for (const [v, c] of [
      [agent, cols.agent],
      [session, cols.session],
      [bank, cols.bank],
    ] as const) {
      if (v === null) continue;
      if (!c) return null;
      parts.push(raw<boolean>`${col(c)} = ${v}::text`);
    }
    if (key !== null) {
      if (!cols.meta) return null;
      parts.push(raw<boolean>`${col(cols.meta)} ->> ${key}::text = ${value}::text`);
    }
    return raw<boolean>`(${raw.join(parts, raw` AND `)})`;
  };
  return {
    episodes: on('e', { agent: 'agent_id', session: 'session_id', meta: 'metadata' }),
    feedback: on('f', { agent: 'agent_id', session: 'session_id', meta: 'meta' }),
    canvas: on('c', { agent: 'agent_id', session: 'session_id', meta: 'metadata' }),
    facts: on('f', { agent: 'bank_id', bank: 'bank_id' }),
  };
}

/** Erases everything about a subject (see `subjectTargets`), or counts it (`dryRun`). */
export async function eraseSubject(em: EntityManager, orgId: string, keyId: string | null, s: Subject, dryRun: boolean) {
  const targets = subjectTargets(s);
  const selector = Object.fromEntries(Object.entries(s).filter(([, v]) => v !== null && v !== undefined));
  return run(em, orgId, keyId, { operation: 'eraseSubject', selector, targets, dryRun });
}
