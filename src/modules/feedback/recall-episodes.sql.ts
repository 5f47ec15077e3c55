import { type RawBuilder, sql as raw } from 'kysely';
import { sql, toDriverText } from '../../db/typed-sql';
import { EPISODE_COLUMNS, oldestEmbeddedDimension } from '../episodes';
import { INLINE_DIMENSIONS, sumOfSquares } from '../facts';
import { CANVAS_BOOST, NEGATIVE_FEEDBACK_BOOST, POSITIVE_FEEDBACK_BOOST, RECENCY_WEIGHT, RELEVANCE_WEIGHT } from './recall-episodes.score';

export interface EpisodeRankingArgs {
  agentId: string;
  query: string;
  emb: number[] | null;
  limit: number;
  since: Date | null;
}

/**
 * Cosine of the episode's embedding with the query vector `q`, 0 when either is all zeros, with the
 * same floating-point result as the facts' cosine: the dot product added up left to right (one
 * arithmetic expression over subscripts up to INLINE_DIMENSIONS, else an aggregate over `unnest`
 * that reads the stored array once), divided by `sqrt(stored sum of squares * sum of squares of q)`.
 * Every component of `q` is a bound float8.
 */
function episodeCosine(q: readonly number[]): RawBuilder<number> {
  const qNormSq = sumOfSquares(q);
  if (qNormSq === 0) return raw<number>`0.0::float8`;
  const dot =
    q.length <= INLINE_DIMENSIONS
      ? raw.join(
          q.map((x, i) => raw`e.embedding[${raw.lit(i + 1)}] * ${x}::float8`),
          raw` + `,
        )
      : raw`(SELECT sum(x * y) FROM (SELECT unnest(e.embedding) AS x, unnest(${[...q]}::float8[]) AS y) AS u)`;
  return raw<number>`(CASE WHEN e.embedding_norm_sq = 0 THEN 0.0::float8
                     ELSE (${dot}) / sqrt(e.embedding_norm_sq * ${qNormSq}::float8) END)`;
}

/** How well the episode's title, task or topic matches the query text. */
const textRelevance = (query: string) =>
  raw<number>`greatest(word_similarity(${query}, coalesce(e.title, '')), word_similarity(${query}, coalesce(e.task, '')),
                       word_similarity(${query}, coalesce(e.topic, '')))`;

/**
 * The ranking statement: scores of the agent's episodes (only id and time carried through the
 * sort), the best `limit` joined back to their rows. Every part of the score, and the score, is
 * computed here once (the formulas of recall-episodes.score.ts), every weight and boost bound as a
 * float8. With a query embedding it also reads the dimension of the organization's episode
 * embeddings (CTE `d`), and ranks nothing when it differs. The statement returns one row even when
 * nothing ranks (id NULL), so the dimension is always read.
 */
export function episodeRanking(orgId: string, lambda: number, a: EpisodeRankingArgs) {
  const emb = a.emb;
  const relevance = emb
    ? raw<number>`CASE WHEN e.embedding IS NOT NULL AND cardinality(e.embedding) = ${emb.length}
                       THEN greatest(0.0::float8, ${episodeCosine(emb)}) ELSE ${textRelevance(a.query)} END`
    : textRelevance(a.query);
  // without a query embedding nothing reads the dimension: `d` is a constant no statement evaluates
  return sql
    .with('d', (db) => db.selectNoFrom(emb ? oldestEmbeddedDimension(orgId).as('n') : raw<number | null>`NULL::int`.as('n')))
    .with('s', (db) =>
      db
        .selectFrom('episodes as e')
        .select(['e.id', 'e.created_at'])
        .select([
          raw<number>`(${relevance})::float8`.as('relevance'),
          raw<number>`exp(-${lambda}::float8 * greatest(0, extract(epoch FROM now() - e.created_at)) / 86400)::float8`.as('recency'),
          raw<number>`CASE WHEN e.canvas_action_count > 0 THEN ${CANVAS_BOOST}::float8 ELSE 0 END::float8`.as('canvas_boost'),
          raw<number>`CASE WHEN e.feedback_score_count = 0 OR e.feedback_score_sum = 0 THEN 0
                      WHEN e.feedback_score_sum > 0 THEN ${POSITIVE_FEEDBACK_BOOST}::float8
                      ELSE ${NEGATIVE_FEEDBACK_BOOST}::float8 END::float8`.as('feedback_boost'),
        ])
        .where('e.org_id', '=', orgId)
        .where('e.agent_id', '=', a.agentId)
        .$if(a.since !== null, (q) => q.where('e.created_at', '>=', a.since!.toISOString()))
        .$if(emb !== null, (q) => q.where((eb) => eb.fn.coalesce(eb.selectFrom('d').select('d.n'), eb.val(emb!.length)), '=', emb!.length)),
    )
    .with('b', (db) =>
      db
        .selectFrom('s')
        .selectAll()
        .select(raw<number>`${RELEVANCE_WEIGHT}::float8 * relevance + ${RECENCY_WEIGHT}::float8 * recency`.as('base_score')),
    )
    .with('t', (db) =>
      db
        .selectFrom('b')
        .selectAll()
        .select(raw<number>`base_score + canvas_boost + feedback_boost`.as('final_score'))
        .orderBy('final_score', 'desc')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(a.limit),
    )
    .selectFrom('t')
    .innerJoin('episodes as e', (j) => j.on('e.org_id', '=', orgId).onRef('e.id', '=', 't.id'))
    .rightJoin(raw`(SELECT 1)`.as('one'), (j) => j.onTrue())
    .select([
      (emb ? raw<number | null>`(SELECT n FROM d)` : raw<number | null>`NULL`).as('dimension'),
      't.relevance',
      't.recency',
      't.base_score',
      't.canvas_boost',
      't.feedback_boost',
      't.final_score',
    ])
    .select(EPISODE_COLUMNS)
    .orderBy('t.final_score', 'desc')
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id', 'desc');
}

/** The ranking statement as text with positional `?` placeholders and its values, for callers that run text. */
export function episodeRankingStatement(orgId: string, lambda: number, a: EpisodeRankingArgs): [string, unknown[]] {
  const { text, params } = toDriverText(episodeRanking(orgId, lambda, a));
  return [text, params];
}
