import { createClient, type Client } from 'graphql-ws';
import { request, wsUrl } from './api';
import {
  DashFeedbackAddedDocument,
  DashRecentFeedbackDocument,
  type DashFeedbackFragment,
  type DashRecentFeedbackQuery,
} from './generated/graphql';
import { bearer } from './session';

export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'refused';

export interface LiveItem {
  feedback: DashFeedbackFragment;
  episodeTitle: string | null;
  /** arrived by re-querying after a reconnect rather than over the stream */
  recovered: boolean;
}

const KEEP = 200;
const PAGE = 50;
const REFUSED = 4403;
/** backoff between reconnects: 250 ms doubling to 5 s, with jitter so a restarted server is not hit at once by every tab */
const retryDelay = (retries: number): number => Math.min(250 * 2 ** retries, 5000) * (0.75 + Math.random() * 0.5);

/**
 * The `feedbackAdded` stream of the signed-in key, newest first. It reconnects by itself; after a
 * reconnect it asks the API for the feedback given since the newest item it had seen, so nothing
 * given while it was away is missing.
 */
export class LiveFeed {
  items: LiveItem[] = [];
  state: ConnectionState = 'connecting';
  reconnects = 0;
  private client: Client;
  private everConnected = false;
  private listeners = new Set<() => void>();
  private stop: () => void;

  constructor(private key: string) {
    this.client = createClient({
      url: wsUrl(),
      lazy: false,
      connectionParams: () => ({ authorization: bearer(key) }),
      retryAttempts: Number.MAX_SAFE_INTEGER,
      shouldRetry: (e) => (e as { code?: number })?.code !== REFUSED,
      retryWait: (retries) => new Promise((r) => setTimeout(r, retryDelay(retries))),
      onNonLazyError: () => this.set('refused'),
      on: {
        connecting: () => this.set(this.everConnected ? 'reconnecting' : 'connecting'),
        connected: () => {
          const again = this.everConnected;
          this.everConnected = true;
          if (again) this.reconnects += 1;
          this.set('live');
          void this.catchUp(again);
        },
        closed: (e) => this.set((e as { code?: number })?.code === REFUSED ? 'refused' : 'reconnecting'),
      },
    });
    this.stop = this.client.subscribe(
      { query: DashFeedbackAddedDocument.toString() },
      {
        next: (r) => {
          const ev = (r.data as { feedbackAdded?: { feedback: DashFeedbackFragment; episode: { title?: string | null } | null } } | null)
            ?.feedbackAdded;
          if (ev) this.add([{ feedback: ev.feedback, episodeTitle: ev.episode?.title ?? null, recovered: false }]);
        },
        error: () => this.set('refused'),
        complete: () => {},
      },
    );
  }

  /** the newest `createdAt` shown, or null before any */
  get lastSeen(): string | null {
    return this.items[0]?.feedback.createdAt ?? null;
  }

  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  close(): void {
    this.stop();
    void this.client.dispose();
  }

  private set(state: ConnectionState): void {
    if (this.state === 'refused') return;
    this.state = state;
    this.emit();
  }

  private emit(): void {
    for (const fn of this.listeners) fn();
  }

  private add(items: LiveItem[]): void {
    const seen = new Set(this.items.map((i) => i.feedback.id));
    const fresh = items.filter((i) => !seen.has(i.feedback.id));
    if (!fresh.length) return;
    this.items = [...fresh, ...this.items]
      .sort((a, b) => (a.feedback.createdAt < b.feedback.createdAt ? 1 : a.feedback.createdAt > b.feedback.createdAt ? -1 : 0))
      .slice(0, KEEP);
    this.emit();
  }

  /**
   * The first connection shows the latest page; a reconnect pages back (newest first) until it
   * reaches feedback older than the newest item seen, so everything given meanwhile is added.
   */
  private async catchUp(recovering: boolean): Promise<void> {
    const since = this.lastSeen;
    const found: DashFeedbackFragment[] = [];
    try {
      let after: string | null | undefined = null;
      for (let page = 0; page * PAGE < KEEP; page++) {
        const { feedback }: DashRecentFeedbackQuery = await request(this.key, DashRecentFeedbackDocument, { first: PAGE, after });
        const rows = feedback.edges.map((e) => e.node);
        found.push(...rows.filter((f) => !since || f.createdAt >= since));
        if (!since || !feedback.pageInfo.hasNextPage || rows.some((f) => f.createdAt < since)) break;
        after = feedback.pageInfo.endCursor;
      }
    } catch {
      // the stream itself still runs; what was found is shown and the next reconnect tries again
    }
    this.add(found.map((feedback) => ({ feedback, episodeTitle: null, recovered: recovering })));
  }
}
