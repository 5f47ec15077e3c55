import type { FanOutResult } from './fanout';
import type { LoadResult } from './load';
import type { Agreement } from './answers';

export interface Row {
  scenario: string;
  /** connections of the load, when not the run's */
  connections?: number;
  /** the GraphQL server's first request of the scenario, ms (includes reading a bank into the recall index) */
  firstRequestMs?: number;
  skipped?: string;
  /** the two servers' answers to the same requests compared */
  answers?: Agreement;
  graphql?: LoadResult;
  raw?: LoadResult;
  graphqlRssMb?: number | null;
  rawRssMb?: number | null;
}

const f = (n: number | null | undefined, d = 1) => (n == null || !Number.isFinite(n) ? '-' : n.toFixed(d));

/** The Markdown table of one run (the README shows the latest). */
export function markdown(r: {
  date: string;
  args: { scale: number; duration: number; connections: number };
  plan?: { facts: number; embeddingDim: number };
  scenarios: Row[];
  recallAt10?: unknown;
  recallIndex?: { vectors: number; mb: number; mbPerMillionVectors: number | null };
  fanOut: Record<string, FanOutResult | string>;
}): string {
  const lines = [
    `Benchmark ${r.date}: scale ${r.args.scale}${r.plan ? ` (${r.plan.facts} facts x ${r.plan.embeddingDim} dimensions)` : ''}, ${r.args.connections} connections, ${r.args.duration} s measured per server and scenario.`,
    '',
    '| scenario | GraphQL req/s | raw req/s | ratio | GraphQL p50 / p99 ms | raw p50 / p99 ms | p99 ratio | SQL/req GraphQL / raw | CPU ms/req GraphQL / raw | peak RSS MB GraphQL / raw | errors | same answers |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const s of r.scenarios) {
    if (s.skipped || !s.graphql) {
      lines.push(`| ${s.scenario} | skipped: ${s.skipped ?? 'no result'} | | | | | | | | | |`);
      continue;
    }
    const g = s.graphql;
    const w: Partial<LoadResult> = s.raw ?? {};
    const scenario =
      s.connections && s.connections !== r.args.connections
        ? `${s.scenario} (${s.connections} connection${s.connections > 1 ? 's' : ''})`
        : s.scenario;
    lines.push(
      `| ${scenario} | ${f(g.rps, 0)} | ${f(w.rps, 0)} | ${w.rps ? `${f(g.rps / w.rps, 2)}x` : '-'} | ${f(g.p50)} / ${f(g.p99)} | ${f(w.p50)} / ${f(w.p99)} | ${w.p99 !== undefined ? `${f(g.p99 / Math.max(w.p99, 1), 2)}x` : '-'} | ${f(g.statementsPerRequest)} / ${f(w.statementsPerRequest)} | ${f(g.cpuMsPerRequest, 2)} / ${f(w.cpuMsPerRequest, 2)} | ${f(s.graphqlRssMb, 0)} / ${f(s.rawRssMb, 0)} | ${g.errors} / ${w.errors ?? '-'} | ${s.answers ? `${s.answers.same}/${s.answers.requests}${s.answers.compared === 'shape' ? ' (shape)' : ''}` : '-'} |`,
    );
  }
  for (const [k, v] of Object.entries(r.fanOut)) {
    lines.push(
      typeof v === 'string'
        ? `| 9 feedbackAdded fan-out (${k}) | ${v} | | | | | | | | | |`
        : `| 9 feedbackAdded fan-out (${k}), ${v.subscribers} subscribers, ${v.events} events, ${v.writers ?? 1} writer(s) | response to last delivery p50 ${f(v.p50)} / p99 ${f(v.p99)} / max ${f(v.max)} ms; request to last delivery p50 ${f(v.fromRequest?.p50)} / p99 ${f(v.fromRequest?.p99)} / max ${f(v.fromRequest?.max)} ms | | | | | | | | | missed ${v.missed} |`,
    );
  }
  if (r.recallIndex?.vectors)
    lines.push(
      '',
      `recall index: ${r.recallIndex.vectors} vectors in ${f(r.recallIndex.mb, 0)} MB (${f(r.recallIndex.mbPerMillionVectors, 0)} MB per million vectors, query contexts included)`,
    );
  if (r.recallAt10 !== undefined)
    lines.push(
      '',
      `recall@10 of scenario 7 against the raw baseline: ${typeof r.recallAt10 === 'string' ? r.recallAt10 : JSON.stringify(r.recallAt10)}`,
    );
  return lines.join('\n');
}
