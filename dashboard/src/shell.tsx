import { useEffect, useState } from 'preact/hooks';
import type { Role } from './generated/graphql';
import { canErase, canSeeLearning } from './access';
import type { LiveFeed } from './live';
import { CanvasView } from './views/canvas';
import { ConsoleView } from './views/console';
import { EpisodeDetail, EpisodesView } from './views/episodes';
import { ErasureView } from './views/erasure';
import { FactDetail } from './views/fact-explorer';
import { FactsView } from './views/facts';
import { LearningView } from './views/learning';
import { LiveView } from './views/live';
import { MemoryView } from './views/memory';
import { RecallView } from './views/recall';

const tabs: { id: string; label: string; visible(role: Role): boolean }[] = [
  { id: 'live', label: 'Live feedback', visible: () => true },
  { id: 'episodes', label: 'Episodes', visible: () => true },
  { id: 'learning', label: 'Learning', visible: canSeeLearning },
  { id: 'facts', label: 'Facts', visible: () => true },
  { id: 'recall', label: 'Recall', visible: () => true },
  { id: 'console', label: 'Console', visible: () => true },
  { id: 'memory', label: 'Memory', visible: () => true },
  { id: 'canvas', label: 'Canvas', visible: () => true },
  { id: 'erasure', label: 'Erasure', visible: canErase },
];

function useHash(): string[] {
  const read = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  const [parts, setParts] = useState(read);
  useEffect(() => {
    const on = () => setParts(read());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return parts;
}

function useFeedState(feed: LiveFeed) {
  const [, setTick] = useState(0);
  useEffect(() => feed.onChange(() => setTick((t) => t + 1)), [feed]);
  return feed;
}

export function Shell(p: {
  apiKey: string;
  viewer: { orgName: string; role: Role; apiKeyName: string };
  feed: LiveFeed;
  onSignOut(): void;
}) {
  const [tab = 'live', arg] = useHash();
  const feed = useFeedState(p.feed);
  const role = p.viewer.role;
  const view = { apiKey: p.apiKey, role };
  const allowed = tabs.find((t) => t.id === tab)?.visible(role) ?? false;
  return (
    <div class="shell">
      <header>
        <strong>memory-loop</strong>
        <span data-testid="org">{p.viewer.orgName}</span>
        <span class="role" data-testid="role">
          {role}
        </span>
        <span class={`conn conn-${feed.state}`} data-testid="connection" data-state={feed.state} title="live feedback stream">
          {feed.state === 'live' ? 'live' : feed.state === 'refused' ? 'stream refused' : `${feed.state}…`}
        </span>
        <button type="button" onClick={() => p.onSignOut()}>
          Sign out
        </button>
      </header>
      <nav>
        {tabs
          .filter((t) => t.visible(role))
          .map((t) => (
            <a href={`#/${t.id}`} class={t.id === tab ? 'active' : ''} data-tab={t.id}>
              {t.label}
            </a>
          ))}
      </nav>
      <main data-view={tab}>
        {!allowed ? (
          <p class="error">This view is not available to the role {role}.</p>
        ) : tab === 'live' ? (
          <LiveView feed={feed} />
        ) : tab === 'episodes' ? (
          arg ? (
            <EpisodeDetail {...view} id={arg} />
          ) : (
            <EpisodesView {...view} />
          )
        ) : tab === 'learning' ? (
          <LearningView {...view} />
        ) : tab === 'facts' ? (
          arg ? (
            <FactDetail {...view} id={arg} />
          ) : (
            <FactsView {...view} />
          )
        ) : tab === 'recall' ? (
          <RecallView {...view} />
        ) : tab === 'console' ? (
          <ConsoleView {...view} />
        ) : tab === 'memory' ? (
          <MemoryView {...view} />
        ) : tab === 'erasure' ? (
          <ErasureView {...view} />
        ) : (
          <CanvasView {...view} />
        )}
      </main>
    </div>
  );
}
