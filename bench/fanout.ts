import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { fanOut } from './scenarios';

export interface FanOutResult {
  subscribers: number;
  events: number;
  /** ms from the mutation's HTTP response to the last subscriber's delivery, per event */
  p50: number;
  p99: number;
  max: number;
  /** subscribers that missed an event (should be 0) */
  missed: number;
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};

/**
 * Opens `subscribers` graphql-ws clients on `subWsUrl` (each its own socket) subscribed to the hot
 * episode's feedbackAdded, then submits `events` feedback through `mutationUrl` one at a time and
 * records, per event, the time from the mutation's response to the last delivery.
 */
export async function runFanOut(opts: {
  subWsUrl: string;
  mutationUrl: string;
  token: string;
  episodeId: string;
  subscribers: number;
  events: number;
}): Promise<FanOutResult> {
  const clients: Client[] = [];
  // feedback id -> [deliveries, time of the last]
  const seen = new Map<string, { n: number; last: number }>();
  let waiting: { id: string; resolve: () => void } | null = null;
  const onEvent = (id: string) => {
    const now = performance.now();
    const s = seen.get(id) ?? { n: 0, last: 0 };
    s.n++;
    s.last = now;
    seen.set(id, s);
    if (waiting && waiting.id === id && s.n >= opts.subscribers) waiting.resolve();
  };
  try {
    let subscribed = 0;
    await new Promise<void>((resolve, reject) => {
      for (let k = 0; k < opts.subscribers; k++) {
        const client = createClient({
          url: opts.subWsUrl,
          webSocketImpl: WebSocket,
          lazy: false,
          retryAttempts: 0,
          connectionParams: { authorization: `Bearer ${opts.token}` },
          on: { connected: () => ++subscribed === opts.subscribers && setTimeout(resolve, 500) },
        });
        clients.push(client);
        client.subscribe(
          { query: fanOut.subscription, variables: { episodeId: opts.episodeId } },
          { next: (m: any) => m.data && onEvent(m.data.feedbackAdded.feedback.id), error: reject, complete: () => undefined },
        );
      }
      setTimeout(() => reject(new Error(`only ${subscribed} of ${opts.subscribers} subscribers connected`)), 60_000);
    });
    const latencies: number[] = [];
    let missed = 0;
    for (let e = 0; e < opts.events; e++) {
      const res = await fetch(opts.mutationUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.token}` },
        body: JSON.stringify({ query: fanOut.mutation, variables: { input: { episodeId: opts.episodeId, feedbackType: 'THUMBS_UP' } } }),
      });
      const responded = performance.now();
      const json: any = await res.json();
      const id = json?.data?.submitFeedback?.feedback?.id as string | undefined;
      if (!id) throw new Error(`submitFeedback failed: ${JSON.stringify(json).slice(0, 300)}`);
      const done = (seen.get(id)?.n ?? 0) >= opts.subscribers;
      if (!done) {
        await Promise.race([
          new Promise<void>((resolve) => (waiting = { id, resolve })),
          new Promise<void>((resolve) => setTimeout(resolve, 10_000)),
        ]);
      }
      waiting = null;
      const s = seen.get(id) ?? { n: 0, last: responded };
      missed += opts.subscribers - s.n;
      latencies.push(Math.max(0, s.last - responded));
    }
    return { subscribers: opts.subscribers, events: opts.events, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies), missed };
  } finally {
    await Promise.all(clients.map((c) => c.dispose()));
  }
}
