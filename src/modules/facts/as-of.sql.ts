import { sql as raw, type RawBuilder } from 'kysely';

/**
 * Which facts recall and `facts` see, and as of when. A fact is live at an instant when nothing
 * supersedes it and the instant is within its validity (`validFrom` inclusive, `validTo`
 * exclusive, either open when null). By default the instant is now; `includeSuperseded` sees every
 * fact; `asOf` sees the facts as they were at a past instant (see `factSource`).
 */
export interface FactView {
  includeSuperseded: boolean;
  asOf: Date | null;
}

export const CURRENT: FactView = { includeSuperseded: false, asOf: null };

const instant = (v: FactView) => (v.asOf ? raw`${v.asOf.toISOString()}::timestamptz` : raw`now()`);

/** Whether the row `alias` is live at the view's instant (always true with `includeSuperseded`). */
export function liveIn(alias: string, v: FactView): RawBuilder<boolean> {
  if (v.includeSuperseded) return raw<boolean>`true`;
  const [sup, from, to] = ['superseded_by', 'valid_from', 'valid_to'].map((c) => raw.ref(`${alias}.${c}`));
  const at = instant(v);
  return raw<boolean>`(${sup} IS NULL AND (${from} IS NULL OR ${from} <= ${at}) AND (${to} IS NULL OR ${to} > ${at}))`;
}

/** The columns of the facts table a recall statement reads from its source. */
const COLUMNS = [
  'id',
  'org_id',
  'created_at',
  'bank_id',
  'text',
  'kind',
  'external_id',
  'scope',
  'key',
  'value',
  'status',
  'confidence',
  'support_count',
  'usefulness',
  'signal_count',
  'last_signal_at',
  'last_used_at',
  'updated_at',
  'superseded_by',
  'valid_from',
  'valid_to',
  'embedding',
  'embedding_norm_sq',
  'embedding_model',
  'text_tsv',
  'seq',
] as const;

/** What a version row holds itself; the rest (usefulness, ids, order) stays the fact's. */
const VERSIONED = new Set([
  'bank_id',
  'text',
  'kind',
  'value',
  'status',
  'superseded_by',
  'valid_from',
  'valid_to',
  'embedding',
  'embedding_norm_sq',
  'embedding_model',
  'text_tsv',
  'seq',
]);

/**
 * The relation recall reads facts from: the `facts` table, or as of a past instant T the facts
 * created by T, each as the version current at T (the row itself when its current version began by
 * T, else the one of `fact_versions` that spans T), with the fact's own usefulness. Conditions on
 * the relation (organization, bank, stems, `seq`) reach both halves and their indexes.
 */
export function factSource(orgId: string, v: FactView): RawBuilder<unknown> {
  if (!v.asOf) return raw`facts`;
  const at = instant(v);
  const fromVersion = COLUMNS.map((c) => (c === 'id' ? 'v.fact_id AS id' : VERSIONED.has(c) ? `v.${c}` : `c.${c}`)).join(', ');
  return raw`(SELECT ${raw.raw(COLUMNS.map((c) => `n.${c}`).join(', '))} FROM facts n
       WHERE n.org_id = ${orgId}::uuid AND n.created_at <= ${at} AND coalesce(n.version_at, n.created_at) <= ${at}
     UNION ALL
     SELECT ${raw.raw(fromVersion)} FROM fact_versions v JOIN facts c ON c.org_id = v.org_id AND c.id = v.fact_id
       WHERE v.org_id = ${orgId}::uuid AND v.version_from <= ${at} AND v.created_at > ${at} AND c.created_at <= ${at})`;
}
