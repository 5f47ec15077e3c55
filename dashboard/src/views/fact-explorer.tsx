import { useState } from 'preact/hooks';
import { ChartBox } from '../chart';
import { num, when } from '../format';
import {
  DashFactBanksDocument,
  DashFactDocument,
  DashFactSearchDocument,
  type FactFilter,
  type FactOrder,
  type FactStatus,
} from '../generated/graphql';
import { useQuery } from '../hooks';
import type { ViewProps } from '../access';
import { FactHistory } from './fact-history';
import { Status } from './status';

const PAGE = 25;

interface Search {
  bankId: string;
  text: string;
  kind: string;
  status: '' | FactStatus;
  min: string;
  max: string;
  orderBy: FactOrder;
}

// the search as it was left, for the way back from a fact's page
let kept: { search: Search; cursors: (string | null)[] } = {
  search: { bankId: '', text: '', kind: '', status: '', min: '', max: '', orderBy: 'NEWEST' },
  cursors: [null],
};

function filterOf(s: Search): FactFilter {
  const f: FactFilter = {};
  // a bank typed that holds no fact is the API's NOT_FOUND, shown in place, rather than an empty page
  if (s.bankId.trim()) Object.assign(f, { bankId: s.bankId.trim(), requireBank: true });
  // what the person typed goes to the API as typed: an empty search box means no text condition
  if (s.text !== '') f.text = s.text;
  if (s.kind.trim()) f.kind = s.kind.trim();
  if (s.status) f.statuses = [s.status];
  if (s.min !== '') f.minUsefulness = Number(s.min);
  if (s.max !== '') f.maxUsefulness = Number(s.max);
  return f;
}

/** Banks with their fact counts, and a search of their facts, page by page (keyset cursors). */
export function FactExplorer({ apiKey }: ViewProps) {
  const banks = useQuery(apiKey, DashFactBanksDocument, {});
  const [search, setSearch] = useState<Search>(kept.search);
  const [draft, setDraft] = useState<Search>(kept.search);
  const [cursors, setCursors] = useState<(string | null)[]>(kept.cursors);
  kept = { search, cursors };
  const after = cursors[cursors.length - 1];
  const q = useQuery(apiKey, DashFactSearchDocument, { filter: filterOf(search), first: PAGE, after, orderBy: search.orderBy });
  const apply = (s: Search) => {
    setSearch(s);
    setDraft(s);
    setCursors([null]);
  };
  const set = (k: keyof Search) => (e: Event) => setDraft({ ...draft, [k]: (e.currentTarget as HTMLInputElement).value });
  const page = q.data?.facts;
  return (
    <div data-testid="fact-explorer">
      <h3>Banks</h3>
      <Status q={banks} />
      {banks.data && banks.data.factBanks.length === 0 && <p class="empty">No facts yet.</p>}
      {banks.data && banks.data.factBanks.length > 0 && (
        <div class="banks" data-testid="fact-banks">
          <button type="button" class={search.bankId === '' ? 'bank active' : 'bank'} onClick={() => apply({ ...draft, bankId: '' })}>
            all banks
          </button>
          {banks.data.factBanks.map((b) => (
            <button
              type="button"
              data-bank={b.bankId}
              data-count={b.facts}
              class={search.bankId === b.bankId ? 'bank active' : 'bank'}
              title={`newest fact ${when(b.lastFactAt)}`}
              onClick={() => apply({ ...draft, bankId: b.bankId })}
            >
              {b.bankId} <span class="count">{b.facts.toLocaleString('en')}</span>
            </button>
          ))}
        </div>
      )}
      <form
        class="filters"
        data-testid="fact-search"
        onSubmit={(e) => {
          e.preventDefault();
          apply(draft);
        }}
      >
        <input name="bankId" value={draft.bankId} onInput={set('bankId')} placeholder="bank" size={14} list="fact-bank-ids" />
        <datalist id="fact-bank-ids">
          {banks.data?.factBanks.map((b) => (
            <option value={b.bankId} />
          ))}
        </datalist>
        <input name="text" value={draft.text} onInput={set('text')} placeholder="words in the fact" size={30} />
        <input name="kind" value={draft.kind} onInput={set('kind')} placeholder="kind" size={10} />
        <select name="status" onChange={set('status')} title="status">
          <option value="">any status</option>
          {(['SUGGESTED', 'CONFIRMED', 'REJECTED'] as const).map((s) => (
            <option value={s} selected={draft.status === s}>
              {s.toLowerCase()}
            </option>
          ))}
        </select>
        <label>
          usefulness{' '}
          <input name="min" value={draft.min} onInput={set('min')} type="number" step="0.05" placeholder="min" style="width: 5em" />
          –<input name="max" value={draft.max} onInput={set('max')} type="number" step="0.05" placeholder="max" style="width: 5em" />
        </label>
        <select name="orderBy" onChange={set('orderBy')} title="order">
          <option value="NEWEST" selected={draft.orderBy === 'NEWEST'}>
            newest first
          </option>
          <option value="MOST_USEFUL" selected={draft.orderBy === 'MOST_USEFUL'}>
            most useful first
          </option>
        </select>
        <button type="submit">Search</button>
      </form>
      <Status q={q} />
      {page && page.edges.length === 0 && (
        <p class="empty">{search.bankId ? `No fact of bank “${search.bankId}” matches.` : 'No fact matches.'}</p>
      )}
      {page && page.edges.length > 0 && (
        <table data-testid="fact-results">
          <thead>
            <tr>
              <th>fact</th>
              <th>bank</th>
              <th>kind</th>
              <th>status</th>
              <th>usefulness</th>
              <th>signals</th>
              <th>created (UTC)</th>
            </tr>
          </thead>
          <tbody>
            {page.edges.map(({ node: f }) => (
              <tr key={f.id} data-fact-id={f.id}>
                <td class="text">
                  <a href={`#/facts/${f.id}`}>{f.text || '(empty)'}</a>
                </td>
                <td>{f.bankId}</td>
                <td>{f.kind ?? '–'}</td>
                <td>{f.status.toLowerCase()}</td>
                <td class="n" data-field="usefulness">
                  {num(f.usefulness)}
                </td>
                <td class="n">{f.signalCount}</td>
                <td>{when(f.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page && (
        <div class="pager">
          <button type="button" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
            ← Previous
          </button>
          <span>page {cursors.length}</span>
          <button
            type="button"
            data-testid="facts-next"
            disabled={!page.pageInfo.hasNextPage}
            onClick={() => setCursors([...cursors, page.pageInfo.endCursor ?? null])}
          >
            Next →
          </button>
        </div>
      )}
    </div>
  );
}

/** One fact: its fields, its usefulness after each signal, its query contexts and its signals. */
export function FactDetail({ apiKey, id }: ViewProps & { id: string }) {
  const q = useQuery(apiKey, DashFactDocument, { id });
  const f = q.data?.fact;
  return (
    <section data-testid="fact-detail">
      <p>
        <a href="#/facts">← Facts</a>
      </p>
      <Status q={q} />
      {q.data && !f && <p class="error">No fact with this id in this organization.</p>}
      {f && (
        <>
          <h2 class="text">{f.text || '(empty)'}</h2>
          <dl class="facts-grid">
            <dt>bank</dt>
            <dd>{f.bankId}</dd>
            <dt>kind</dt>
            <dd>{f.kind ?? '–'}</dd>
            <dt>status</dt>
            <dd data-field="status">{f.status.toLowerCase()}</dd>
            {f.value !== null && (
              <>
                <dt>value</dt>
                <dd data-field="value">
                  {f.scope ? `${f.scope} / ` : ''}
                  {f.key ? `${f.key} → ` : ''}
                  {f.value}
                </dd>
              </>
            )}
            {f.externalId && (
              <>
                <dt>external id</dt>
                <dd>{f.externalId}</dd>
              </>
            )}
            <dt>usefulness</dt>
            <dd data-field="usefulness">
              {num(f.usefulness, 3)} ({f.signalCount} signals, the last {when(f.lastSignalAt)})
            </dd>
            <dt>confidence</dt>
            <dd>
              {num(f.confidence)} ({f.supportCount} confirmations)
            </dd>
            <dt>created / changed / used</dt>
            <dd>
              {when(f.createdAt)} / {when(f.updatedAt)} / {when(f.lastUsedAt)}
            </dd>
          </dl>
          <ChartBox
            id="fact-usefulness"
            title="Usefulness after each signal"
            kind="line"
            labels={f.signalHistory.map((s) => when(s.createdAt))}
            series={[{ label: 'usefulness', data: f.signalHistory.map((s) => s.usefulnessAfter) }]}
            xLabel="signal (UTC)"
            yLabel="usefulness (0–1)"
            empty="No signals yet: the fact keeps its starting usefulness until one arrives."
          />
          <FactHistory apiKey={apiKey} id={f.id} />
          <h3>Query contexts</h3>
          {f.queryContexts.length === 0 ? (
            <p class="empty">No query context yet.</p>
          ) : (
            <table data-testid="fact-contexts">
              <thead>
                <tr>
                  <th>query</th>
                  <th>usefulness</th>
                  <th>signals</th>
                  <th>last signal (UTC)</th>
                  <th>matched by</th>
                </tr>
              </thead>
              <tbody>
                {f.queryContexts.map((c) => (
                  <tr>
                    <td class="text">{c.query}</td>
                    <td class="n">{num(c.usefulness, 3)}</td>
                    <td class="n">{c.signalCount}</td>
                    <td>{when(c.lastSignalAt)}</td>
                    <td>{c.embedded ? 'embedding' : 'text'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h3>Signals</h3>
          {f.signalHistory.length === 0 ? (
            <p class="empty">No signals yet.</p>
          ) : (
            <table data-testid="fact-signals">
              <thead>
                <tr>
                  <th>when (UTC)</th>
                  <th>signal</th>
                  <th>confidence</th>
                  <th>delta</th>
                  <th>usefulness after</th>
                  <th>query</th>
                  <th>why</th>
                  <th>source</th>
                </tr>
              </thead>
              <tbody>
                {f.signalHistory.map((s) => (
                  <tr key={s.id}>
                    <td>{when(s.createdAt)}</td>
                    <td>{s.signalType}</td>
                    <td class="n">{num(s.confidence)}</td>
                    <td class="n">{num(s.delta, 3)}</td>
                    <td class="n">{num(s.usefulnessAfter, 3)}</td>
                    <td class="text">{s.query}</td>
                    <td class="text">{s.context ?? '–'}</td>
                    <td>
                      {s.source ? `${s.source.toLowerCase()}${s.episodeId ? ` · episode ${s.episodeId.slice(0, 8)}` : ''}` : 'caller'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
