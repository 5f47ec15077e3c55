import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { fanOut } from './scenarios';

interface Latency {
  p50: number;
  p99: number;
  max: number;
}

export interface FanOutResult extends Latency {
  subscribers: number;
  events: number;
  /** concurrent writers, each sending its next event once every subscriber has its last one */
  writers: number;
  // p50 / p99 / max: ms from the mutation's HTTP response to the last subscriber's delivery, per
  // event. The server publishes at commit, before it answers, so deliveries can beat the response
  /** ms from sending the mutation to the last subscriber's delivery: commit to delivery plus the write */
  fromRequest: Latency;
  /** subscribers that missed an event (should be 0) */
  missed: number;
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};
const latency = (xs: number[]): Latency => ({ p50: percentile(xs, 50), p99: percentile(xs, 99), max: Math.max(...xs) });

/**
 * Opens `subscribers` graphql-ws clients on `subWsUrl` (each its own socket) subscribed to the hot
 * episode's feedbackAdded, then submits `events` feedback through `mutationUrl` from `writers`
 * concurrent writers (one at a time each) and records, per event, the time from the mutation's
 * request and from its response to the last delivery.
 */
export async function runFanOut(opts: {
  subWsUrl: string;
  mutationUrl: string;
  token: string;
  episodeId: string;
  subscribers: number;
  events: number;
  writers?: number;
}): Promise<FanOutResult> {
  const writers = Math.max(1, opts.writers ?? 1);
  const clients: Client[] = [];
  // feedback id -> [deliveries, time of the last]
  const seen = new Map<string, { n: number; last: number }>();
  const waiting = new Map<string, () => void>();
  const onEvent = (id: string) => {
    const now = performance.now();
    const s = seen.get(id) ?? { n: 0, last: 0 };
    s.n++;
    s.last = now;
    seen.set(id, s);
    if (s.n >= opts.subscribers) waiting.get(id)?.();
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
    const fromResponse: number[] = [];
    const fromRequest: number[] = [];
    let missed = 0;
    let sent = 0;
    const writer = async () => {
      while (sent < opts.events) {
        sent++;
        const requested = performance.now();
        const res = await fetch(opts.mutationUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.token}` },
          body: JSON.stringify({ query: fanOut.mutation, variables: { input: { episodeId: opts.episodeId, feedbackType: 'THUMBS_UP' } } }),
        });
        const responded = performance.now();
        const json: any = await res.json();
        const id = json?.data?.submitFeedback?.feedback?.id as string | undefined;
        if (!id) throw new Error(`submitFeedback failed: ${JSON.stringify(json).slice(0, 300)}`);
        if ((seen.get(id)?.n ?? 0) < opts.subscribers) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            new Promise<void>((resolve) => waiting.set(id, resolve)),
            new Promise<void>((resolve) => (timer = setTimeout(resolve, 10_000))),
          ]);
          clearTimeout(timer);
        }
        waiting.delete(id);
        const s = seen.get(id) ?? { n: 0, last: responded };
        missed += opts.subscribers - s.n;
        fromResponse.push(Math.max(0, s.last - responded));
        fromRequest.push(s.last - requested);
      }
    };
    await Promise.all(Array.from({ length: writers }, writer));
    return {
      subscribers: opts.subscribers,
      events: opts.events,
      writers,
      ...latency(fromResponse),
      fromRequest: latency(fromRequest),
      missed,
    };
  } finally {
    await Promise.all(clients.map(async (c) => c.dispose()));
  }
}
