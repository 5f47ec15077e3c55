import type { MikroORM } from '@mikro-orm/postgresql';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of one server instance (own registry, so several instances can share a process). */
export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'graphql_operations_total',
    help: 'GraphQL operations by name, transport and outcome',
    labelNames: ['operation', 'transport', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'GraphQL operation duration by name',
    labelNames: ['operation', 'transport'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['route', 'status'] as const,
    registers: [this.registry],
  });
  readonly subscriptions = new Gauge({ name: 'graphql_subscriptions_open', help: 'Open GraphQL subscriptions', registers: [this.registry] });
  readonly sockets = new Gauge({ name: 'graphql_websockets_open', help: 'Open graphql-ws connections', registers: [this.registry] });

  constructor(orm: MikroORM) {
    collectDefaultMetrics({ register: this.registry });
    const pool = () => (orm.em.getConnection().getKnex().client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number } }).pool;
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections by state',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const p = pool();
        if (!p) return;
        this.set({ state: 'used' }, p.numUsed());
        this.set({ state: 'free' }, p.numFree());
        this.set({ state: 'pending' }, p.numPendingAcquires());
      },
    });
  }

  observe(operation: string, transport: 'http' | 'ws', seconds: number, ok: boolean): void {
    this.requests.inc({ operation, transport, outcome: ok ? 'ok' : 'error' });
    this.duration.observe({ operation, transport }, seconds);
  }
}
