// What the agent saw, turn by turn: the memory traces of an episode (each traced recall,
// recallEpisodes and memoryContext with what it served) beside the turns they were for. A server
// without traces answers the schema check with no `Episode.memoryTrace`, and the episode page then
// shows no traces section at all; the fields asked for are those the server's schema has.
import { request } from '../api';
import { num, when } from '../format';
import { useLoad } from '../hooks';

export interface TraceItem {
  rank: number;
  factId?: string | null;
  episodeId?: string | null;
  segmentId?: string | null;
  zone?: string | null;
  semanticScore?: number | null;
  lexicalScore?: number | null;
  relevance?: number | null;
  usefulnessScore?: number | null;
  usefulnessSource?: string | null;
  finalScore?: number | null;
  used?: boolean | null;
}

export interface Trace {
  id: string;
  operation: string;
  seq?: number | null;
  query?: string | null;
  strategy?: string | null;
  mode?: string | null;
  budget?: number | null;
  createdAt: string;
  items: TraceItem[];
}

const TRACE_FIELDS = ['id', 'operation', 'seq', 'query', 'strategy', 'mode', 'budget', 'createdAt'];
const ITEM_FIELDS = [
  'rank',
  'factId',
  'episodeId',
  'segmentId',
  'zone',
  'semanticScore',
  'lexicalScore',
  'relevance',
  'usefulnessScore',
  'usefulnessSource',
  'finalScore',
  'used',
];

type Fields = { fields: { name: string }[] | null } | null;
const SCHEMA_CHECK = `query DashTraceSchema {
  episode: __type(name: "Episode") { fields { name } }
  trace: __type(name: "MemoryTrace") { fields { name } }
  item: __type(name: "MemoryTraceItem") { fields { name } }
}`;

/** The trace query this server can answer, or null when it keeps no traces (asked once per page load). */
let traceQuery: Promise<string | null> | null = null;
function traceQueryOf(key: string): Promise<string | null> {
  traceQuery ??= request<{ episode: Fields; trace: Fields; item: Fields }, Record<string, never>>(
    key,
    { toString: () => SCHEMA_CHECK },
    {},
  ).then(
    ({ episode, trace, item }) => {
      const has = (t: Fields) => new Set((t?.fields ?? []).map((f) => f.name));
      if (!has(episode).has('memoryTrace') || !trace || !item) return null;
      const traceFields = TRACE_FIELDS.filter((f) => has(trace).has(f));
      const itemFields = ITEM_FIELDS.filter((f) => has(item).has(f));
      return `query DashMemoryTrace($id: ID!) { episode(id: $id) { id memoryTrace { ${traceFields.join(' ')} items { ${itemFields.join(' ')} } } } }`;
    },
    (e: Error) => {
      traceQuery = null; // asked again next time
      throw e;
    },
  );
  return traceQuery;
}

/** The episode's traces, oldest first; `supported` false when the server keeps none. */
export function useTraces(key: string, episodeId: string) {
  return useLoad(async () => {
    const query = await traceQueryOf(key);
    if (!query) return { supported: false, traces: [] as Trace[] };
    const { episode } = await request<{ episode: { memoryTrace: Trace[] } | null }, { id: string }>(
      key,
      { toString: () => query },
      { id: episodeId },
    );
    return { supported: true, traces: episode?.memoryTrace ?? [] };
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

/** One traced retrieval: what was asked, how, and each item served with its scores and whether it was used. */
export function TraceCard({ t }: { t: Trace }) {
  const how = [t.strategy, t.mode, t.budget != null ? `budget ${t.budget}` : null].filter(Boolean).join(' · ');
  return (
    <div class="trace" data-testid="memory-trace" data-trace-id={t.id} data-seq={t.seq ?? ''}>
      <p>
        <b>{t.operation}</b> {when(t.createdAt)} {how && <span class="hint">{how}</span>}
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
            </tr>
          </thead>
          <tbody>
            {t.items.map((i) => (
              <tr key={i.rank} data-rank={i.rank} class={i.used ? 'added' : ''}>
                <td class="n">{i.rank}</td>
                <td>{target(i)}</td>
                <td>{i.zone?.toLowerCase() ?? '–'}</td>
                <td class="n">{num(i.semanticScore, 3)}</td>
                <td class="n">{num(i.lexicalScore, 3)}</td>
                <td class="n">{num(i.relevance, 3)}</td>
                <td class="n">
                  {num(i.usefulnessScore, 3)}
                  {i.usefulnessSource ? <span class="hint"> {i.usefulnessSource.toLowerCase().replace('_', ' ')}</span> : null}
                </td>
                <td class="n">{num(i.finalScore, 3)}</td>
                <td>{i.used == null ? '–' : i.used ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
