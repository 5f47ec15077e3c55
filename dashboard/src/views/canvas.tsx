import { useState } from 'preact/hooks';
import { ChartBox } from '../chart';
import { num, TIME_RANGES } from '../format';
import { DashCanvasDocument, DashEpisodesDocument, type DashCanvasStatsFragment } from '../generated/graphql';
import { useQuery } from '../hooks';
import type { ViewProps } from '../access';
import { Status } from './status';

function StatsTable({ rows, id, byComponent }: { rows: DashCanvasStatsFragment[]; id: string; byComponent: boolean }) {
  if (rows.length === 0) return <p class="empty">No canvas actions in this period.</p>;
  return (
    <table data-testid={id}>
      <thead>
        <tr>
          <th>canvas type</th>
          {byComponent && <th>component</th>}
          <th>presentations</th>
          <th>closes</th>
          <th>submits</th>
          <th>avg engagement (s)</th>
          <th>avg feedback score</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.canvasType}/${r.componentType ?? ''}`}>
            <td>{r.canvasType}</td>
            {byComponent && <td>{r.componentType ?? '–'}</td>}
            <td class="n">{r.presentations}</td>
            <td class="n">{r.closes}</td>
            <td class="n">{r.submits}</td>
            <td class="n">{num(r.avgEngagementSeconds, 1)}</td>
            <td class="n">{num(r.avgFeedbackScore)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function CanvasView({ apiKey }: ViewProps) {
  // the agent of the newest episode until the person picks one
  const newest = useQuery(apiKey, DashEpisodesDocument, { first: 1 });
  const [typed, setTyped] = useState<string | null>(null);
  const [timeRange, setTimeRange] = useState('30d');
  const agentId = typed ?? newest.data?.episodes.edges[0]?.node.agentId ?? null;
  const q = useQuery(apiKey, DashCanvasDocument, { agentId: agentId ?? '', timeRange }, !agentId);
  const c = q.data?.canvasInsights;
  return (
    <section>
      <h2>Canvas</h2>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          const agent = new FormData(e.currentTarget).get('agentId');
          setTyped((typeof agent === 'string' ? agent.trim() : '') || null);
        }}
      >
        <input name="agentId" placeholder="agent" defaultValue={agentId ?? ''} key={agentId ?? ''} />
        <select value={timeRange} onChange={(e) => setTimeRange(e.currentTarget.value)}>
          {TIME_RANGES.map(([value, label]) => (
            <option value={value}>{label}</option>
          ))}
        </select>
        <button type="submit">Show</button>
      </form>
      {!agentId && newest.data && <p class="empty">No episodes yet, so no agent to show.</p>}
      <Status q={q} />
      {c && (
        <>
          <ChartBox
            id="canvas-by-type"
            title={`Canvas actions of ${agentId} by type`}
            kind="bar"
            labels={c.byType.map((t) => t.canvasType)}
            series={[
              { label: 'presentations', data: c.byType.map((t) => t.presentations) },
              { label: 'closes', data: c.byType.map((t) => t.closes) },
              { label: 'submits', data: c.byType.map((t) => t.submits) },
            ]}
            xLabel="canvas type"
            yLabel="actions (count)"
            empty="No canvas actions in this period."
          />
          <h3>By canvas type</h3>
          <StatsTable id="canvas-types" rows={c.byType} byComponent={false} />
          <h3>By component</h3>
          <StatsTable id="canvas-components" rows={c.byComponent} byComponent />
          <p>
            Closed quickly: {c.closesQuickly.join(', ') || '–'} · engaged with: {c.engages.join(', ') || '–'} · submitted:{' '}
            {c.submits.join(', ') || '–'}
          </p>
        </>
      )}
    </section>
  );
}
