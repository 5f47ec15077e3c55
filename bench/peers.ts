// The peer comparison (`npm run bench -- --only peers`): our server against PostGraphile v5 on the same
// PostgreSQL and the same seeded data, our server on this process's Node.js and on a second runtime
// (by default the Node.js 24 binary PostGraphile runs on), three reads with equivalent GraphQL
// documents whose answers are compared first, measured in alternating rounds.
import { execFileSync } from 'node:child_process';
import { LIMITS } from '../src/core/limits';
import { BackendCpu } from './db-cpu';
import { difference } from './answers';
import { startChild, type Child } from './children';
import { measureAlternating, once, type Target } from './load';
import { createPeerSchema, dropPeerSchema, installPeer, type PeerInstall } from './peer-setup';
import type { PeerAgreement, PeerRow, PeersResult } from './peer-report';
import { scenarios, type BenchData } from './scenarios';

export const PEERS_ID = 'peers';

interface PeerScenario {
  title: string;
  /** our server's document: the scenario of bench/scenarios.ts with this id, or its own text */
  ours: string;
  /** PostGraphile's document asking for the same data, aliased to our field names */
  postgraphile: string;
  variables(d: BenchData, i: number): Record<string, unknown>;
}

const oursOf = (id: string) => scenarios.find((s) => s.id === id)!.query;
const pick = <T>(xs: T[], i: number): T => xs[i % xs.length];

/**
 * The context lists as our loaders answer them by default: the newest LIMITS.subListDefault, oldest
 * first (`last` over an ascending order in PostGraphile's connections).
 */
const LAST = LIMITS.subListDefault;
const POSTGRAPHILE_CONTEXT = `id: rowId agentId title createdAt canvasActionCount feedbackCount aggregateFeedbackScore
  canvasContext: canvasAuditsByEpisodeId(orderBy: [CREATED_AT_ASC, ROW_ID_ASC], last: ${LAST}) { nodes { id: rowId canvasType action createdAt } }
  feedbackContext: feedbacksByEpisodeId(orderBy: [CREATED_AT_ASC, ROW_ID_ASC], last: ${LAST}) { nodes { id: rowId feedbackType score createdAt } }
  segments: episodeSegmentsByEpisodeId(orderBy: SEQ_ASC, last: ${LAST}) { nodes { id: rowId seq role content tokenEstimate } }`;

export const PEER_SCENARIOS: PeerScenario[] = [
  {
    title: '1 episodes(first: 20) + canvasContext, feedbackContext, segments',
    ours: oursOf('episodes'),
    // our page's order: newest first, ties by id
    postgraphile: `query Peer1($first: Int) { episodes: allEpisodes(first: $first, orderBy: [CREATED_AT_DESC, ROW_ID_DESC]) {
      edges { cursor node { ${POSTGRAPHILE_CONTEXT} } } pageInfo { hasNextPage endCursor } } }`,
    variables: () => ({ first: 20 }),
  },
  {
    title: '2 episode(id) + the same context',
    ours: oursOf('episode'),
    postgraphile: `query Peer2($id: UUID!) { episode: episodeByRowId(rowId: $id) { ${POSTGRAPHILE_CONTEXT} } }`,
    variables: (d, i) => ({ id: pick(d.episodeIds, i) }),
  },
  {
    title: '15 { __typename }',
    ours: `{ __typename }`,
    postgraphile: `{ __typename }`,
    variables: () => ({}),
  },
];

const TIMESTAMP = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d(?::?\d\d)?)$/;

/**
 * A timestamp in one spelling: UTC, to the millisecond (our server writes JavaScript's ISO form,
 * milliseconds truncated from PostgreSQL's microseconds; PostGraphile writes PostgreSQL's text).
 */
function canonicalTime(text: string): string | null {
  const m = TIMESTAMP.exec(text);
  if (!m) return null;
  const zone = m[4] === 'Z' ? 'Z' : m[4].length === 3 ? `${m[4]}:00` : m[4].replace(/^([+-]\d\d)(\d\d)$/, '$1:$2');
  const seconds = Date.parse(`${m[1]}T${m[2]}${zone}`);
  if (Number.isNaN(seconds)) return null;
  return `${new Date(seconds).toISOString().slice(0, 19)}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
}

/**
 * An answer in the form both servers' answers are compared in: a connection's `{ nodes }` as its
 * list, cursors (opaque, each server its own) left out, timestamps in one spelling.
 */
export function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalize);
  if (typeof v === 'string') return canonicalTime(v) ?? v;
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && keys[0] === 'nodes') return normalize(o.nodes);
  const out: Record<string, unknown> = {};
  for (const k of keys) if (k !== 'cursor' && k !== 'endCursor') out[k] = normalize(o[k]);
  return out;
}

/** One server of the comparison. */
interface Server {
  /** 'us' or 'postgraphile' */
  name: string;
  runtime: string;
  child: Child;
  db: BackendCpu | null;
  headers: Record<string, string>;
  /** which document it answers */
  side: 'ours' | 'postgraphile';
}

const label = (s: Server) => `${s.name} ${s.runtime}`;

const fetchData = async (url: string, headers: Record<string, string>, body: string) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return (await res.json()) as { data?: unknown; errors?: unknown };
};

async function compare(
  ours: Server,
  peer: Server,
  s: PeerScenario,
  data: BenchData,
  url: (s: Server) => string,
  requests = 5,
): Promise<PeerAgreement> {
  let same = 0;
  let firstDifference: string | null = null;
  for (let i = 0; i < requests; i++) {
    const variables = s.variables(data, i);
    const a = normalize((await fetchData(url(ours), ours.headers, JSON.stringify({ query: s.ours, variables }))).data);
    const b = normalize((await fetchData(url(peer), peer.headers, JSON.stringify({ query: s.postgraphile, variables }))).data);
    // both ways round: difference() reads the keys of its second argument
    const d = difference(a, b, false) ?? difference(b, a, false);
    if (d === null && a != null) same += 1;
    else firstDifference ??= `request ${i}: ${d ?? 'no data'}`;
  }
  return { requests, same, firstDifference };
}

export interface PeerOptions {
  databaseUrl: string;
  orgId: string;
  token: string;
  /** our server's environment, as the other scenarios start it */
  env: Record<string, string>;
  poolMax: string;
  data: BenchData;
  load: { connections: number; warmup: number; duration: number };
  /** the second runtime of our server: '24' (the binary installed for PostGraphile), a path, or 'none' */
  node: string;
  log: (line: string) => void;
}

async function startServers(o: PeerOptions, peer: PeerInstall): Promise<Server[]> {
  const servers: Server[] = [];
  const runtimes = [{ runtime: process.version, execPath: process.execPath }];
  if (o.node !== 'none') {
    const execPath = o.node === '24' ? peer.node : o.node;
    const runtime = execPath === peer.node ? peer.nodeVersion : execFileSync(execPath, ['--version'], { encoding: 'utf8' }).trim();
    // the rows and answers are told apart by runtime
    if (runtime === process.version) throw new Error(`--node ${o.node} is the benchmark's own Node.js ${runtime}: choose another or none`);
    runtimes.push({ runtime, execPath });
  }
  try {
    for (const [k, r] of runtimes.entries()) {
      const app = `bench-us-${k}`;
      const child = await startChild(
        `us-${r.runtime}`,
        'graphql-server',
        { ...o.env, MIGRATE_ON_START: 'false', PGAPPNAME: app },
        { execPath: r.execPath },
      );
      servers.push({
        name: 'us',
        runtime: r.runtime,
        child,
        db: await BackendCpu.open(o.databaseUrl, app),
        headers: { authorization: `Bearer ${o.token}` },
        side: 'ours',
      });
    }
    const child = await startChild(
      'postgraphile',
      'postgraphile',
      { PEER_DATABASE_URL: o.databaseUrl, PEER_POOL_MAX: o.poolMax, PGAPPNAME: 'bench-postgraphile', NODE_ENV: 'production' },
      { file: peer.server, execPath: peer.node, nodeFlags: [] },
    );
    servers.push({
      name: 'postgraphile',
      runtime: peer.nodeVersion,
      child,
      db: await BackendCpu.open(o.databaseUrl, 'bench-postgraphile'),
      headers: {},
      side: 'postgraphile',
    });
    return servers;
  } catch (err) {
    await stopServers(servers);
    throw err;
  }
}

async function stopServers(servers: Server[]): Promise<void> {
  for (const s of servers) {
    await s.child.stop();
    await s.db?.close();
  }
}

async function runScenario(s: PeerScenario, servers: Server[], o: PeerOptions): Promise<PeerRow> {
  const url = (v: Server) => `http://127.0.0.1:${v.child.port}/graphql`;
  const targets: Target[] = servers.map((v) => ({
    name: label(v),
    url: url(v),
    headers: v.headers,
    body: (i: number) => JSON.stringify({ query: v.side === 'ours' ? s.ours : s.postgraphile, variables: s.variables(o.data, i) }),
    stats: async () => ({ ...(await v.child.stats()), ...(v.db ? { dbCpuMs: await v.db.read() } : {}) }),
  }));
  const row: PeerRow = { scenario: s.title, connections: o.load.connections, answers: {}, results: [] };
  for (const t of targets) {
    const check = await once(t, t.body!(0));
    if (!check.ok) return { ...row, skipped: `${t.name} answered with an error: ${check.text.slice(0, 300)}` };
  }
  const peer = servers.find((v) => v.side === 'postgraphile')!;
  for (const v of servers) if (v.side === 'ours') row.answers[v.runtime] = await compare(v, peer, s, o.data, url);
  // each target sends its own document (Target.body)
  const measured = await measureAlternating(targets, targets[0].body!, o.load);
  servers.forEach((v, k) => row.results.push({ server: v.name, runtime: v.runtime, load: measured[targets[k].name]! }));
  return row;
}

/** Installs the peer (when needed), runs the three scenarios and stops its servers; a string says why it could not. */
export async function runPeers(o: PeerOptions): Promise<PeersResult | string> {
  const peer = installPeer(o.log);
  if (typeof peer === 'string') return `skipped: ${peer}`;
  await createPeerSchema(o.databaseUrl, o.orgId);
  const servers = await startServers(o, peer);
  const rows: PeerRow[] = [];
  try {
    for (const s of PEER_SCENARIOS) {
      o.log(`peers: ${s.title}`);
      rows.push(await runScenario(s, servers, o));
    }
  } finally {
    await stopServers(servers);
    await dropPeerSchema(o.databaseUrl);
  }
  return {
    postgraphile: peer.postgraphileVersion,
    scope: 'views of the benchmark organization (org_id = a constant) in a schema of the benchmark database',
    rows,
  };
}
