import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** `url` with its host and port pointing at the proxy */
  url: string;
  /** drops every open connection and refuses new ones, as a database that went down */
  cut(): Promise<void>;
  /** accepts connections again on the same port, as the database coming back */
  restore(): Promise<void>;
  close(): Promise<void>;
  /** bytes relayed from the database to its clients since the proxy started */
  readonly received: number;
}

/** A TCP relay in front of the server of a `postgres://` URL: a real network path that a test can cut. */
export async function tcpProxy(url: string): Promise<TcpProxy> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  let received = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        upstream.on('data', (chunk: Buffer) => (received += chunk.length));
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });
  await listen();
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  return {
    url: proxied.toString(),
    cut: stop,
    restore: listen,
    close: stop,
    get received() {
      return received;
    },
  };
}
