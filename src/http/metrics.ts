import type { MikroORM } from '@mikro-orm/postgresql';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { largestOrganizations } from '../modules/usage';

/** Operation names past this length, or beyond this many distinct names, are counted as `other`. */
export const OPERATION_LABELS = { maxLength: 64, maxDistinct: 100 } as const;

/** Organizations named on `org_storage_*` (the largest by bytes); the others are summed as `org="other"`. */
const USAGE_LABELS = { maxOrgs: 20 } as const;

/** Prometheus metrics of one server instance (own registry, so several instances can share a process). */
export class Metrics {
  readonly registry = new Registry();
  // operation names are chosen by clients: the label set stays bounded whatever they send
  private readonly operationNames = new Set<string>();
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
  readonly executions = new Counter({
    name: 'graphql_executions_total',
    help: 'GraphQL operations executed over HTTP, by plan: compiled, interpreted (mutations, queries seen for the first time, and queries that do not compile), interpreted_after_error (a compiled query whose answer had errors, run again by graphql-js)',
    labelNames: ['plan'] as const,
    registers: [this.registry],
  });
  readonly subscriptions = new Gauge({
    name: 'graphql_subscriptions_open',
    help: 'Open GraphQL subscriptions',
    registers: [this.registry],
  });
  readonly sockets = new Gauge({ name: 'graphql_websockets_open', help: 'Open graphql-ws connections', registers: [this.registry] });
  readonly budgetRefusals = new Counter({
    name: 'budget_refusals_total',
    help: 'Requests and WebSocket operations refused as over a budget, by whose budget (key, org) and which (requests, points, concurrency)',
    labelNames: ['scope', 'budget'] as const,
    registers: [this.registry],
  });

  constructor(orm: MikroORM) {
    collectDefaultMetrics({ register: this.registry });
    const pool = () =>
      (orm.em.getConnection().getKnex().client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number } }).pool;
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
    this.storageGauges(orm);
  }

  /**
   * Stored rows and bytes per organization, read from org_usage once per scrape (both gauges
   * share the read): the USAGE_LABELS.maxOrgs largest by bytes by id, the rest as `other`.
   */
  private storageGauges(orm: MikroORM): void {
    let read: { at: number; answer: ReturnType<typeof largestOrganizations> } | null = null;
    const usage = () => {
      if (!read || Date.now() - read.at > 1000)
        read = { at: Date.now(), answer: largestOrganizations(orm.em.fork(), USAGE_LABELS.maxOrgs) };
      return read.answer;
    };
    for (const measure of ['rows', 'bytes'] as const) {
      new Gauge({
        name: `org_storage_${measure}`,
        help: `${measure === 'rows' ? 'Rows' : 'Bytes'} of episodes, segments and facts stored, by organization id: the ${USAGE_LABELS.maxOrgs} largest by bytes, the others summed as org="other"`,
        labelNames: ['org'] as const,
        registers: [this.registry],
        async collect() {
          this.reset();
          const { top, rest } = await usage().catch(() => ({ top: [], rest: null }));
          for (const o of top) this.set({ org: o.orgId }, o[measure]);
          if (rest) this.set({ org: 'other' }, rest[measure]);
        },
      });
    }
  }

  /** The label of an operation name: itself while it is short and among the first distinct names seen, else `other`. */
  operationLabel(name: string): string {
    if (this.operationNames.has(name)) return name;
    if (name.length > OPERATION_LABELS.maxLength || this.operationNames.size >= OPERATION_LABELS.maxDistinct) return 'other';
    this.operationNames.add(name);
    return name;
  }

  observe(name: string, transport: 'http' | 'ws', seconds: number, ok: boolean): void {
    const operation = this.operationLabel(name);
    this.requests.inc({ operation, transport, outcome: ok ? 'ok' : 'error' });
    this.duration.observe({ operation, transport }, seconds);
  }
}
