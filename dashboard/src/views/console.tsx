import { useState } from 'preact/hooks';
import { request } from '../api';
import { num, when } from '../format';
import { DashMemoryContextDocument, type DashMemoryContextQuery, type MemoryPolicy } from '../generated/graphql';
import type { ViewProps } from '../access';

type Context = DashMemoryContextQuery['memoryContext'];
type Run = { mode: MemoryPolicy; context: Context };

const MODES: [MemoryPolicy, string][] = [
  ['RECENT', 'the newest turns that fit'],
  ['RELEVANT', 'the turns sharing the most words with the query'],
  ['MIXED', 'half relevant, half recent'],
  ['FOVEATED', '30% earliest, 30% relevant, 40% recent'],
];

const REASONS: Record<string, string> = {
  DID_NOT_FIT: 'did not fit',
  RANKED_BELOW: 'ranked below what fit',
  MERGED_OUT: 'dropped when the zones were merged',
};

// what the console was last asked, for the way back to it
let kept: { agentId: string; sessionId: string; query: string; budget: string; mode: MemoryPolicy } = {
  agentId: '',
  sessionId: '',
  query: '',
  budget: '1000',
  mode: 'FOVEATED',
};

let keptRuns: { run: Run | null; previous: Run | null } = { run: null, previous: null };

function why(l: Context['leftOut'][number]): string {
  const zone = l.zone ? ` (${l.zone.toLowerCase()} zone` : '';
  if (l.reason === 'DID_NOT_FIT') return `${REASONS[l.reason]}${zone}: ${l.tokenEstimate} tokens, ${l.tokensLeft} left)`;
  return `${REASONS[l.reason] ?? l.reason}${zone ? `${zone})` : ''}`;
}

/** Memory Console: run memoryContext for an agent and see what was chosen, from which zone, and what was left out. */
export function ConsoleView({ apiKey }: ViewProps) {
  const [form, setForm] = useState(kept);
  kept = form;
  const [run, setRun] = useState<Run | null>(keptRuns.run);
  const [previous, setPrevious] = useState<Run | null>(keptRuns.previous);
  keptRuns = { run, previous };
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const execute = async (mode: MemoryPolicy) => {
    setBusy(true);
    setError(null);
    try {
      const input = {
        agentId: form.agentId.trim(),
        sessionId: form.sessionId.trim() || undefined,
        query: form.query.trim() ? form.query : undefined,
        tokenBudget: Number(form.budget),
        mode,
      };
      const { memoryContext } = await request(apiKey, DashMemoryContextDocument, { input });
      // the run before is kept for the difference, when it was for the same question
      setPrevious(run);
      setRun({ mode, context: memoryContext });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: Event) => {
    e.preventDefault();
    void execute(form.mode);
  };
  const pickMode = (mode: MemoryPolicy) => {
    setForm({ ...form, mode });
    if (run) void execute(mode);
  };
  const field = (name: 'agentId' | 'sessionId' | 'query' | 'budget') => ({
    name,
    value: form[name],
    onInput: (e: Event) => setForm({ ...form, [name]: (e.currentTarget as HTMLInputElement).value }),
  });

  const c = run?.context;
  const before = previous && run && previous.mode !== run.mode ? new Set(previous.context.entries.map((e) => e.id)) : null;
  const now = new Set(c?.entries.map((e) => e.id) ?? []);
  const dropped = before ? previous!.context.entries.filter((e) => !now.has(e.id)) : [];
  const added = before ? c!.entries.filter((e) => !before.has(e.id)).length : 0;
  const budget = Number(form.budget);

  return (
    <section data-testid="memory-console">
      <h2>Memory Console</h2>
      <p class="hint">
        What memoryContext gives an agent for a question: the memories in prompt order, the zone of the budget each came from, and what was
        left out.
      </p>
      <form class="filters" onSubmit={submit} data-testid="console-form">
        <input {...field('agentId')} placeholder="agent" />
        <input {...field('sessionId')} placeholder="session (optional)" />
        <input {...field('query')} placeholder="query" size={40} />
        <label>
          budget <input {...field('budget')} type="number" style="width: 7em" />
        </label>
        <button type="submit" disabled={busy}>
          Run
        </button>
      </form>
      <div class="modes" role="radiogroup" aria-label="mode" data-testid="console-modes">
        {MODES.map(([mode, label]) => (
          <label title={label} data-mode={mode} class={form.mode === mode ? 'active' : ''}>
            <input type="radio" name="mode" value={mode} checked={form.mode === mode} onChange={() => pickMode(mode)} /> {mode}
          </label>
        ))}
      </div>
      {error && (
        <p class="error" role="alert" data-testid="console-error">
          {error}
        </p>
      )}
      {busy && <p class="loading">Running…</p>}
      {c && (
        <>
          <p data-testid="console-totals" data-tokens={c.tokenEstimate} data-budget={budget}>
            {c.policy}: {c.memoriesSelected} memories selected of {c.candidatesConsidered} candidates considered;{' '}
            <strong>{c.tokenEstimate}</strong> tokens of a budget of {budget} (
            {budget > 0 ? ((100 * c.tokenEstimate) / budget).toFixed(0) : '–'} %).
            {before && (
              <span data-testid="console-diff">
                {' '}
                Against {previous!.mode}: {added} added, {dropped.length} dropped.
              </span>
            )}
          </p>
          <div class="meter" title="tokens used of the budget">
            <div style={`width: ${Math.min(100, budget > 0 ? (100 * c.tokenEstimate) / budget : 0)}%`} />
          </div>
          {c.entries.length === 0 ? (
            <p class="empty">Nothing selected: the agent has no turns here, or none fit the budget.</p>
          ) : (
            <table data-testid="console-entries">
              <thead>
                <tr>
                  <th>#</th>
                  <th>zone</th>
                  <th>when (UTC)</th>
                  <th>role</th>
                  <th>memory</th>
                  <th>tokens</th>
                  <th>relevance</th>
                </tr>
              </thead>
              <tbody>
                {c.entries.map((e, i) => (
                  <tr key={e.id} data-id={e.id} data-zone={e.zone} class={before && !before.has(e.id) ? 'added' : ''}>
                    <td class="n">{i + 1}</td>
                    <td>
                      <span class={`zone zone-${(e.zone ?? '').toLowerCase()}`}>{e.zone?.toLowerCase()}</span>
                      {before && !before.has(e.id) && <span class="tag"> added</span>}
                    </td>
                    <td>{when(e.createdAt)}</td>
                    <td>{e.role}</td>
                    <td class="text">{e.content}</td>
                    <td class="n">{e.tokenEstimate}</td>
                    <td class="n">{num(e.relevance, 3)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {dropped.length > 0 && (
            <>
              <h3>Dropped since {previous!.mode}</h3>
              <table data-testid="console-dropped" class="left-out">
                <tbody>
                  {dropped.map((e) => (
                    <tr key={e.id} data-id={e.id}>
                      <td>{e.zone?.toLowerCase()}</td>
                      <td>{when(e.createdAt)}</td>
                      <td class="text">{e.content}</td>
                      <td class="n">{e.tokenEstimate}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          <h3>
            Left out ({c.candidatesConsidered - c.memoriesSelected}; the first {c.leftOut.length} shown)
          </h3>
          {c.leftOut.length === 0 ? (
            <p class="empty">Every candidate was selected.</p>
          ) : (
            <table data-testid="console-left-out" class="left-out">
              <thead>
                <tr>
                  <th>why</th>
                  <th>when (UTC)</th>
                  <th>role</th>
                  <th>memory</th>
                  <th>tokens</th>
                  <th>relevance</th>
                </tr>
              </thead>
              <tbody>
                {c.leftOut.map((l) => (
                  <tr key={l.id} data-id={l.id} data-reason={l.reason}>
                    <td>{why(l)}</td>
                    <td>{when(l.createdAt)}</td>
                    <td>{l.role}</td>
                    <td class="text">{l.content ?? '(deleted)'}</td>
                    <td class="n">{l.tokenEstimate}</td>
                    <td class="n">{num(l.relevance, 3)}</td>
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
