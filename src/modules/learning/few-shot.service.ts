import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { rows as runRows, sql } from '../../db/typed-sql';
import { limit as checkLimit } from '../../core/validate';
import { checkFingerprint } from '../shared';
import { FewShotExample, FewShotExamples } from './learning.type';
import { pyDumps } from './python-json';

const FEW_SHOT_EVENT_TYPES = ['EXTRACTION_LINE_CORRECTED', 'EXTRACTION_FIELD_CORRECTED'] as const;
const SNIPPET_CHARS = 1500;

/** Python slices strings by code point, not by UTF-16 unit. */
const firstCodePoints = (s: string, n: number) => Array.from(s).slice(0, n).join('');

/**
 * The organization's latest corrections of a layout (few-shot examples for the next extraction of
 * it), served by the (org_id, layout_fingerprint, created_at) index, and the prompt hint Python
 * would have built.
 */
export async function fewShotExamples(em: EntityManager, orgId: string, fingerprint: string, limit: number): Promise<FewShotExamples> {
  checkFingerprint('layoutFingerprint', fingerprint);
  const n = checkLimit(limit, 3);
  const latest = sql
    .selectFrom('feedback')
    .select(['id', raw<string | null>`meta->>'input_snippet'`.as('snippet'), 'after', 'created_at'])
    .where('org_id', '=', orgId)
    .where('layout_fingerprint', '=', fingerprint)
    .where(
      'event_type',
      'in',
      FEW_SHOT_EVENT_TYPES.map((t) => raw.lit(t)),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(n);
  const rows = await runRows(em, latest);
  const examples = rows.map((r) =>
    Object.assign(new FewShotExample(), {
      feedbackId: r.id,
      inputSnippet: firstCodePoints(r.snippet ?? '', SNIPPET_CHARS),
      output: r.after,
      createdAt: new Date(r.created_at),
    }),
  );
  const hintExamplesJson = examples.length === 0 ? '' : pyDumps(examples.map((e) => ({ input_snippet: e.inputSnippet, output: e.output })));
  return Object.assign(new FewShotExamples(), { examples, hintExamplesJson });
}
