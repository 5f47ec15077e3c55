import pg from 'pg';
import type { Logger } from '../../core/logger';
import { CLIENT_MODEL_ID, type Embedder, type EmbeddingPurpose } from './embedder';
import type { EmbeddingMetrics } from './metrics';

/** The text an episode is embedded by: its title and task, the blank ones left out. */
export const episodeText = (title: string | null | undefined, task: string | null | undefined): string | null =>
  [title, task].filter((t): t is string => !!t && t.trim() !== '').join('\n') || null;

interface Table {
  name: 'facts' | 'fact_query_contexts' | 'episodes';
  vector: string;
  /** columns read to make the text */
  columns: string;
  /** rows that have something to embed */
  hasText: string;
  text(row: Record<string, string | null>): string;
  purpose: EmbeddingPurpose;
}

const TABLES: Table[] = [
  { name: 'facts', vector: 'embedding', columns: 'text', hasText: `t.text <> ''`, text: (r) => r.text!, purpose: 'document' },
  {
    name: 'fact_query_contexts',
    vector: 'query_embedding',
    columns: 'query',
    hasText: `t.query <> ''`,
    text: (r) => r.query!,
    purpose: 'query',
  },
  {
    name: 'episodes',
    vector: 'embedding',
    columns: 'title, task',
    hasText: `(coalesce(t.title, '') <> '' or coalesce(t.task, '') <> '')`,
    text: (r) => episodeText(r.title, r.task) ?? '',
    purpose: 'document',
  },
];

/**
 * Rows still to embed with model $1 (org $2): a vector of another model than $1 that is no
 * client's, or (backfill) no vector at all while the organization has no client vectors in this
 * table; and no shadow vector made yet.
 */
const pending = (t: Table) => `t.org_id = $2 and t.embedding_next is null and (
    (t.${t.vector} is not null and t.embedding_model <> $1 and t.embedding_model <> '${CLIENT_MODEL_ID}')
    or (t.${t.vector} is null and ${t.hasText}
        and not exists (select 1 from ${t.name} c where c.org_id = $2 and c.embedding_model = '${CLIENT_MODEL_ID}')))`;

const BATCH = 64;
/** one instance at a time re-embeds (a session advisory lock on this key) */
const LOCK_KEY = 0x656d6265; // 'embe'

export interface ReembedProgress {
  /** rows still to embed, per table, over all organizations (as of the last count) */
  remaining: Record<string, number>;
  /** rows embedded again since this process started */
  done: number;
  running: boolean;
}

/**
 * Re-embeds stored vectors after the embedding model changed (and gives vectors to rows written
 * under provider 'none'), in the background. New vectors go to the shadow column `embedding_next`
 * in batches (a restart resumes where it stopped); recall keeps reading the old vectors. When every
 * row of an organization has its new vector, one transaction swaps them in for all three tables and
 * sets the organization's fact dimension. Organizations whose client vectors have another dimension
 * than the model's are left as they are (their space would otherwise mix).
 */
export class Reembedder {
  readonly progress: ReembedProgress = { remaining: {}, done: 0, running: false };
  private stopped = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly embedder: Embedder,
    private readonly metrics: EmbeddingMetrics,
    private readonly log: Logger,
  ) {}

  stop(): void {
    this.stopped = true;
  }

  /** Runs to the end (or until stopped); resolves false when another instance holds the lock. */
  async run(): Promise<boolean> {
    if (!this.embedder.enabled || !this.embedder.modelId) return true;
    const db = new pg.Client({ connectionString: this.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [LOCK_KEY]);
      if (!rows[0].locked) return false;
      this.progress.running = true;
      await this.count(db);
      const orgs = await this.orgsToDo(db);
      if (orgs.length > 0) this.log.info({ organizations: orgs.length, remaining: this.progress.remaining }, 're-embedding started');
      for (const orgId of orgs) {
        if (this.stopped) break;
        await this.runOrg(db, orgId);
        await this.count(db);
      }
      if (orgs.length > 0 && !this.stopped) this.log.info({ done: this.progress.done }, 're-embedding finished');
      return true;
    } finally {
      this.progress.running = false;
      await db.end().catch(() => {});
    }
  }

  private async count(db: pg.Client): Promise<void> {
    for (const t of TABLES) {
      const { rows } = await db.query<{ n: number }>(
        `select count(*)::int as n from ${t.name} t where ${pending(t).replaceAll('t.org_id = $2 and ', '').replaceAll('c.org_id = $2', 'c.org_id = t.org_id')}`,
        [this.embedder.modelId],
      );
      this.progress.remaining[t.name] = rows[0].n;
      this.metrics.reembedRemaining.set({ table: t.name }, rows[0].n);
    }
  }

  private async orgsToDo(db: pg.Client): Promise<string[]> {
    const { rows } = await db.query<{ org_id: string }>(
      `select org_id from (${TABLES.map(
        (t) => `select distinct t.org_id from ${t.name} t where t.embedding_next is not null
         or ${pending(t).replaceAll('t.org_id = $2 and ', '').replaceAll('c.org_id = $2', 'c.org_id = t.org_id')}`,
      ).join(' union ')}) o order by org_id`,
      [this.embedder.modelId],
    );
    return rows.map((r) => r.org_id);
  }

  /** Client vectors of another dimension than the model's, in any table of the organization. */
  private async clashes(db: pg.Client, orgId: string, dim: number): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `select ${TABLES.map(
        (t) =>
          `(select count(*) from ${t.name} where org_id = $1 and embedding_model = '${CLIENT_MODEL_ID}' and cardinality(${t.vector}) <> $2)`,
      ).join(' + ')}::int as n`,
      [orgId, dim],
    );
    return rows[0].n;
  }

  private async runOrg(db: pg.Client, orgId: string): Promise<void> {
    const model = this.embedder.modelId!;
    if (this.embedder.dimension() === null) await this.embedder.embed(orgId, ['dimension'], 'query');
    const clash = await this.clashes(db, orgId, this.embedder.dimension()!);
    if (clash > 0) {
      this.log.warn({ orgId, clientVectors: clash }, 're-embedding skipped: the organization has client vectors of another dimension');
      return;
    }
    for (const t of TABLES) {
      for (;;) {
        if (this.stopped) return;
        const { rows } = await db.query<Record<string, string | null> & { id: string }>(
          `select t.id, ${t.columns} from ${t.name} t where ${pending(t)} order by t.id limit ${BATCH}`,
          [model, orgId],
        );
        if (rows.length === 0) break;
        const vectors = await this.embedder.embed(
          orgId,
          rows.map((r) => t.text(r)),
          t.purpose,
        );
        await db.query(
          `update ${t.name} t set embedding_next = x.v::float8[] from unnest($1::uuid[], $2::text[]) as x(id, v) where t.org_id = $3 and t.id = x.id`,
          [rows.map((r) => r.id), vectors.map((v) => `{${v.join(',')}}`), orgId],
        );
        this.progress.done += rows.length;
        this.metrics.reembedDone.inc({ table: t.name }, rows.length);
      }
    }
    await this.swap(db, orgId, model);
  }

  /** Swaps the shadow vectors in, all tables of the organization at once, unless its client vectors have another dimension. */
  private async swap(db: pg.Client, orgId: string, model: string): Promise<void> {
    const dim = this.embedder.dimension()!;
    await db.query('begin');
    try {
      // a client vector written meanwhile could not have had another dimension (the write checks it); checked again all the same
      if ((await this.clashes(db, orgId, dim)) > 0) {
        await db.query('rollback');
        return;
      }
      for (const t of TABLES) {
        await db.query(
          `update ${t.name} set ${t.vector} = embedding_next, embedding_model = $2, embedding_next = null where org_id = $1 and embedding_next is not null`,
          [orgId, model],
        );
      }
      await db.query(
        `insert into fact_embedding_dimensions (org_id, dimension, created_at) select $1, $2, now()
           where exists (select 1 from facts where org_id = $1 and embedding is not null)
         on conflict (org_id) do update set dimension = excluded.dimension`,
        [orgId, dim],
      );
      await db.query('commit');
    } catch (err) {
      await db.query('rollback').catch(() => {});
      throw err;
    }
  }
}
