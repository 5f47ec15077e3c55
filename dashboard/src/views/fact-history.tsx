// A fact's past: its validity, the fact that supersedes it, and its versions (what each write
// changed, when, and by which API key), as `Fact.history` keeps them.
import { when } from '../format';
import { DashFactHistoryDocument, DashFactSuccessorDocument } from '../generated/graphql';
import { useQuery } from '../hooks';
import { Status } from './status';

const validity = (from: string | null | undefined, to: string | null | undefined) =>
  !from && !to ? 'always' : `${from ? when(from) : 'always was'} → ${to ? when(to) : 'still is'}`;

/** Validity, supersession and the versions of one fact. */
export function FactHistory({ apiKey, id }: { apiKey: string; id: string }) {
  const q = useQuery(apiKey, DashFactHistoryDocument, { id });
  const f = q.data?.fact;
  const successorId = f?.supersededById ?? null;
  const next = useQuery(apiKey, DashFactSuccessorDocument, { id: successorId ?? '' }, !successorId);
  const now = new Date().toISOString();
  const expired = !!f?.validTo && f.validTo <= now;
  const pending = !!f?.validFrom && f.validFrom > now;
  return (
    <div data-testid="fact-history">
      <h3>Validity and supersession</h3>
      <Status q={q} />
      {f && (
        <dl class="facts-grid">
          <dt>valid</dt>
          <dd data-field="validity" data-valid-from={f.validFrom ?? ''} data-valid-to={f.validTo ?? ''}>
            {validity(f.validFrom, f.validTo)}
            {expired ? ' (expired: recall leaves it out)' : pending ? ' (not yet valid)' : ''}
          </dd>
          <dt>superseded by</dt>
          <dd data-field="supersededBy" data-id={successorId ?? ''}>
            {successorId ? (
              <>
                <a href={`#/facts/${successorId}`}>{next.data?.fact?.text || `fact ${successorId.slice(0, 8)}`}</a>{' '}
                <span class="hint">(recall and the facts list leave this fact out)</span>
              </>
            ) : (
              'nothing (current)'
            )}
          </dd>
        </dl>
      )}
      <h3>History{f ? ` (${f.history.length} earlier versions)` : ''}</h3>
      {f && f.history.length === 0 && <p class="empty">Never changed since it was written.</p>}
      {f && f.history.length > 0 && (
        <table data-testid="fact-versions">
          <thead>
            <tr>
              <th>from (UTC)</th>
              <th>until (UTC)</th>
              <th>text then</th>
              <th>status</th>
              <th>validity</th>
              <th>superseded by</th>
              <th>changed next</th>
              <th>written by key</th>
              <th>changed by key</th>
            </tr>
          </thead>
          <tbody>
            {f.history.map((v) => (
              <tr key={v.from + v.to} data-from={v.from} data-to={v.to} data-changed={v.changed.join(' ')}>
                <td>{when(v.from)}</td>
                <td>{when(v.to)}</td>
                <td class="text" data-field="text">
                  {v.text}
                  {v.value != null ? <span class="hint"> → {v.value}</span> : null}
                </td>
                <td>{v.status.toLowerCase()}</td>
                <td>{validity(v.validFrom, v.validTo)}</td>
                <td>{v.supersededById ? <a href={`#/facts/${v.supersededById}`}>{v.supersededById.slice(0, 8)}</a> : '–'}</td>
                <td data-field="changed">{v.changed.join(', ')}</td>
                <td data-field="writtenBy">{v.writtenByKeyId ?? 'server'}</td>
                <td data-field="changedBy">{v.changedByKeyId ?? 'server'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
