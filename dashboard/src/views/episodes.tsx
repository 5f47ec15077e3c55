import { useState } from 'preact/hooks';
import { DashEpisodeDocument, DashEpisodesDocument, type EpisodeFilter } from '../generated/graphql';
import { json, num, TIME_RANGES, when, yesNo } from '../format';
import { useQuery } from '../hooks';
import type { ViewProps } from '../access';
import { Status } from './status';
import { TraceCard, useTraces } from './traces';

const PAGE = 20;
const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return (typeof v === 'string' ? v.trim() : '') || undefined;
};
const number = (form: FormData, name: string) => (text(form, name) === undefined ? undefined : Number(text(form, name)));
const instant = (form: FormData, name: string) => (text(form, name) ? new Date(`${text(form, name)}Z`).toISOString() : undefined);

function readFilter(form: FormData): EpisodeFilter {
  const accepted = text(form, 'accepted');
  const f: EpisodeFilter = {
    agentId: text(form, 'agentId'),
    sessionId: text(form, 'sessionId'),
    topic: text(form, 'topic'),
    canvasType: text(form, 'canvasType'),
    accepted: accepted === undefined ? undefined : accepted === 'true',
    minFeedbackScore: number(form, 'minScore'),
    maxFeedbackScore: number(form, 'maxScore'),
    timeRange: text(form, 'timeRange'),
    createdAfter: instant(form, 'after'),
    createdBefore: instant(form, 'before'),
  };
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined));
}

// the list as it was left, for the way back from an episode's detail
let kept: { filter: EpisodeFilter; cursors: (string | null)[] } = { filter: {}, cursors: [null] };
const typedValue = (v: string | null | undefined) => (v ? v.slice(0, 16) : undefined);

export function EpisodesView({ apiKey }: ViewProps) {
  const [filter, setFilter] = useState<EpisodeFilter>(kept.filter);
  // keyset paging: the cursors of the pages before this one
  const [cursors, setCursors] = useState<(string | null)[]>(kept.cursors);
  kept = { filter, cursors };
  const after = cursors[cursors.length - 1];
  const q = useQuery(apiKey, DashEpisodesDocument, { filter, first: PAGE, after });
  const apply = (e: Event) => {
    e.preventDefault();
    setFilter(readFilter(new FormData(e.currentTarget as HTMLFormElement)));
    setCursors([null]);
  };
  const page = q.data?.episodes;
  return (
    <section>
      <h2>Episodes</h2>
      <form class="filters" onSubmit={apply} data-testid="episode-filters">
        <input name="agentId" defaultValue={filter.agentId ?? undefined} placeholder="agent" />
        <input name="sessionId" defaultValue={filter.sessionId ?? undefined} placeholder="session" />
        <input name="topic" defaultValue={filter.topic ?? undefined} placeholder="topic" />
        <input name="canvasType" defaultValue={filter.canvasType ?? undefined} placeholder="canvas type" />
        <select name="accepted" title="judged">
          <option value="">accepted: any</option>
          <option value="true" selected={filter.accepted === true}>
            accepted
          </option>
          <option value="false" selected={filter.accepted === false}>
            rejected
          </option>
        </select>
        <input
          name="minScore"
          defaultValue={filter.minFeedbackScore ?? undefined}
          type="number"
          step="0.05"
          min="0"
          max="1"
          placeholder="min feedback score"
        />
        <input
          name="maxScore"
          defaultValue={filter.maxFeedbackScore ?? undefined}
          type="number"
          step="0.05"
          min="0"
          max="1"
          placeholder="max feedback score"
        />
        <select name="timeRange" title="time range">
          <option value="">any time</option>
          {TIME_RANGES.map(([value, label]) => (
            <option value={value} selected={filter.timeRange === value}>
              {label}
            </option>
          ))}
        </select>
        <label>
          from <input name="after" type="datetime-local" defaultValue={typedValue(filter.createdAfter)} />
        </label>
        <label>
          to <input name="before" type="datetime-local" defaultValue={typedValue(filter.createdBefore)} />
        </label>
        <button type="submit">Apply</button>
      </form>
      <Status q={q} />
      {page && page.edges.length === 0 && <p class="empty">No episode matches these filters.</p>}
      {page && page.edges.length > 0 && (
        <table data-testid="episodes-table">
          <thead>
            <tr>
              <th>created (UTC)</th>
              <th>title</th>
              <th>agent</th>
              <th>session</th>
              <th>topic</th>
              <th>accepted</th>
              <th>overall score</th>
              <th>feedback score</th>
              <th>feedback</th>
              <th>decay</th>
            </tr>
          </thead>
          <tbody>
            {page.edges.map(({ node: e }) => (
              <tr key={e.id} data-episode-id={e.id}>
                <td>{when(e.createdAt)}</td>
                <td>
                  <a href={`#/episodes/${e.id}`}>{e.title ?? e.id.slice(0, 8)}</a>
                </td>
                <td>{e.agentId}</td>
                <td>{e.sessionId ?? '–'}</td>
                <td>{e.topic ?? '–'}</td>
                <td>{yesNo(e.accepted)}</td>
                <td class="n">{num(e.overallScore)}</td>
                <td class="n" data-field="aggregateFeedbackScore">
                  {num(e.aggregateFeedbackScore)}
                </td>
                <td class="n" data-field="feedbackCount">
                  {e.feedbackCount}
                </td>
                <td class="n" data-field="decayScore">
                  {num(e.decayScore, 3)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="pager">
        <button type="button" disabled={cursors.length < 2} onClick={() => setCursors(cursors.slice(0, -1))}>
          ← Previous
        </button>
        <span>page {cursors.length}</span>
        <button
          type="button"
          data-testid="next-page"
          disabled={!page?.pageInfo.hasNextPage}
          onClick={() => setCursors([...cursors, page!.pageInfo.endCursor ?? null])}
        >
          Next →
        </button>
      </div>
    </section>
  );
}

export function EpisodeDetail({ apiKey, id }: ViewProps & { id: string }) {
  const q = useQuery(apiKey, DashEpisodeDocument, { id });
  const traces = useTraces(apiKey, id);
  const e = q.data?.episode;
  const traced = traces.data?.episode?.memoryTrace ?? [];
  const feedback = e?.feedbackContext ?? [];
  const turns = new Set(e?.segments.map((s) => s.seq) ?? []);
  const untied = traced.filter((t) => t.seq == null || !turns.has(t.seq));
  if (q.data && !e) return <p class="empty">No episode {id} in this organization.</p>;
  const verdicts = e?.feedbackContext.filter((f) => f.feedbackType === 'JUDGEMENT') ?? [];
  return (
    <section data-testid="episode-detail">
      <p>
        <a href="#/episodes">← Episodes</a>
      </p>
      <Status q={q} />
      {e && (
        <>
          <h2>{e.title ?? e.id}</h2>
          <dl class="facts-grid">
            <dt>agent</dt>
            <dd>{e.agentId}</dd>
            <dt>session</dt>
            <dd>{e.sessionId ?? '–'}</dd>
            <dt>topic</dt>
            <dd>{e.topic ?? '–'}</dd>
            <dt>task</dt>
            <dd>{e.task ?? '–'}</dd>
            <dt>created</dt>
            <dd>{when(e.createdAt)}</dd>
            <dt>accepted</dt>
            <dd>{yesNo(e.accepted)}</dd>
            <dt>overall score</dt>
            <dd data-field="overallScore">{num(e.overallScore)}</dd>
            <dt>feedback score</dt>
            <dd data-field="aggregateFeedbackScore">{num(e.aggregateFeedbackScore)}</dd>
            <dt>decay score</dt>
            <dd data-field="decayScore">{num(e.decayScore, 3)}</dd>
          </dl>
          <h3>Segments ({e.segments.length})</h3>
          <ol class="segments" data-testid="segments">
            {e.segments.map((s) => (
              <li key={s.id} data-role={s.role} data-seq={s.seq}>
                <b>{s.role}</b>{' '}
                <span class="hint">
                  #{s.seq} · {s.tokenEstimate} tokens
                </span>
                <pre>{s.content}</pre>
                {traced
                  .filter((t) => t.seq === s.seq)
                  .map((t) => (
                    <TraceCard key={t.id} t={t} feedback={feedback} />
                  ))}
              </li>
            ))}
          </ol>
          {traces.error && <p class="error">Memory traces: {traces.error}</p>}
          {traces.data && (
            <>
              <h3>Memory traces not tied to a turn ({untied.length})</h3>
              <div data-testid="untied-traces">
                {untied.length === 0 ? (
                  <p class="empty">
                    {traced.length === 0 ? 'No retrieval was traced for this episode.' : 'Every trace is shown beside its turn.'}
                  </p>
                ) : (
                  untied.map((t) => <TraceCard key={t.id} t={t} feedback={feedback} />)
                )}
              </div>
            </>
          )}
          <h3>Outputs ({e.outputs.length})</h3>
          <ul data-testid="outputs">
            {e.outputs.map((o) => (
              <li key={o.id}>
                <b>{o.kind}</b> quality {num(o.qualityScore)} · round {o.regenerationRound}
                <pre>{json(o.content)}</pre>
              </li>
            ))}
          </ul>
          <h3>Linked facts ({e.facts.length})</h3>
          <ul data-testid="facts">
            {e.facts.map((f) => (
              <li key={f.id}>
                {f.text}{' '}
                <span class="hint">
                  ({f.status}, usefulness {num(f.usefulness)})
                </span>
              </li>
            ))}
          </ul>
          <h3>Canvas timeline ({e.canvasContext.length})</h3>
          <ol data-testid="canvas-timeline">
            {e.canvasContext.map((c) => (
              <li key={c.id}>
                {when(c.createdAt)} <b>{c.action}</b> {c.canvasType}
                {c.componentType ? ` / ${c.componentType}` : ''}
              </li>
            ))}
          </ol>
          <h3>Judge verdicts ({verdicts.length})</h3>
          <ul data-testid="verdicts">
            {verdicts.map((v) => (
              <li key={v.id}>
                {yesNo(v.accepted)} · score {num(v.score)} · {v.reason ?? ''}
              </li>
            ))}
          </ul>
          <h3>Feedback ({e.feedbackContext.length})</h3>
          <table data-testid="episode-feedback">
            <tbody>
              {e.feedbackContext.map((f) => (
                <tr key={f.id}>
                  <td>{when(f.createdAt)}</td>
                  <td>{f.feedbackType}</td>
                  <td class="n">{num(f.score)}</td>
                  <td class="text">{f.corrections ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
