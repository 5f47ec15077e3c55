import { useState } from 'preact/hooks';
import { ChartBox } from '../chart';
import { num, when } from '../format';
import { DashFactsDocument, type DashFactsQuery } from '../generated/graphql';
import { request } from '../api';
import { useLoad } from '../hooks';
import type { ViewProps } from '../access';
import { Status } from './status';
import { FactExplorer } from './fact-explorer';

type Fact = DashFactsQuery['facts']['edges'][number]['node'];
const BINS = 10;
const PAGE = 100;
const MAX_PAGES = 5;

/** the newest facts, page after page, up to MAX_PAGES pages */
async function loadFacts(key: string) {
  const first = await request(key, DashFactsDocument, { first: PAGE });
  const edges = [...first.facts.edges];
  let info = first.facts.pageInfo;
  for (let i = 1; i < MAX_PAGES && info.hasNextPage; i++) {
    const next = await request(key, DashFactsDocument, { first: PAGE, after: info.endCursor });
    edges.push(...next.facts.edges);
    info = next.facts.pageInfo;
  }
  return { facts: { edges, pageInfo: info }, failedFacts: first.failedFacts };
}

/** counts of facts per usefulness tenth: [0, 0.1), ..., [0.9, 1] */
function usefulnessHistogram(facts: Fact[]): number[] {
  const bins = new Array<number>(BINS).fill(0);
  for (const f of facts) bins[Math.min(BINS - 1, Math.max(0, Math.floor(f.usefulness * BINS)))] += 1;
  return bins;
}

function FactTable({ facts, id }: { facts: Fact[]; id: string }) {
  if (facts.length === 0) return <p class="empty">No fact has usage signals yet.</p>;
  return (
    <table data-testid={id}>
      <thead>
        <tr>
          <th>fact</th>
          <th>status</th>
          <th>usefulness</th>
          <th>signals</th>
          <th>last signal (UTC)</th>
          <th>last used (UTC)</th>
        </tr>
      </thead>
      <tbody>
        {facts.map((f) => (
          <tr key={f.id}>
            <td class="text">{f.text}</td>
            <td>{f.status}</td>
            <td class="n">{num(f.usefulness)}</td>
            <td class="n">{f.signalCount}</td>
            <td>{when(f.lastSignalAt)}</td>
            <td>{when(f.lastUsedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function FactsView(props: ViewProps) {
  return (
    <section>
      <h2>Facts</h2>
      <FactExplorer {...props} />
      <Overview {...props} />
    </section>
  );
}

/** The overview reads the newest 500 facts: only when opened, so the explorer alone answers first. */
function Overview(props: ViewProps) {
  const [open, setOpen] = useState(false);
  return (
    <details data-testid="facts-overview" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Usefulness of the newest facts</summary>
      {open && <FactsOverview {...props} />}
    </details>
  );
}

/** The usefulness of the newest facts at a glance: their distribution, the most and least useful, the failed ones. */
function FactsOverview({ apiKey }: ViewProps) {
  const q = useLoad(() => loadFacts(apiKey), [apiKey]);
  const facts = q.data?.facts.edges.map((e) => e.node) ?? [];
  const signalled = facts.filter((f) => f.signalCount > 0).sort((a, b) => b.usefulness - a.usefulness);
  const bins = usefulnessHistogram(facts);
  return (
    <div>
      <Status q={q} />
      {q.data && (
        <>
          <p class="hint">
            {facts.length} facts{q.data.facts.pageInfo.hasNextPage ? ` (the newest ${PAGE * MAX_PAGES})` : ''}, {signalled.length} with
            usage signals.
          </p>
          <ChartBox
            id="usefulness"
            title="Usefulness distribution"
            kind="bar"
            labels={facts.length ? bins.map((_, i) => `${(i / BINS).toFixed(1)}–${((i + 1) / BINS).toFixed(1)}`) : []}
            series={[{ label: 'facts', data: bins }]}
            xLabel="usefulness"
            yLabel="facts (count)"
            empty="No facts yet."
          />
          <h4>Most useful (with signal history)</h4>
          <FactTable id="most-useful" facts={signalled.slice(0, 10)} />
          <h4>Least useful (with signal history)</h4>
          <FactTable id="least-useful" facts={signalled.slice(-10).reverse()} />
          <h4>Failed facts</h4>
          {q.data.failedFacts.length === 0 ? (
            <p class="empty">No fact was linked to a rejected episode.</p>
          ) : (
            <table data-testid="failed-facts">
              <thead>
                <tr>
                  <th>fact</th>
                  <th>status</th>
                  <th>rejected episodes</th>
                </tr>
              </thead>
              <tbody>
                {q.data.failedFacts.map((f) => (
                  <tr key={f.fact.id}>
                    <td class="text">{f.fact.text}</td>
                    <td>{f.fact.status}</td>
                    <td class="n">{f.rejectedEpisodeCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </div>
  );
}
