// What the agent saw, turn by turn: the memory traces of an episode (each traced recall,
// recallEpisodes and memoryContext with what it served) beside the turns they were for, and what
// followed: the feedback on the episode after the read, and the usefulness credit each served fact
// earned from this very trace (its signals whose `traceId` names the trace).
import { num, when } from '../format';
import { type DashFeedbackFragment, DashMemoryTraceDocument, type DashMemoryTraceQuery } from '../generated/graphql';
import { useQuery } from '../hooks';

export type Trace = NonNullable<DashMemoryTraceQuery['episode']>['memoryTrace'][number];
type TraceItem = Trace['items'][number];
type Credit = Trace['credit'][number];

/** The episode's traces, oldest first, each with the credit it earned the facts it served: one request. */
export function useTraces(key: string, episodeId: string) {
  return useQuery(key, DashMemoryTraceDocument, { id: episodeId });
}

const target = (i: TraceItem) =>
  i.factId ? (
    <a href={`#/facts/${i.factId}`}>fact {i.factId.slice(0, 8)}</a>
  ) : i.episodeId ? (
    <a href={`#/episodes/${i.episodeId}`}>episode {i.episodeId.slice(0, 8)}</a>
  ) : i.segmentId ? (
    `turn ${i.segmentId.slice(0, 8)}`
  ) : (
    '–'
  );

const lower = (s: string) => s.toLowerCase().replace('_', ' ');

/**
 * One traced retrieval: what was asked, how, each item served with its scores, whether it was used
 * and the credit it earned from this trace, and the feedback on the episode that came after it.
 */
export function TraceCard({ t, feedback }: { t: Trace; feedback: DashFeedbackFragment[] }) {
  const how = [t.strategy, t.mode, t.budget != null ? `budget ${t.budget}` : null].filter(Boolean).join(' · ');
  const followed = feedback.filter((f) => f.createdAt >= t.createdAt);
  const earned = (i: TraceItem): Credit[] => (i.factId ? t.credit.filter((s) => s.factId === i.factId) : []);
  return (
    <div class="trace" data-testid="memory-trace" data-trace-id={t.id} data-seq={t.seq ?? ''} data-operation={t.operation}>
      <p>
        <b>{lower(t.operation)}</b> {when(t.createdAt)} {how && <span class="hint">{how}</span>}
        {t.query && <span class="text"> “{t.query}”</span>}
      </p>
      {t.items.length === 0 ? (
        <p class="empty">Nothing served.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>#</th>
              <th>served</th>
              <th>zone</th>
              <th>semantic</th>
              <th>lexical</th>
              <th>relevance</th>
              <th>usefulness</th>
              <th>final</th>
              <th>used</th>
              <th>credit</th>
            </tr>
          </thead>
          <tbody>
            {t.items.map((i) => (
              <tr key={i.rank} data-rank={i.rank} data-fact-id={i.factId ?? ''} class={i.used ? 'added' : ''}>
                <td class="n">{i.rank}</td>
                <td>{target(i)}</td>
                <td data-field="zone">{i.zone?.toLowerCase() ?? '–'}</td>
                <td class="n" data-field="semanticScore">
                  {num(i.semanticScore, 4)}
                </td>
                <td class="n" data-field="lexicalScore">
                  {num(i.lexicalScore, 4)}
                </td>
                <td class="n" data-field="relevance">
                  {num(i.relevance, 4)}
                </td>
                <td class="n" data-field="usefulnessScore">
                  {num(i.usefulnessScore, 4)}
                  {i.usefulnessSource ? <span class="hint"> {lower(i.usefulnessSource)}</span> : null}
                </td>
                <td class="n" data-field="finalScore">
                  {num(i.finalScore, 4)}
                </td>
                <td data-field="used">{i.used ? 'yes' : 'no'}</td>
                <td data-field="credit">
                  {earned(i).length === 0
                    ? '–'
                    : earned(i).map((s) => (
                        <span class="credit" key={s.id} data-signal={s.signalType} data-source={s.source ?? ''}>
                          {lower(s.signalType)}{' '}
                          <span class="hint">
                            ({(s.source ?? 'caller').toLowerCase()}, {num(s.delta, 3)})
                          </span>{' '}
                        </span>
                      ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {followed.length > 0 && (
        <ul class="trace-feedback" data-testid="trace-feedback">
          {followed.map((f) => (
            <li key={f.id} data-feedback-id={f.id}>
              then {f.feedbackType.toLowerCase()} {when(f.createdAt)}
              {f.score != null ? ` · score ${num(f.score)}` : ''}
              {f.corrections ? ` · ${f.corrections}` : ''}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
