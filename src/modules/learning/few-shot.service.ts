import type { EntityManager } from '@mikro-orm/postgresql';
import { limit as checkLimit } from '../../core/validate';
import { checkFingerprint } from '../shared/layout-fingerprint';
import { FewShotExample, FewShotExamples } from './learning.type';
import { pyDumps } from './python-json';

export const FEW_SHOT_EVENT_TYPES = ['EXTRACTION_LINE_CORRECTED', 'EXTRACTION_FIELD_CORRECTED'];
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
  const rows = await em.execute<{ id: string; snippet: string | null; after: unknown; created_at: Date }[]>(
    `SELECT id, meta->>'input_snippet' AS snippet, after, created_at FROM feedback
      WHERE org_id = ? AND layout_fingerprint = ? AND event_type IN ('EXTRACTION_LINE_CORRECTED', 'EXTRACTION_FIELD_CORRECTED')
      ORDER BY created_at DESC, id DESC LIMIT ?`,
    [orgId, fingerprint, n],
  );
  const examples = rows.map((r) =>
    Object.assign(new FewShotExample(), { feedbackId: r.id, inputSnippet: firstCodePoints(r.snippet ?? '', SNIPPET_CHARS), output: r.after, createdAt: new Date(r.created_at) }),
  );
  const hintExamplesJson = examples.length === 0 ? '' : pyDumps(examples.map((e) => ({ input_snippet: e.inputSnippet, output: e.output })));
  return Object.assign(new FewShotExamples(), { examples, hintExamplesJson });
}
