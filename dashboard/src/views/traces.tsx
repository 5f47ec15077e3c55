// What the agent saw, turn by turn: the memory traces of an episode (each traced recall,
// recallEpisodes and memoryContext with what it served) beside the turns they were for, and what
// followed: the feedback on the episode after the read, and the usefulness credit each served fact
// earned from this very trace (its signals whose `traceId` names the trace).
import { request } from '../api';
import { num, when } from '../format';
import {
  DashFactCreditDocument,
  type DashFactCreditQuery,
  type DashFeedbackFragment,
  DashMemoryTraceDocument,
  type DashMemoryTraceQuery,
} from '../generated/graphql';
import { useLoad } from '../hooks';

export type Trace = NonNullable<DashMemoryTraceQuery['episode']>['memoryTrace'][number];
type TraceItem = Trace['items'][number];
type Credit = NonNullable<DashFactCreditQuery['fact']>['signals'][number];

/**
 * The episode's traces, oldest first, and the credit signals of the facts they served (by fact id,
 * only those this episode earned): one query for the traces, then one per distinct served fact.
 */
export function useTraces(key: string, episodeId: string) {
  return useLoad(async () => {
    const { episode } = await request(key, DashMemoryTraceDocument, { id: episodeId });
    const traces = episode?.memoryTrace ?? [];
    const factIds = [...new Set(traces.flatMap((t) => t.items.map((i) => i.factId).filter((id): id is string => !!id)))];
    const facts = await Promise.all(factIds.map((id) => request(key, DashFactCreditDocument, { id })));
    const credit = new Map<string, Credit[]>();
    for (const { fact } of facts)
      if (fact)
        credit.set(
          fact.id,
          fact.signals.filter((s) => s.episodeId === episodeId && s.traceId),
        );
    return { traces, credit };
  }, [key, episodeId]);
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
export function TraceCard({ t, credit, feedback }: { t: Trace; credit: Map<string, Credit[]>; feedback: DashFeedbackFragment[] }) {
  const how = [t.strategy, t.mode, t.budget != null ? `budget ${t.budget}` : null].filter(Boolean).join(' · ');
  const followed = feedback.filter((f) => f.createdAt >= t.createdAt);
  const earned = (i: TraceItem) => (i.factId ? (credit.get(i.factId) ?? []).filter((s) => s.traceId === t.id) : []);
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
