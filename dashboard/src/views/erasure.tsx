// Erasure (ADMIN): erase everything about a subject (an agent, a session, a bank, or a metadata key
// and value). A dry run comes first and shows what would go, kind by kind; only then can the same
// selector be erased. The audit log (`erasures`) lists every run, dry runs included.
import { useState } from 'preact/hooks';
import { request } from '../api';
import { when } from '../format';
import { DashErasuresDocument, DashEraseSubjectDocument, type DashEraseSubjectMutation, type ErasureSelector } from '../generated/graphql';
import { useQuery } from '../hooks';
import type { ViewProps } from '../access';
import { Status } from './status';

const FIELDS: [keyof ErasureSelector, string][] = [
  ['agentId', 'agent'],
  ['sessionId', 'session'],
  ['bankId', 'bank'],
  ['metadataKey', 'metadata key'],
  ['metadataValue', 'metadata value'],
];
const LOG_PAGE = 20;

type Result = DashEraseSubjectMutation['eraseSubject'];

/** the selector as typed, without the empty fields (the API refuses a selector without any) */
const selectorOf = (draft: Record<string, string>): ErasureSelector =>
  Object.fromEntries(Object.entries(draft).filter(([, v]) => v.trim() !== ''));

function Counts({ r, testId }: { r: Result; testId: string }) {
  return (
    <table data-testid={testId} data-total={r.total} data-dry-run={String(r.dryRun)}>
      <thead>
        <tr>
          <th>kind</th>
          <th>{r.dryRun ? 'would delete' : 'deleted'}</th>
        </tr>
      </thead>
      <tbody>
        {r.counts.map((c) => (
          <tr key={c.kind} data-kind={c.kind} data-count={c.count}>
            <td>{c.kind}</td>
            <td class="n">{c.count}</td>
          </tr>
        ))}
        <tr>
          <th>total</th>
          <th class="n">{r.total}</th>
        </tr>
      </tbody>
    </table>
  );
}

export function ErasureView({ apiKey }: ViewProps) {
  const [draft, setDraft] = useState<Record<string, string>>({});
  // the dry run of exactly this selector (erasing is offered only after it)
  const [preview, setPreview] = useState<{ key: string; result: Result } | null>(null);
  const [done, setDone] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const log = useQuery(apiKey, DashErasuresDocument, { first: LOG_PAGE, after: cursors[cursors.length - 1] });
  const selector = selectorOf(draft);
  const key = JSON.stringify(selector);
  const run = async (dryRun: boolean) => {
    setError(null);
    setBusy(true);
    try {
      const { eraseSubject } = await request(apiKey, DashEraseSubjectDocument, { selector, dryRun });
      if (dryRun) {
        setPreview({ key, result: eraseSubject });
        setDone(null);
      } else {
        setPreview(null);
        setDone(eraseSubject);
      }
      setCursors([null]);
      log.reload();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const previewed = preview && preview.key === key ? preview.result : null;
  const page = log.data?.erasures;
  return (
    <section data-testid="erasure">
      <h2>Erasure</h2>
      <p class="hint">
        Erases everything about a subject: episodes with their turns, outputs, feedback and canvas actions, facts with their history,
        signals and query contexts, and the credit they earned. Every field given must match.
      </p>
      <form
        class="filters"
        data-testid="erasure-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run(true);
        }}
      >
        {FIELDS.map(([name, label]) => (
          <input
            name={name}
            placeholder={label}
            value={draft[name] ?? ''}
            onInput={(e) => setDraft({ ...draft, [name]: e.currentTarget.value })}
          />
        ))}
        <button type="submit" data-testid="erasure-dry-run" disabled={busy}>
          Dry run
        </button>
        <button
          type="button"
          data-testid="erasure-erase"
          class="danger"
          disabled={busy || !previewed}
          title={previewed ? 'erase what the dry run counted' : 'run a dry run of this selector first'}
          onClick={() => void run(false)}
        >
          Erase
        </button>
      </form>
      {error && (
        <p class="error" role="alert" data-testid="erasure-error">
          {error}
        </p>
      )}
      {previewed && (
        <>
          <p>{previewed.total === 0 ? 'Nothing matches this selector.' : `A dry run: ${previewed.total} rows would be deleted.`}</p>
          <Counts r={previewed} testId="erasure-preview" />
        </>
      )}
      {done && (
        <>
          <p>{done.total === 0 ? 'Nothing was left to erase.' : `Erased ${done.total} rows.`}</p>
          <Counts r={done} testId="erasure-done" />
        </>
      )}
      <h3>Audit log</h3>
      <Status q={log} />
      {page && page.edges.length === 0 && <p class="empty">No erasure yet.</p>}
      {page && page.edges.length > 0 && (
        <table data-testid="erasure-log">
          <thead>
            <tr>
              <th>when (UTC)</th>
              <th>operation</th>
              <th>dry run</th>
              <th>selector</th>
              <th>rows</th>
              <th>key</th>
            </tr>
          </thead>
          <tbody>
            {page.edges.map(({ node: r }) => (
              <tr key={r.id} data-erasure-id={r.id} data-dry-run={String(r.dryRun)} data-total={r.total}>
                <td>{when(r.createdAt)}</td>
                <td>{r.operation}</td>
                <td>{r.dryRun ? 'yes' : 'no'}</td>
                <td class="text">
                  {[
                    ...FIELDS.filter(([f]) => r.selector[f]).map(([f, label]) => `${label} ${r.selector[f]}`),
                    r.selector.ids ? `${r.selector.ids} ids` : '',
                    r.selector.externalIds ? `${r.selector.externalIds} external ids` : '',
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </td>
                <td class="n" title={r.counts.map((c) => `${c.kind} ${c.count}`).join(', ')}>
                  {r.total}
                </td>
                <td>{r.apiKeyId ?? '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="pager">
        <button type="button" disabled={cursors.length < 2} onClick={() => setCursors(cursors.slice(0, -1))}>
          ← Newer
        </button>
        <button
          type="button"
          disabled={!page?.pageInfo.hasNextPage}
          onClick={() => setCursors([...cursors, page!.pageInfo.endCursor ?? null])}
        >
          Older →
        </button>
      </div>
    </section>
  );
}
