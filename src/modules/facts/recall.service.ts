import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors';
import { sql as raw } from 'kysely';
import { rows as runRows, sql, toDriverText } from '../../db/typed-sql';
import { limit, numberIn, text } from '../../core/validate';
import { factEmbedding, orgDimension } from './embedding-dimension';
import { FACT_COLUMNS, factFromRow } from './fact.rows';
import { type RecallInput, RecallStrategy } from './facts.inputs';
import { type RecalledFact, UsefulnessSource } from './facts.type';
import { normalizeQuery } from './usefulness';
import { CONTEXT_MATCH_SQL, cosineWith, finalScoreOf, semanticFromCosineOf, sumOfSquares, usefulnessNowOf } from './usefulness.sql';
import { candidateIds } from './vectors/candidates';
import { rankCandidates } from './vectors/exact-rank';
import type { FactIndex, Prepared } from './vectors/fact-index';
import type { BankVectors } from './vectors/bank-vectors';
import type { RecallParams as Params } from './recall-params';
import type { Embedder } from '../embeddings';
import { fusionDepth, lexicalCandidates, recallHybrid, recallHybridHeld } from './recall-hybrid';
import { queryVector } from './recall-strategy';
import { liveIn } from './as-of.sql';
import { type StepAside, stayInPlace } from '../../core/running';

const MAX_QUERY = 2000;

export function validateRecall(input: RecallInput): Params {
  text('input.bankId', input.bankId, 200, { required: true });
  text('input.query', input.query, MAX_QUERY, { required: true });
  if (input.kinds && input.kinds.length > 100) throw badInput('input.kinds', 'input.kinds must have at most 100 entries');
  const asOf = input.asOf ?? null;
  if (asOf && asOf.getTime() > Date.now()) throw badInput('input.asOf', 'input.asOf must not be in the future');
  if (asOf && input.strategy === RecallStrategy.SEMANTIC) throw badInput('input.strategy', 'recall with asOf ranks by LEXICAL or HYBRID');
  return {
    includeSuperseded: input.includeSuperseded ?? false,
    asOf,
    bankId: input.bankId,
    query: input.query,
    queryEmbedding: factEmbedding('input.queryEmbedding', input.queryEmbedding),
    limit: limit(input.limit, 10, 100, 'input.limit'),
    boost: input.boostByUsefulness ?? false,
    weight: numberIn('input.usefulnessWeight', input.usefulnessWeight, 0, 1) ?? 0.3,
    minUsefulness: numberIn('input.minUsefulness', input.minUsefulness, 0, 1) ?? 0,
    // an empty list filters nothing, like an absent one
    kinds: input.kinds?.length ? input.kinds : null,
    statuses: input.statuses?.length ? input.statuses : null,
    // a client's query embedding keeps the ranking of earlier versions unless a strategy is asked for
    strategy: input.strategy ?? (input.queryEmbedding && !asOf ? RecallStrategy.SEMANTIC : RecallStrategy.HYBRID),
  };
}

/**
 * The recall ranking as one built statement: every fact of the bank that passes the
 * filters is scored in PostgreSQL (read through the `(org_id, bank_id)` index; stubs with empty
 * text are left out), joined to its best matching query context, and the top `limit` by final
 * score come back. The query embedding is part of the statement (`cosineWith`: one arithmetic
 * expression per row over the stored sums of squares, its numbers bound), and what is known before the statement is
 * built (boosting, a zero `minUsefulness`) shapes it, so no row pays for the rest: usefulness is
 * decayed for every row only when it ranks or filters. Without a common table expression for the
 * inputs, PostgreSQL may scan a large bank with parallel workers.
 *
 * With `candidates` (the facts the vector index found able to reach the top `limit`), only they
 * and the facts without an embedding (ranked by text, found through a partial index) are scored,
 * with the same expressions.
 */
function rankingStatement(orgId: string, p: Params, qe: number[] | null, candidates: string[] | null = null) {
  const among = (alias: 'f' | 'cf') => {
    const [id, embedding, text] = ['id', 'embedding', 'text'].map((c) => raw.ref(`${alias}.${c}`));
    return raw<boolean>`(${id} = any(${candidates}::uuid[]) OR (${embedding} IS NULL AND ${text} <> ''))`;
  };
  const qnorm = normalizeQuery(p.query);
  const contextSim = qe
    ? raw<number | null>`CASE WHEN c.query_embedding IS NOT NULL THEN ${cosineWith('c.query_embedding', 'c.query_embedding_norm_sq', qe)}
               WHEN c.normalized_query = ${qnorm}::text THEN 1.0::float8 END`
    : raw<number>`1.0::float8`;
  const contexts = sql
    .selectFrom('fact_query_contexts as c')
    .innerJoin('facts as cf', (j) => j.onRef('cf.org_id', '=', 'c.org_id').onRef('cf.id', '=', 'c.fact_id'))
    .select(['c.fact_id', 'c.usefulness', 'c.last_signal_at', contextSim.as('sim')])
    .where('c.org_id', '=', orgId)
    .where('cf.bank_id', '=', p.bankId)
    .$if(candidates !== null, (q) => q.where(among('cf')))
    // without a query embedding only the same normalised text matches: read it through (org_id, normalized_query)
    .$if(qe === null, (q) => q.where('c.normalized_query', '=', qnorm));
  const semanticOf = (text: string) =>
    qe
      ? raw<number>`CASE WHEN f.embedding IS NOT NULL THEN ${semanticFromCosineOf(cosineWith('f.embedding', 'f.embedding_norm_sq', qe))}
             ELSE word_similarity(${text}::text, f.text)::float8 END`
      : raw<number>`word_similarity(${text}::text, f.text)::float8`;
  const final = finalScoreOf(raw.ref('scored.semantic'), raw.ref('scored.use'), p.weight, p.boost);
  // the top rows carry no embedding through the sort: their semantic score is computed again for
  // them alone (without boosting it is the final score)
  return sql
    .with('ctx', (db) =>
      db
        .selectFrom(contexts.as('m'))
        .distinctOn('m.fact_id')
        .select(['m.fact_id', 'm.usefulness', 'm.last_signal_at'])
        .where('m.sim', '>=', raw<number>`${raw.raw(CONTEXT_MATCH_SQL)}`)
        .orderBy('m.fact_id')
        .orderBy('m.sim', 'desc')
        .orderBy('m.last_signal_at', (o) => o.desc().nullsLast()),
    )
    .with('scored', (db) =>
      db
        .selectFrom('facts as f')
        .leftJoin('ctx', 'ctx.fact_id', 'f.id')
        .select([
          'f.id',
          semanticOf(p.query).as('semantic'),
          raw<boolean>`ctx.fact_id IS NOT NULL`.as('from_context'),
          raw<number>`CASE WHEN ctx.fact_id IS NOT NULL THEN ${usefulnessNowOf('ctx')} ELSE ${usefulnessNowOf('f')} END`.as('use'),
        ])
        .where('f.org_id', '=', orgId)
        .where('f.bank_id', '=', p.bankId)
        .where(raw<boolean>`f.text <> ''`)
        .where(liveIn('f', p))
        .$if(p.kinds !== null, (q) => q.where('f.kind', '=', raw<string>`any(${p.kinds}::text[])`))
        .$if(p.statuses !== null, (q) => q.where('f.status', '=', raw<string>`any(${p.statuses}::text[])`))
        .$if(candidates !== null, (q) => q.where(among('f'))),
    )
    .with('top', (db) =>
      db
        .selectFrom('scored')
        .select(['scored.id', 'scored.from_context', 'scored.use', final.as('final')])
        // usefulness is within [0, 1], so a zero minimum leaves nothing out
        .$if(p.minUsefulness > 0, (q) => q.where('scored.use', '>=', raw<number>`${p.minUsefulness}::float8`))
        .orderBy('final', 'desc')
        .orderBy('scored.id')
        .limit(p.limit),
    )
    .selectFrom('top')
    .innerJoin('facts as f', (j) => j.on('f.org_id', '=', orgId).onRef('f.id', '=', 'top.id'))
    .select([...FACT_COLUMNS, (p.boost ? semanticOf(p.query) : raw<number>`top.final`).as('semantic')])
    .select(['top.use', 'top.from_context', 'top.final'])
    .orderBy('top.final', 'desc')
    .orderBy('top.id');
}

/** `rankingStatement` as text with `?` placeholders and its bindings. */
export function rankingQuery(orgId: string, p: Params, qe: number[] | null, candidates: string[] | null = null): [string, unknown[]] {
  const { text, params } = toDriverText(rankingStatement(orgId, p, qe, candidates));
  return [text, params];
}

/**
 * Recall by the strategy asked for (see recall-strategy.ts for the query vector and the fallback):
 * SEMANTIC ranks as `semanticRecall`, LEXICAL and HYBRID as `recallHybrid`. While the server's
 * model embeds the query and nothing else of the recall runs, the request gives up its running
 * slot (`aside`), so that the recalls waiting for the model do not keep others from the database
 * and the model can embed their queries together.
 */
export async function recall(
  em: EntityManager,
  orgId: string,
  input: RecallInput,
  index: FactIndex | null = null,
  embedder: Embedder | null = null,
  aside: StepAside = stayInPlace,
): Promise<RecalledFact[]> {
  const p = validateRecall(input);
  // the vector index holds the facts live now: other views are ranked by PostgreSQL alone
  if (p.includeSuperseded || p.asOf) index = null;
  if (p.strategy === RecallStrategy.LEXICAL) return recallHybrid(em, orgId, p, null, null);
  if (p.strategy === RecallStrategy.HYBRID) return hybrid(em, orgId, p, index, embedder, aside);
  const qe = await aside(queryVector(orgId, p, embedder));
  if (qe === null && p.queryEmbedding === null && embedder?.enabled)
    // the embedder failed: the words alone
    return recallHybrid(em, orgId, p, null, null);
  const ranked = await semanticRecall(em, orgId, { ...p, queryEmbedding: qe }, index, p.queryEmbedding !== null);
  return ranked.map((r) => ({ ...r, lexicalScore: null, relevance: r.semanticScore ?? 0, strategyUsed: RecallStrategy.SEMANTIC }));
}

/**
 * HYBRID: the lexical candidates are found, and the vector index catches up, while the query is
 * embedded (a bank the index holds while nothing catches up needs no catch-up: the statement that
 * finds W reads the change log, and a change the index has not seen sends the recall through the
 * catch-up after all). When the index holds the bank's exact vectors (and, for a server-made query vector,
 * every vector of the bank is of the server's model), the cosines are computed here
 * (`recallHybridHeld`); otherwise one statement ranks with PostgreSQL's cosines (`recallHybrid`).
 */
async function hybrid(
  em: EntityManager,
  orgId: string,
  p: Params,
  index: FactIndex | null,
  embedder: Embedder | null,
  aside: StepAside,
): Promise<RecalledFact[]> {
  const fromClient = p.queryEmbedding !== null;
  if (!fromClient && !embedder?.enabled) return recallHybrid(em, orgId, p, null, null);
  const lexical = lexicalCandidates(em, orgId, p);
  // a bank held while nothing catches up: no catch-up first, the change log is read with W
  const held = index?.held(orgId, p.bankId) ?? null;
  let prepared = held ? undefined : index?.prepare(em, orgId, p.bankId);
  // both are awaited below unless the query has no vector; a failure then is not left unhandled
  lexical.catch(() => undefined);
  prepared?.catch(() => undefined);
  const vector = queryVector(orgId, p, embedder);
  vector.catch(() => undefined);
  // the statements hold the running slot; the rest of the model's time does not
  await Promise.allSettled([lexical, prepared]);
  const qe = await aside(vector);
  if (qe === null) {
    // the embedder failed: the words alone
    await prepared?.catch(() => undefined);
    return recallHybrid(em, orgId, p, null, null);
  }
  // the server's vector is compared with its own model's vectors only; a client's with every vector, as before
  const model = fromClient ? null : (embedder?.modelId ?? null);
  if (held && held.dimension === qe.length && held.bank.holdsExact && (model === null || held.bank.onlyModel(model))) {
    const ids = candidateIds(held.bank, semanticQuery(p, qe));
    const answer = ids && (await recallHybridHeld(em, orgId, p, await lexical, qe, held.bank, ids, held));
    if (answer) return answer;
  }
  prepared ??= index?.prepare(em, orgId, p.bankId);
  const semantic = await semanticCandidates(em, orgId, p, qe, prepared ?? null, fromClient);
  const { bank, ids } = semantic;
  if (semantic.usable && bank && ids && bank.holdsExact && (model === null || bank.onlyModel(model))) {
    const answer = await recallHybridHeld(em, orgId, p, await lexical, qe, bank, ids);
    if (answer) return answer;
  }
  await lexical.catch(() => undefined);
  return recallHybrid(em, orgId, p, semantic.usable ? qe : null, ids, model);
}

/** The candidate search of HYBRID's semantic list: the best `fusionDepth(limit)` by cosine alone. */
const semanticQuery = (p: Params, qe: number[]) => ({
  ...p,
  limit: fusionDepth(p.limit),
  boost: false,
  minUsefulness: 0,
  embedding: qe,
  normSq: sumOfSquares(qe),
  normalizedQuery: normalizeQuery(p.query),
  nowMs: Date.now(),
});

/**
 * The facts able to be among the best `fusionDepth(limit)` by cosine, as the vector index names
 * them (null: PostgreSQL ranks the bank's vectors); `usable` false when the organization has no
 * vectors yet or a server-made vector has another dimension than the organization's.
 */
async function semanticCandidates(
  em: EntityManager,
  orgId: string,
  p: Params,
  qe: number[],
  prepared: Promise<Prepared> | null,
  fromClient: boolean,
): Promise<{ usable: boolean; ids: string[] | null; bank: BankVectors | null }> {
  const { dimension: dim, bank } = prepared ? await prepared : { dimension: await orgDimension(em, orgId), bank: null };
  if (dim !== null && dim !== qe.length) {
    if (fromClient)
      throw badInput('input.queryEmbedding', `input.queryEmbedding must have ${dim} numbers, the embedding dimension of this organization`);
    return { usable: false, ids: null, bank: null };
  }
  if (dim === null) return { usable: false, ids: null, bank: null };
  if (!bank) return { usable: true, ids: null, bank: null };
  const ids = candidateIds(bank, semanticQuery(p, qe));
  return { usable: true, ids, bank };
}

/**
 * Today's ranking (strategy SEMANTIC): with a query embedding and the vector index, the index
 * (brought up to date first) names the candidates, ranked here when the bank has no facts without
 * an embedding, else by PostgreSQL with the facts it ranks by text; without the index PostgreSQL
 * ranks the whole bank.
 */
async function semanticRecall(
  em: EntityManager,
  orgId: string,
  p: Params,
  index: FactIndex | null,
  fromClient: boolean,
): Promise<RecalledFact[]> {
  let qe = p.queryEmbedding;
  let candidates: string[] | null = null;
  const candidateQuery = (embedding: number[]) => ({
    ...p,
    embedding,
    normSq: sumOfSquares(embedding),
    normalizedQuery: normalizeQuery(p.query),
    nowMs: Date.now(),
  });
  // a bank held while nothing is catching up: rank and read the change log in one statement
  const held = qe && index ? index.held(orgId, p.bankId) : null;
  if (qe && held && held.dimension === qe.length && held.bank.textOnly.size === 0) {
    const quick = candidateIds(held.bank, candidateQuery(qe));
    const answer = quick && (await rankCandidates(em, orgId, p, qe, quick, held));
    if (answer) return answer;
  }
  if (qe) {
    const { dimension: dim, bank } = index
      ? await index.prepare(em, orgId, p.bankId)
      : { dimension: await orgDimension(em, orgId), bank: null };
    if (dim !== null && dim !== qe.length) {
      if (fromClient)
        throw badInput(
          'input.queryEmbedding',
          `input.queryEmbedding must have ${dim} numbers, the embedding dimension of this organization`,
        );
      qe = null; // a server-made vector of another model than the organization's: text similarity
    } else if (dim === null)
      qe = null; // no fact or query context has an embedding yet
    else if (bank) {
      candidates = candidateIds(bank, candidateQuery(qe));
      // a bank whose facts all have embeddings needs no text similarity: its candidates are ranked here
      if (candidates && bank.textOnly.size === 0) return (await rankCandidates(em, orgId, p, qe, candidates, null, bank))!;
    }
  }
  const rows = await runRows(em, rankingStatement(orgId, p, qe, candidates));
  const now = new Date();
  return rows.map((r) => ({
    fact: factFromRow(r, now),
    semanticScore: Number(r.semantic),
    usefulnessScore: Number(r.use),
    usefulnessSource: r.from_context ? UsefulnessSource.QUERY_CONTEXT : UsefulnessSource.GLOBAL,
    finalScore: Number(r.final),
  }));
}
