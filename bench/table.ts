// The benchmark tables of the docs, generated from the results files they cite, so a table cannot
// say something its file does not. A table sits between two marker comments that name its files:
//
//   <!-- bench-table kind=load files=2026-11-22T21-59-34.json only=0,1,2 -->
//   ...generated...
//   <!-- /bench-table -->
//
// kind=load: GraphQL against the raw baseline, one row per scenario. kind=latency: each scenario
// with its one-connection variant beside it. kind=fanout: feedbackAdded fan-out per transport.
// kind=noisy: the quiet organization's latency beside a flooding key. kind=quality: evidence recall
// of each recall strategy on the evaluation conversations. kind=semantic: recall and writes with the
// server's embedding model beside what the model does alone, and the server's memory. kind=peers: our
// server on each runtime against PostGraphile.
// kind=learning: the learning curve's precision@1 per round, credit on and off, and what traces and credit cost.
// `only` keeps the scenarios whose number (the first word of the name) is listed.
// `npm run bench:table` rewrites the tables; `npm run bench:table -- --check` only compares.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FanOutResult } from './fanout';
import type { NoisyResult } from './noisy';
import { qualityTable, type QualityResult } from './quality-score';
import { peersTable, type PeersResult } from './peer-report';
import type { Row } from './report';
import type { SemanticResult } from './semantic';
import { type CurveResult, learningTable } from './learning-svg';

export interface Results {
  args: { connections: number };
  plan?: { facts: number; embeddingDim: number };
  scenarios: Row[];
  fanOut?: Record<string, FanOutResult | string>;
  noisyTenant?: NoisyResult;
  /** the quality scenario's scores, or why it was skipped */
  quality?: QualityResult | string;
  semantic?: SemanticResult;
  /** the peer comparison, or why it was skipped */
  peers?: PeersResult | string;
  /** the learning-curve scenario's curve and costs */
  learningCurve?: CurveResult;
}

const root = join(__dirname, __dirname.includes('/dist/') ? '../..' : '..');
export const DOCUMENTS = ['README.md', 'docs/benchmarks.md', 'docs/operations.md'];
const MARKER = /(<!-- bench-table ([^>]*?) -->\n)([\s\S]*?)(<!-- \/bench-table -->)/g;

const fixed = (n: number | null | undefined, d: number) => (n == null || !Number.isFinite(n) ? '-' : n.toFixed(d));
/** Statements per request: one decimal, none when whole. */
const perRequest = (n: number | null | undefined) => (n == null ? '-' : String(Math.round(n * 10) / 10));
/** Latencies: whole milliseconds as they are, averaged ones to a tenth. */
const ms = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
const numberOf = (scenario: string) => scenario.split(' ')[0];
const isOneConnection = (r: Row) => r.connections === 1 || /, 1 connection$/.test(r.scenario);

const agreement = (s: Row) =>
  s.answers ? `${s.answers.same}/${s.answers.requests}${s.answers.compared === 'shape' ? ' (shape)' : ''}` : '-';

function loadTable(r: Results): string[] {
  // runs that compared the two servers' answers say how many agreed
  const compared = r.scenarios.some((s) => s.answers);
  const lines = [
    `| scenario | GraphQL req/s | raw req/s | ratio | GraphQL p50 / p99 ms | raw p50 / p99 ms | p99 ratio | SQL/req GraphQL / raw | CPU ms/req GraphQL / raw |${compared ? ' same answers |' : ''}`,
    `|---|---:|---:|---:|---:|---:|---:|---:|---:|${compared ? '---:|' : ''}`,
  ];
  for (const s of r.scenarios) {
    const g = s.graphql;
    if (!g) continue;
    const w = s.raw;
    lines.push(
      `| ${s.scenario} | ${fixed(g.rps, 0)} | ${fixed(w?.rps, 0)} | ${w ? `${fixed(g.rps / w.rps, 2)}x` : '-'} | ${ms(g.p50)} / ${ms(g.p99)} | ${w ? `${ms(w.p50)} / ${ms(w.p99)}` : '-'} | ${w ? `${fixed(g.p99 / Math.max(w.p99, 1), 2)}x` : '-'} | ${perRequest(g.statementsPerRequest)} / ${perRequest(w?.statementsPerRequest)} | ${fixed(g.cpuMsPerRequest, 2)} / ${fixed(w?.cpuMsPerRequest, 2)} |${compared ? ` ${agreement(s)} |` : ''}`,
    );
  }
  return lines;
}

function latencyTable(runs: { file: string; r: Results }[]): string[] {
  const many = runs.length > 1;
  const lines = [
    `|${many ? ' results |' : ''} scenario | req/s (raw) | p50 / p99 ms | p50 / p99 ms, 1 connection | CPU ms/req | SQL/req |`,
    `|${many ? '---|' : ''}---|---:|---:|---:|---:|---:|`,
  ];
  const banks = new Set(runs.map(({ r }) => `${r.plan?.facts} x ${r.plan?.embeddingDim}`));
  for (const { file, r } of runs) {
    const bank = banks.size > 1 && r.plan ? `, ${r.plan.facts.toLocaleString('en-US')} facts x ${r.plan.embeddingDim}` : '';
    r.scenarios.forEach((s, i) => {
      const g = s.graphql;
      if (!g || isOneConnection(s)) return;
      const next = r.scenarios[i + 1];
      const one = next && isOneConnection(next) ? next.graphql : undefined;
      const connections = s.connections ?? r.args.connections;
      lines.push(
        `|${many ? ` ${file.replace(/\.json$/, '')} |` : ''} ${s.scenario}${bank}, ${connections} connections | ${fixed(g.rps, 0)}${s.raw ? ` (${fixed(s.raw.rps, 0)})` : ''} | ${ms(g.p50)} / ${ms(g.p99)} | ${one ? `${ms(one.p50)} / ${ms(one.p99)}` : '-'} | ${fixed(g.cpuMsPerRequest, 2)} | ${perRequest(g.statementsPerRequest)} |`,
      );
    });
  }
  return lines;
}

function fanOutTable(runs: { file: string; r: Results }[]): string[] {
  const lines = [
    '| transport | subscribers, writers, events | response to last delivery p50 / p99 ms | request to last delivery p50 / p99 ms | missed |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const { r } of runs) {
    for (const [transport, v] of Object.entries(r.fanOut ?? {})) {
      if (typeof v === 'string') continue;
      lines.push(
        `| ${transport === 'redis' ? 'through Redis, 2 instances' : 'in-process'} | ${v.subscribers}, ${v.writers ?? 1}, ${v.events} | ${fixed(v.p50, 0)} / ${fixed(v.p99, 0)} | ${fixed(v.fromRequest?.p50, 0)} / ${fixed(v.fromRequest?.p99, 0)} | ${v.missed} |`,
      );
    }
  }
  return lines;
}

function noisyTable(runs: { file: string; r: Results }[]): string[] {
  const lines = [
    "| quiet organization's page, while | p50 / p99 ms | p99 vs idle | heavy key: sent / served / refused |",
    '|---|---:|---:|---:|',
  ];
  for (const { r } of runs) {
    const n = r.noisyTenant;
    if (!n) continue;
    const vsIdle = (p99: number) => `${fixed(p99 / Math.max(n.idle.p99, 1), 2)}x`;
    lines.push(`| nothing else runs | ${ms(n.idle.p50)} / ${ms(n.idle.p99)} | ${vsIdle(n.idle.p99)} | - |`);
    for (const b of n.beside)
      lines.push(
        `| the heavy key sends ${b.sends}, budgets ${b.budgets} | ${ms(b.p50)} / ${ms(b.p99)} | ${vsIdle(b.p99)} | ${b.heavy.requests} / ${b.heavy.served} / ${b.heavy.refused} |`,
      );
  }
  return lines;
}

/** The semantic scenarios: each load, the model alone, the writes and the reads beside them, the memory. */
function semanticTable(m: SemanticResult): string[] {
  const lines = ['| measurement | req/s (or texts/s) | p50 / p99 ms | CPU ms/req | SQL/req |', '|---|---:|---:|---:|---:|'];
  for (const s of m.rows) {
    const g = s.graphql!;
    lines.push(
      `| ${s.scenario} | ${fixed(g.rps, 1)} | ${ms(g.p50)} / ${ms(g.p99)} | ${fixed(g.cpuMsPerRequest, 2)} | ${perRequest(g.statementsPerRequest)} |`,
    );
  }
  const a = m.modelAlone;
  lines.push(`| model alone, one query at a time | ${fixed(a.oneAtATime.qps, 1)} | ${fixed(a.oneAtATime.p50, 1)} / - | - | - |`);
  lines.push(`| model alone, 10 queries in flight | ${fixed(a.tenInFlight.qps, 1)} | - | - | - |`);
  lines.push(`| model alone, calls of 500 texts (texts/s) | ${fixed(a.batch500.textsPerSecond, 1)} | - | - | - |`);
  const w = m.writes;
  if (w) {
    lines.push(`| upsertFacts, batches of 500 texts (facts/s) | ${fixed(w.factsPerSecond, 1)} | - | - | - |`);
    for (const [name, r] of [
      ['another organization HYBRID recall, 1 connection, idle', w.idle],
      ['the same during the writes', w.during],
    ] as const)
      lines.push(
        `| ${name} | ${fixed(r.rps, 1)} | ${ms(r.p50)} / ${ms(r.p99)} | ${fixed(r.cpuMsPerRequest, 2)} | ${perRequest(r.statementsPerRequest)} |`,
      );
  }
  const rss = m.rssMb;
  lines.push(
    `| server RSS MB: model loaded / index holding ${m.facts} x ${m.dim} (${fixed(m.indexMb, 0)} MB) / end / peak | ${[rss.modelLoaded, rss.indexHeld, rss.end, rss.peak].map((x) => x ?? '-').join(' / ')} | - | - | - |`,
  );
  return lines;
}

/** The table a marker's parameters describe, from the results files in bench/results. */
export function renderTable(params: string, read: (file: string) => Results = readResults): string {
  const p = Object.fromEntries(
    params
      .trim()
      .split(/\s+/)
      .map((kv) => kv.split('=') as [string, string]),
  );
  if (!p.files) throw new Error(`bench-table without files: ${params}`);
  const only = p.only ? new Set(p.only.split(',')) : null;
  const runs = p.files.split(',').map((file) => {
    const r = read(file);
    return {
      file,
      r: {
        ...r,
        scenarios: (r.scenarios ?? []).filter(
          (s) => !only || only.has(numberOf(s.scenario)) || only.has(numberOf(s.scenario).replace(/b$/, '')),
        ),
      },
    };
  });
  const kind = p.kind ?? 'load';
  if (kind === 'load') return runs.flatMap(({ r }) => loadTable(r)).join('\n');
  if (kind === 'latency') return latencyTable(runs).join('\n');
  if (kind === 'fanout') return fanOutTable(runs).join('\n');
  if (kind === 'noisy') return noisyTable(runs).join('\n');
  if (kind === 'semantic')
    return runs.flatMap(({ file, r }) => (r.semantic ? semanticTable(r.semantic) : [`(${file}: no semantic run)`])).join('\n');
  if (kind === 'quality')
    return runs
      .flatMap(({ file, r }) => (typeof r.quality === 'object' ? qualityTable(r.quality) : [`(${file}: no quality scores)`]))
      .join('\n');
  if (kind === 'peers')
    return runs
      .flatMap(({ file, r }) => (typeof r.peers === 'object' ? peersTable(r.peers) : [`(${file}: no peer comparison)`]))
      .join('\n');
  if (kind === 'learning')
    return runs.flatMap(({ file, r }) => (r.learningCurve ? learningTable(r.learningCurve) : [`(${file}: no learning curve)`])).join('\n');
  throw new Error(`unknown bench-table kind ${kind}`);
}

export function readResults(file: string): Results {
  return JSON.parse(readFileSync(join(root, 'bench/results', file), 'utf8')) as Results;
}

/** The document with every marked table generated anew. */
export function renderDocument(text: string, read: (file: string) => Results = readResults): string {
  return text.replace(
    MARKER,
    (_all, open: string, params: string, _old: string, close: string) => `${open}${renderTable(params, read)}\n${close}`,
  );
}

if (require.main === module) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const doc of DOCUMENTS) {
    const path = join(root, doc);
    const text = readFileSync(path, 'utf8');
    const fresh = renderDocument(text);
    if (fresh === text) continue;
    stale += 1;
    if (check) process.stderr.write(`${doc}: benchmark tables differ from their results files (npm run bench:table)\n`);
    else {
      writeFileSync(path, fresh);
      process.stderr.write(`${doc}: benchmark tables rewritten\n`);
    }
  }
  process.exitCode = check && stale ? 1 : 0;
}
