import { num, when } from '../format';
import type { LiveFeed } from '../live';

export function LiveView({ feed }: { feed: LiveFeed }) {
  return (
    <section>
      <h2>Live feedback</h2>
      <p class="hint">
        Newest first. Stream: <span data-testid="live-state">{feed.state}</span>
        {feed.reconnects > 0 && ` (reconnected ${feed.reconnects}×; feedback given meanwhile was fetched again)`}
      </p>
      {feed.items.length === 0 ? (
        <p class="empty">No feedback yet. New feedback appears here the moment it is given.</p>
      ) : (
        <table data-testid="live-table">
          <thead>
            <tr>
              <th>time (UTC)</th>
              <th>episode</th>
              <th>type</th>
              <th>score</th>
              <th>correction</th>
            </tr>
          </thead>
          <tbody>
            {feed.items.map(({ feedback: f, episodeTitle, recovered }) => (
              <tr key={f.id} data-feedback-id={f.id} data-recovered={recovered ? 'true' : undefined}>
                <td>{when(f.createdAt)}</td>
                <td>
                  {f.episodeId ? <a href={`#/episodes/${f.episodeId}`}>{episodeTitle ?? f.episodeId.slice(0, 8)}</a> : (f.agentId ?? '–')}
                </td>
                <td>{f.feedbackType}</td>
                <td class="n">{num(f.score)}</td>
                <td class="text">{f.corrections ?? f.eventType ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
