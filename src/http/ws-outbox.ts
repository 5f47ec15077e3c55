import type { ExecutionResult } from 'graphql';
import type { WebSocket } from 'ws';

/**
 * Close code of a socket whose client fell behind: more than WS_MAX_BUFFERED_BYTES of results were
 * waiting to be sent to it. An application code (4000-4999) outside graphql-ws's own 44xx codes,
 * so that its clients reconnect as after any other close they do not know.
 */
const CLOSE_TOO_SLOW = 4008;

/** Bytes of a result as it will be sent, counted once per result (a shared stream hands one result to many sockets). */
const sizes = new WeakMap<ExecutionResult, number>();
export function resultBytes(result: ExecutionResult): number {
  let n = sizes.get(result);
  if (n === undefined) sizes.set(result, (n = JSON.stringify(result).length));
  return n;
}

/** What a subscription stream of one socket is told about the socket's room (./subscription-hub.ts). */
export interface Outbox {
  /** counts `bytes` of a result queued for the socket; false when the socket is too far behind (it is being closed) */
  reserve(bytes: number): boolean;
  /** the queued result was handed to the socket to send */
  release(bytes: number): void;
  /**
   * `end` is called when the stream must end early: with nothing more when the socket is closed for
   * falling behind (the queue is emptied), or after a last result (the key's role changed)
   */
  onEnd(end: (last?: ExecutionResult) => void): () => void;
}

/**
 * The bytes waiting for one socket: results queued for it by shared streams, plus what the socket
 * has been handed but not yet written (`bufferedAmount`). A socket may always take one message
 * when nothing waits; past `max`, it is closed with CLOSE_TOO_SLOW and what waits for it is
 * dropped at once, so a client that stops reading costs the server at most about `max` bytes
 * (and one message per subscription already being written).
 */
export class SocketOutbox implements Outbox {
  private queued = 0;
  private closed = false;
  private readonly ends = new Set<(last?: ExecutionResult) => void>();

  constructor(
    private readonly socket: WebSocket,
    private readonly max: number,
  ) {
    // every frame graphql-ws sends passes here; a frame refused once the socket is closing is dropped
    const send = socket.send.bind(socket);
    socket.send = ((data: string | Buffer, ...rest: unknown[]) => {
      const done = rest.find((r): r is (err?: Error) => void => typeof r === 'function');
      const bytes = typeof data === 'string' ? data.length : data.byteLength;
      if (this.closed || !this.admits(bytes)) return done?.();
      (send as (...a: unknown[]) => void)(data, ...rest);
    }) as WebSocket['send'];
  }

  /** bytes queued for the socket and not yet written by it */
  get pending(): number {
    return this.queued + this.socket.bufferedAmount;
  }

  reserve(bytes: number): boolean {
    if (this.closed || !this.admits(bytes)) return false;
    this.queued += bytes;
    return true;
  }

  release(bytes: number): void {
    this.queued = Math.max(0, this.queued - bytes);
  }

  onEnd(end: (last?: ExecutionResult) => void): () => void {
    this.ends.add(end);
    return () => this.ends.delete(end);
  }

  /** Ends every shared stream of the socket after `last` (the socket stays open for new operations). */
  endStreams(last: ExecutionResult): void {
    for (const end of [...this.ends]) end(last);
  }

  private admits(bytes: number): boolean {
    const pending = this.pending;
    if (pending === 0 || pending + bytes <= this.max) return true;
    this.closed = true;
    for (const end of [...this.ends]) end();
    this.ends.clear();
    this.queued = 0;
    // the close frame waits behind what the socket holds; ws drops the connection if the client
    // does not answer it within its close timeout
    this.socket.close(CLOSE_TOO_SLOW, `the client fell behind: over ${this.max} bytes waited to be sent (WS_MAX_BUFFERED_BYTES)`);
    return false;
  }
}
