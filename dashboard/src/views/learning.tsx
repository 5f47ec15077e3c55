import { useState } from 'preact/hooks';
import { ChartBox } from '../chart';
import { json, pct, when } from '../format';
import { DashFewShotDocument, DashLearningDocument } from '../generated/graphql';
import { useQuery } from '../hooks';
import type { ViewProps } from '../access';
import { Status } from './status';

const DAY = 86_400_000;

function FewShot({ apiKey, fingerprint }: { apiKey: string; fingerprint: string }) {
  const q = useQuery(apiKey, DashFewShotDocument, { layoutFingerprint: fingerprint });
  const examples = q.data?.fewShotExamples.examples ?? [];
  return (
    <div data-testid="few-shot">
      <h3>Few-shot examples for {fingerprint}</h3>
      <Status q={q} />
      {q.data && examples.length === 0 && <p class="empty">No examples learned for this layout yet.</p>}
      <ul>
        {examples.map((x) => (
          <li key={x.feedbackId}>
            {when(x.createdAt)}: <code>{x.inputSnippet}</code>
            <pre>{json(x.output)}</pre>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function LearningView({ apiKey }: ViewProps) {
  const [days, setDays] = useState(30);
  // whole days so the variables (and the query) stay the same while the page is open
  const [endDate] = useState(() => new Date(Math.ceil(Date.now() / DAY) * DAY).toISOString());
  const startDate = new Date(Date.parse(endDate) - days * DAY).toISOString();
  const q = useQuery(apiKey, DashLearningDocument, { startDate, endDate });
  const [layout, setLayout] = useState<string | null>(null);
  const a = q.data?.learningAnalytics;
  return (
    <section>
      <h2>Learning</h2>
      <label>
        period{' '}
        <select value={days} onChange={(e) => setDays(Number(e.currentTarget.value))}>
          <option value={7}>last 7 days</option>
          <option value={30}>last 30 days</option>
          <option value={90}>last 90 days</option>
        </select>
      </label>
      <Status q={q} />
      {a && (
        <>
          <div class="charts">
            <ChartBox
              id="events-by-day"
              title="Learning events by day"
              kind="bar"
              labels={a.eventsByDay.map((d) => d.date)}
              series={[{ label: 'events', data: a.eventsByDay.map((d) => d.count) }]}
              xLabel="day (UTC)"
              yLabel="events (count)"
              empty="No learning events in this period."
            />
            <ChartBox
              id="events-by-type"
              title="Learning events by type"
              kind="bar"
              horizontal
              labels={a.eventsByType.map((d) => d.eventType)}
              series={[{ label: 'events', data: a.eventsByType.map((d) => d.count) }]}
              xLabel="event type"
              yLabel="events (count)"
              empty="No learning events in this period."
            />
            <ChartBox
              id="corrected-fields"
              title="Most corrected fields"
              kind="bar"
              horizontal
              labels={a.correctedFields.map((d) => d.field)}
              series={[{ label: 'corrections', data: a.correctedFields.map((d) => d.count) }]}
              xLabel="field"
              yLabel="corrections (count)"
              empty="No field was corrected in this period."
            />
            <ChartBox
              id="confidence-trend"
              title="Extraction confidence"
              kind="line"
              labels={a.confidenceTrend.map((d) => d.date)}
              series={[{ label: 'average confidence', data: a.confidenceTrend.map((d) => d.averageConfidence) }]}
              xLabel="day (UTC)"
              yLabel="average confidence (0–1)"
              empty="No layouts with a confidence were seen in this period."
            />
          </div>
          <h3>Layouts</h3>
          {a.layoutStats.length === 0 ? (
            <p class="empty">No document layouts seen in this period.</p>
          ) : (
            <table data-testid="layouts">
              <thead>
                <tr>
                  <th>fingerprint</th>
                  <th>seen</th>
                  <th>examples</th>
                  <th>correction rate</th>
                  <th>last seen (UTC)</th>
                </tr>
              </thead>
              <tbody>
                {a.layoutStats.map((l) => (
                  <tr key={l.layoutFingerprint}>
                    <td>
                      <button type="button" class="link" onClick={() => setLayout(l.layoutFingerprint)}>
                        {l.layoutFingerprint}
                      </button>
                    </td>
                    <td class="n">{l.seenCount}</td>
                    <td class="n">{l.exampleCount}</td>
                    <td class="n">{pct(l.correctionRate)}</td>
                    <td>{when(l.lastSeenAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {layout && <FewShot apiKey={apiKey} fingerprint={layout} />}
        </>
      )}
    </section>
  );
}
