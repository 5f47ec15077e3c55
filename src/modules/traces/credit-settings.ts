import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { templateRows } from '../../db/typed-sql';

/** How an organization's feedback and usage credit the facts its episodes were served and used. */
export interface CreditSettings {
  /** credit is given at all (off: traces are still recorded, no signal is derived) */
  enabled: boolean;
  /** confidence of the USED signal a served fact gets when the episode says it used it */
  usedConfidence: number;
  /** confidence of the IGNORED signal a served fact gets when the episode is judged without having used it */
  ignoredConfidence: number;
  /** a feedback of score s (-1..1) gives each used fact HELPFUL (s > 0) or NOT_HELPFUL (s < 0) of confidence min(1, |s| * this) */
  feedbackConfidence: number;
  /** one event (a usage report, a feedback, a verdict) credits at most this many facts */
  maxFactsPerEvent: number;
}

/**
 * The defaults. A fact used in an episode judged bad must end lower than before: its USED (+1.0 *
 * 0.3) is outweighed by any negative feedback (a rating of 2 is -0.5: NOT_HELPFUL -1.0 * 0.5). A fact
 * merely served alongside moves less than the bad choice: IGNORED -0.5 * 0.2 = -0.01 against at least
 * -0.02 for the choice.
 */
export const CREDIT_DEFAULTS: CreditSettings = {
  enabled: true,
  usedConfidence: 0.3,
  ignoredConfidence: 0.2,
  feedbackConfidence: 1,
  maxFactsPerEvent: 50,
};

/** The stored overrides of an organization (null or absent: the default). */
export interface StoredCreditSettings {
  enabled: boolean | null;
  used_confidence: number | null;
  ignored_confidence: number | null;
  feedback_confidence: number | null;
  max_facts_per_event: number | null;
}

export const creditSettingsOf = (row: StoredCreditSettings | null | undefined): CreditSettings => ({
  enabled: row?.enabled ?? CREDIT_DEFAULTS.enabled,
  usedConfidence: row?.used_confidence ?? CREDIT_DEFAULTS.usedConfidence,
  ignoredConfidence: row?.ignored_confidence ?? CREDIT_DEFAULTS.ignoredConfidence,
  feedbackConfidence: row?.feedback_confidence ?? CREDIT_DEFAULTS.feedbackConfidence,
  maxFactsPerEvent: row?.max_facts_per_event ?? CREDIT_DEFAULTS.maxFactsPerEvent,
});

/** A change of settings: a value, null to go back to the default, undefined to keep what is set. */
export type CreditSettingsChange = { [K in keyof CreditSettings]?: CreditSettings[K] | null };

/** Checks a change; returns the message of the first bad value. */
export function creditSettingsProblem(c: CreditSettingsChange): string | null {
  for (const k of ['usedConfidence', 'ignoredConfidence', 'feedbackConfidence'] as const) {
    const v = c[k];
    if (v !== undefined && v !== null && !(Number.isFinite(v) && v >= 0 && v <= 1)) return `${k} must be 0..1`;
  }
  const m = c.maxFactsPerEvent;
  if (m !== undefined && m !== null && !(Number.isInteger(m) && m >= 1 && m <= 500)) return 'maxFactsPerEvent must be an integer 1..500';
  return null;
}

/** Sets an organization's credit settings (checked by `creditSettingsProblem` first); returns them as they now apply. */
export async function setCreditSettings(em: EntityManager, orgId: string, c: CreditSettingsChange): Promise<CreditSettings> {
  const problem = creditSettingsProblem(c);
  if (problem) throw new RangeError(problem);
  const col = (v: unknown) => (v === undefined ? null : v);
  const keep = (v: unknown) => v === undefined;
  const [row] = await templateRows(
    em,
    raw<StoredCreditSettings>`INSERT INTO org_credit_settings AS s (org_id, enabled, used_confidence, ignored_confidence, feedback_confidence, max_facts_per_event)
      VALUES (${orgId}::uuid, ${col(c.enabled)}::boolean, ${col(c.usedConfidence)}::float8, ${col(c.ignoredConfidence)}::float8,
              ${col(c.feedbackConfidence)}::float8, ${col(c.maxFactsPerEvent)}::int)
      ON CONFLICT (org_id) DO UPDATE SET
        enabled = CASE WHEN ${keep(c.enabled)} THEN s.enabled ELSE excluded.enabled END,
        used_confidence = CASE WHEN ${keep(c.usedConfidence)} THEN s.used_confidence ELSE excluded.used_confidence END,
        ignored_confidence = CASE WHEN ${keep(c.ignoredConfidence)} THEN s.ignored_confidence ELSE excluded.ignored_confidence END,
        feedback_confidence = CASE WHEN ${keep(c.feedbackConfidence)} THEN s.feedback_confidence ELSE excluded.feedback_confidence END,
        max_facts_per_event = CASE WHEN ${keep(c.maxFactsPerEvent)} THEN s.max_facts_per_event ELSE excluded.max_facts_per_event END
      RETURNING enabled, used_confidence, ignored_confidence, feedback_confidence, max_facts_per_event`,
  );
  return creditSettingsOf(row);
}

/**
 * Complexity points an operation that may credit facts (useFacts, submitFeedback, judgeEpisode) costs
 * on top of what it selects: the credit is work done for the caller, charged to its budgets like any
 * write (one event credits at most `maxFactsPerEvent` facts).
 */
const CREDIT_COST = 10;

/** The complexity estimator of such an operation. */
export const creditingCost = ({ childComplexity }: { childComplexity: number }) => CREDIT_COST + childComplexity;
