import type { LoadResult } from './load';

export interface PeerAgreement {
  requests: number;
  same: number;
  firstDifference: string | null;
}

export interface PeerRow {
  scenario: string;
  connections: number;
  /** each of our servers' answers against PostGraphile's, by our server's runtime */
  answers: Record<string, PeerAgreement>;
  /** one per server, in the order they were started (ours first) */
  results: { server: string; runtime: string; load: LoadResult }[];
  skipped?: string;
}

export interface PeersResult {
  postgraphile: string;
  /** how PostGraphile is kept to the benchmark organization's rows */
  scope: string;
  rows: PeerRow[];
}

const fixed = (n: number | null | undefined, d: number) => (n == null || !Number.isFinite(n) ? '-' : n.toFixed(d));
const ms = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
const perRequest = (n: number | null | undefined) => (n == null ? '-' : String(Math.round(n * 10) / 10));
/** Server and PostgreSQL CPU per request together, where both were read. */
const cpuTotal = (l: LoadResult) =>
  l.cpuMsPerRequest == null || l.dbCpuMsPerRequest == null ? null : l.cpuMsPerRequest + l.dbCpuMsPerRequest;

/**
 * The peer comparison as a Markdown table: one line per scenario and server, with our servers'
 * throughput and CPU per request (server + PostgreSQL) as ratios to PostGraphile's.
 */
export function peersTable(r: PeersResult): string[] {
  const lines = [
    `| scenario | server (Node.js) | req/s | p50 / p99 ms | server CPU ms/req | PostgreSQL CPU ms/req | SQL/req | req/s vs PostGraphile | CPU/req vs PostGraphile | same answers |`,
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of r.rows) {
    if (row.skipped) {
      lines.push(`| ${row.scenario} | skipped: ${row.skipped.replaceAll('|', '/')} | | | | | | | | |`);
      continue;
    }
    const peer = row.results.find((x) => x.server === 'postgraphile')?.load;
    for (const { server, runtime, load: l } of row.results) {
      const ours = server !== 'postgraphile';
      const agreed = row.answers[runtime];
      const peerCpu = peer && cpuTotal(peer);
      const cpu = cpuTotal(l);
      lines.push(
        `| ${row.scenario} | ${ours ? 'memory-loop' : `PostGraphile ${r.postgraphile}`} (${runtime.replace(/^v/, '')}) | ${fixed(l.rps, 0)} | ${ms(l.p50)} / ${ms(l.p99)} | ${fixed(l.cpuMsPerRequest, 2)} | ${fixed(l.dbCpuMsPerRequest, 2)} | ${perRequest(l.statementsPerRequest)} | ${ours && peer ? `${fixed(l.rps / peer.rps, 2)}x` : '-'} | ${ours && cpu != null && peerCpu ? `${fixed(cpu / peerCpu, 2)}x` : '-'} | ${ours && agreed ? `${agreed.same}/${agreed.requests}` : '-'} |`,
      );
    }
  }
  return lines;
}
