import { useState } from 'preact/hooks';
import { request } from '../api';
import { ChartBox } from '../chart';
import { num, pct } from '../format';
import {
  DashForgetPreviewDocument,
  DashMemoryDocument,
  DashTopicTrendDocument,
  type DashForgetPreviewMutation,
} from '../generated/graphql';
import { useQuery } from '../hooks';
import { canForget, type ViewProps } from '../access';
import { Status } from './status';
import { StorageUsagePanel } from './usage';
import { EmbeddingStatusPanel } from './embeddings';

function ForgetPreview({ apiKey }: { apiKey: string }) {
  const [threshold, setThreshold] = useState(0.1);
  const [maxAgeDays, setMaxAgeDays] = useState(90);
  const [result, setResult] = useState<DashForgetPreviewMutation['forgetEpisodes'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      // dryRun: this view never deletes
      setResult(
        (await request(apiKey, DashForgetPreviewDocument, { input: { decayThreshold: threshold, maxAgeDays, dryRun: true } }))
          .forgetEpisodes,
      );
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <div data-testid="forget-preview">
      <h3>Forgetting preview (dry run, ADMIN)</h3>
      <form onSubmit={(e) => void run(e)} class="filters">
        <label>
          decay below{' '}
          <input type="number" step="0.01" min="0" max="1" value={threshold} onInput={(e) => setThreshold(Number(e.currentTarget.value))} />
        </label>
        <label>
          older than (days) <input type="number" min="0" value={maxAgeDays} onInput={(e) => setMaxAgeDays(Number(e.currentTarget.value))} />
        </label>
        <button type="submit">Preview</button>
      </form>
      {error && <p class="error">{error}</p>}
      {result && (
        <p data-testid="forget-result">
          Examined {result.examined}; would forget {result.deleted}; preserved {result.preserved}.
        </p>
      )}
    </div>
  );
}

function TopicTrend({ apiKey, topic }: { apiKey: string; topic: string }) {
  const q = useQuery(apiKey, DashTopicTrendDocument, { topic, days: 30 });
  const points = q.data?.topicTrend ?? [];
  return (
    <>
      <Status q={q} />
      <ChartBox
        id="topic-trend"
        title={`Topic “${topic}”, last 30 days`}
        kind="line"
        labels={points.map((p) => p.date)}
        series={[{ label: 'average score', data: points.map((p) => p.averageScore ?? null) }]}
        xLabel="day (UTC)"
        yLabel="average score (0–1)"
        empty="No episodes of this topic in the last 30 days."
      />
    </>
  );
}

export function MemoryView({ apiKey, role }: ViewProps) {
  const q = useQuery(apiKey, DashMemoryDocument, {});
  const [picked, setPicked] = useState<string | null>(null);
  const topics = q.data?.topicPerformance ?? [];
  const topic = picked ?? topics[0]?.topic ?? null;
  const s = q.data?.memorySummary;
  return (
    <section>
      <h2>Memory</h2>
      <Status q={q} />
      {s && (
        <p data-testid="memory-summary">
          {s.episodes} episodes, {s.segments} segments, {s.facts} facts, {s.feedback} feedback, {s.canvasAudits} canvas actions,{' '}
          {s.layoutProfiles} layouts; average overall score {num(s.averageOverallScore)}, acceptance {pct(s.acceptanceRate)}.
        </p>
      )}
      {q.data && (
        <>
          <ChartBox
            id="topic-performance"
            title="Topic performance"
            kind="bar"
            labels={topics.map((t) => t.topic)}
            series={[
              { label: 'average score', data: topics.map((t) => t.averageScore ?? null) },
              { label: 'acceptance rate', data: topics.map((t) => t.acceptanceRate ?? null) },
            ]}
            xLabel="topic"
            yLabel="score / rate (0–1)"
            empty="No episodes with a topic yet."
          />
          {topics.length > 0 && (
            <table data-testid="topics">
              <thead>
                <tr>
                  <th>topic</th>
                  <th>episodes</th>
                  <th>outputs</th>
                  <th>average score</th>
                  <th>acceptance</th>
                </tr>
              </thead>
              <tbody>
                {topics.map((t) => (
                  <tr key={t.topic} class={t.topic === topic ? 'active' : ''}>
                    <td>
                      <button type="button" class="link" onClick={() => setPicked(t.topic)}>
                        {t.topic}
                      </button>
                    </td>
                    <td class="n">{t.episodes}</td>
                    <td class="n">{t.outputs}</td>
                    <td class="n">{num(t.averageScore)}</td>
                    <td class="n">{pct(t.acceptanceRate)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {topic && <TopicTrend apiKey={apiKey} topic={topic} />}
        </>
      )}
      <StorageUsagePanel apiKey={apiKey} />
      <EmbeddingStatusPanel apiKey={apiKey} />
      {canForget(role) && <ForgetPreview apiKey={apiKey} />}
    </section>
  );
}
