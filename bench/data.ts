import pg from 'pg';
import type { BenchData } from './scenarios';
import type { SeedResult } from './seed';

/** The ids the scenarios vary over, read back from the seeded database. */
export async function loadBenchData(url: string, seeded: SeedResult): Promise<BenchData> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const eps = await c.query(`SELECT id FROM episodes WHERE org_id = $1 AND agent_id <> $2 ORDER BY md5(id::text) LIMIT 2000`, [
      seeded.orgId,
      seeded.recallAgentId,
    ]);
    const facts = await c.query(`SELECT id FROM facts WHERE org_id = $1 AND bank_id = $2 ORDER BY md5(id::text) LIMIT 2000`, [
      seeded.orgId,
      seeded.bankId,
    ]);
    const fps = await c.query(`SELECT layout_fingerprint FROM layout_profiles WHERE org_id = $1 ORDER BY layout_fingerprint`, [
      seeded.orgId,
    ]);
    const episodeIds = eps.rows.map((r) => r.id as string);
    return {
      orgId: seeded.orgId,
      agentId: seeded.agentId,
      recallAgentId: seeded.recallAgentId,
      bankId: seeded.bankId,
      episodeIds,
      hotEpisodeId: episodeIds[0],
      fingerprints: fps.rows.map((r) => r.layout_fingerprint as string),
      embeddingDim: seeded.plan.embeddingDim,
      factIds: facts.rows.map((r) => r.id as string),
    };
  } finally {
    await c.end();
  }
}
